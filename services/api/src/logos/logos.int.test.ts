import request from 'supertest';
import sharp from 'sharp';
import type { LogoDto } from '@rna/domain';
import { startTestApi, type TestApi } from '../testing/harness';
import { drawDefaultLogo, encodePng } from './default-logo';
import { normaliseStoredLogos } from './commands';
import { detectImageType, LOGO_BOX, MAX_LOGO_PIXELS } from './images';

jest.setTimeout(60_000);

const tinyPng = encodePng(2, 2, () => [200, 10, 10, 255]);
let tinyJpeg: Buffer;
beforeAll(async () => {
  tinyJpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
    .jpeg()
    .toBuffer();
});

/**
 * A PNG of width × height pixels in a few KB: one flat colour deflates to almost nothing, as the
 * 31 KB logo of 16,000 × 16,000 pixels that took the API down did.
 */
const flatPng = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .png({ compressionLevel: 9 })
    .toBuffer();

describe('logos', () => {
  let api: TestApi;
  let admin: string;
  beforeAll(async () => {
    api = await startTestApi();
    admin = await api.adminToken();
  });
  afterAll(() => api.close());

  const asAdmin = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
    request(api.app)[method](`/api${path}`).set('Authorization', `Bearer ${admin}`);
  const upload = (name: string, bytes: Buffer, fileName: string) =>
    asAdmin('post', '/logos').field('name', name).attach('file', bytes, fileName);

  it('ships a built-in default logo (id -1) that is a real PNG', async () => {
    const logos = (await asAdmin('get', '/logos').expect(200)).body as LogoDto[];
    expect(logos[0]).toMatchObject({ id: -1, name: 'default', fileName: 'default-logo.png' });
    const image = await request(api.app).get('/api/images/default-logo.png').expect(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(detectImageType(image.body as Buffer)?.extension).toBe('png');
    expect(drawDefaultLogo().length).toBeGreaterThan(100);
  });

  it('uploads PNG and JPEG recognised by their bytes, lists default first then by name', async () => {
    const zeta = (await upload('Zeta', tinyPng, 'z.png').expect(200)).body as LogoDto;
    const alfa = (await upload('alfa', tinyJpeg, 'named-like-a.png').expect(200)).body as LogoDto;
    expect(zeta.fileName).toMatch(/\.png$/);
    expect(alfa.fileName).toMatch(/\.jpg$/);
    expect(zeta.pdfConfig.primaryColor).toMatch(/^#[0-9A-F]{6}$/);
    const names = ((await asAdmin('get', '/logos').expect(200)).body as LogoDto[]).map((l) => l.name);
    expect(names).toEqual(['default', 'alfa', 'Zeta']);
    const image = await request(api.app).get(`/api/images/${alfa.fileName}`).expect(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
  });

  it('refuses other files, missing names and oversize files with F001', async () => {
    const gif = await upload('gif', Buffer.from('GIF89a........'), 'logo.png');
    expect(gif.status).toBe(400);
    expect(gif.body.code).toBe('F001');
    expect((await asAdmin('post', '/logos').attach('file', tinyPng, 'x.png')).body.code).toBe('F001');
    expect((await asAdmin('post', '/logos').field('name', 'vuoto')).body.code).toBe('F001');
    const big = Buffer.concat([tinyPng, Buffer.alloc(1024 * 1024 + 10)]);
    const oversize = await upload('grande', big, 'big.png');
    expect(oversize.status).toBe(400);
    expect(oversize.body.code).toBe('F001');
  });

  it('refuses an image of more pixels than a logo may have, however small the file (F001)', async () => {
    const side = Math.ceil(Math.sqrt(MAX_LOGO_PIXELS)) + 1;
    const bomb = await flatPng(side, side);
    expect(bomb.length).toBeLessThan(1024 * 1024); // within the upload's byte limit
    const res = await upload('enorme', bomb, 'enorme.png');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('F001');
    expect(res.body.message).toContain('pixel');
    const names = ((await asAdmin('get', '/logos').expect(200)).body as LogoDto[]).map((l) => l.name);
    expect(names).not.toContain('enorme');
  });

  it('refuses a file that only starts like an image (F001)', async () => {
    const fake = Buffer.concat([tinyPng.subarray(0, 8), Buffer.from('<svg onload=alert(1)>')]);
    expect((await upload('finto', fake, 'finto.png')).body.code).toBe('F001');
  });

  it('keeps and serves a copy scaled into the letterhead box, without what was hidden in the file', async () => {
    const wide = await sharp({ create: { width: 3000, height: 600, channels: 4, background: '#ff000080' } })
      .png()
      .withMetadata({ exif: { IFD0: { Copyright: 'segreto-nascosto' } } })
      .toBuffer();
    const withTrailer = Buffer.concat([wide, Buffer.from('<script>alert(1)</script>')]);
    const logo = (await upload('Largo', withTrailer, 'largo.png').expect(200)).body as LogoDto;
    const served = (await request(api.app).get(`/api/images/${logo.fileName}`).expect(200)).body as Buffer;
    const meta = await sharp(served).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width).toBe(LOGO_BOX.width);
    expect(meta.height).toBe(160); // 3000 × 600 scaled into 800 × 400, proportions kept
    expect(meta.hasAlpha).toBe(true);
    expect(served.includes('segreto-nascosto')).toBe(false);
    expect(served.includes('<script>')).toBe(false);
  });

  it('brings logos stored before the bounds within them at start, and replaces one it cannot read', async () => {
    const old = (await upload('Vecchio', tinyPng, 'v.png').expect(200)).body as LogoDto;
    const bomb = (await upload('Bomba', tinyPng, 'b.png').expect(200)).body as LogoDto;
    // as an earlier version stored them: the uploaded file as it came
    await api.deps.blobs.put(old.fileName, await flatPng(2400, 1200), 'image/png');
    const side = Math.ceil(Math.sqrt(MAX_LOGO_PIXELS)) + 1;
    await api.deps.blobs.put(bomb.fileName, await flatPng(side, side), 'image/png');
    await normaliseStoredLogos(api.deps);
    const served = async (fileName: string) =>
      sharp((await request(api.app).get(`/api/images/${fileName}`).expect(200)).body as Buffer).metadata();
    expect(await served(old.fileName)).toMatchObject({ width: 800, height: 400 });
    const replaced = await served(bomb.fileName);
    expect(replaced.width! * replaced.height!).toBeLessThanOrEqual(LOGO_BOX.width * LOGO_BOX.height);
  });

  it('serves images with an ETag and answers 304 when unchanged', async () => {
    const first = await request(api.app).get('/api/images/default-logo.png').expect(200);
    expect(first.headers['cache-control']).toMatch(/max-age=\d+/);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    await request(api.app).get('/api/images/default-logo.png').set('If-None-Match', etag).expect(304);
    expect((await request(api.app).get('/api/images/nothing.png')).status).toBe(404);
    expect((await request(api.app).get('/api/images/..%2Fsecrets')).status).toBe(400);
  });

  it('sets the PDF layout: 6 hex digits with optional #, non-empty footers', async () => {
    const logo = (await upload('Layout', tinyPng, 'l.png').expect(200)).body as LogoDto;
    const ok = (
      await asAdmin('post', `/logos/${logo.id}/pdf-config`)
        .send({
          primaryColor: 'a1b2c3',
          footer1: 'Studio Rossi',
          footer2: 'Via Roma 1',
          subRenewUrl: 'https://rinnovo.it',
        })
        .expect(200)
    ).body as LogoDto;
    expect(ok.pdfConfig).toEqual({ primaryColor: '#A1B2C3', footer1: 'Studio Rossi', footer2: 'Via Roma 1' });
    expect(ok.subRenewUrl).toBe('https://rinnovo.it');
    for (const bad of [
      { primaryColor: '#12345', footer1: 'a', footer2: 'b' },
      { primaryColor: '#123456', footer1: ' ', footer2: 'b' },
      { primaryColor: '#123456', footer1: 'a', footer2: 'b', subRenewUrl: 'javascript:alert(1)' },
    ]) {
      const res = await asAdmin('post', `/logos/${logo.id}/pdf-config`).send(bad);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('J001');
    }
  });

  it('deletes uploaded logos but never built-in ones (F002); ids are not reused', async () => {
    const logo = (await upload('Temporaneo', tinyPng, 't.png').expect(200)).body as LogoDto;
    await asAdmin('delete', `/logos/${logo.id}`).expect(204);
    expect(((await asAdmin('get', '/logos')).body as LogoDto[]).some((l) => l.id === logo.id)).toBe(false);
    expect((await request(api.app).get(`/api/images/${logo.fileName}`)).status).toBe(404);
    const builtIn = await asAdmin('delete', '/logos/-1');
    expect(builtIn.status).toBe(400);
    expect(builtIn.body.code).toBe('F002');
    expect((await asAdmin('delete', `/logos/${logo.id}`)).body.code).toBe('F002');
    const next = (await upload('Nuovo', tinyPng, 'n.png').expect(200)).body as LogoDto;
    expect(next.id).toBeGreaterThan(logo.id);
  });
});
