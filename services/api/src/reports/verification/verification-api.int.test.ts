import ExcelJS from 'exceljs';
import request from 'supertest';
import { formatReportCode, parseReportCode, type ReportVerificationDto } from '@rna/domain';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import { anAid, startApiHarness, type ApiHarness } from '../../documents/testing';
import { pageTexts } from '../testing/pdf-pages';
import { VERIFICATION_MISSES } from './routes';
import { binaryBody as binary } from '../../testing/binary-body';

// Chromium renders the PDFs: its first start alone can take seconds on two busy cores
jest.setTimeout(60_000);

const CODE = '01234567897';
const OTHER = '12345678903';
const QUERY = `taxCodes=${CODE},${OTHER}&deMinimis=false&last3Years=false`;
const PRINTED = /Codice di verifica ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z])/;

/** The same code with one character replaced by another of the alphabet, its check character kept. */
function altered(printed: string, at: number): string {
  const swap = printed[at] === '7' ? '8' : '7';
  return printed.slice(0, at) + swap + printed.slice(at + 1);
}

describe('verifying a report the portal issued', () => {
  let api: ApiHarness;
  const renderer = new ChromiumPdfRenderer({ poolSize: 1 });
  beforeAll(async () => {
    api = await startApiHarness({ pdfRenderer: renderer });
    // 150 aids: the table runs over several pages, each of which must carry the code
    await api.indexAids(
      Array.from({ length: 150 }, (_, i) =>
        anAid({ idComponenteAiuto: String(5000 + i), codiceFiscaleBeneficiario: i % 2 ? CODE : OTHER }),
      ),
    );
  }, 60_000);
  afterAll(async () => {
    await api.close();
    await renderer.close();
  });

  const download = (path: string, token: string) =>
    request(api.app).get(path).set('Authorization', `Bearer ${token}`).buffer(true).parse(binary);
  const verify = (code: string, ip = '10.0.0.1') =>
    request(api.app)
      .get(`/api/reports/verify/${encodeURIComponent(code)}`)
      .set('X-Forwarded-For', ip);

  it('prints one code on every page of a PDF, and the public verification names what was issued, no amounts', async () => {
    const client = await api.client({ remainingSearches: 5, pdfEnabled: true });
    const pdf = (await download(`/api/documents/pdf?${QUERY}`, client.token).expect(200)).body as Buffer;
    const pages = await pageTexts(pdf);
    const logos = (await request(api.app).get('/api/logos').set('Authorization', `Bearer ${api.adminToken}`))
      .body as { id: number; name: string }[];
    const defaultLogoName = logos.find((logo) => logo.id === -1)?.name;
    expect(pages.length).toBeGreaterThan(2);
    const codes = pages.map((page) => PRINTED.exec(page)?.[1]);
    expect(codes.every((code) => code !== undefined && code === codes[0])).toBe(true);
    const printed = codes[0]!;
    // the summary says where the page can be checked
    expect(pages[0]).toContain(`http://portale.test/verifica/${parseReportCode(printed)}`);

    await api.deps.awaitProjections?.();
    const answer = (await verify(printed).expect(200)).body as ReportVerificationDto;
    expect(answer).toEqual({
      code: printed,
      issuedAt: api.now().getTime(),
      kind: 'pdf',
      taxCodes: [CODE, OTHER],
      organisation: defaultLogoName,
    });
    expect(defaultLogoName).not.toBe('');
    expect(JSON.stringify(answer)).not.toMatch(/@|importo|elemento/i);
    // however it is typed
    expect((await verify(printed.toLowerCase().replace(/-/g, ' ')).expect(200)).body.code).toBe(printed);
  });

  it('gives every download its own code, the workbook too', async () => {
    const client = await api.client({ remainingSearches: 5, pdfEnabled: true });
    const sheet = (await download(`/api/documents/sheet?${QUERY}`, client.token).expect(200)).body as Buffer;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sheet as unknown as ArrayBuffer);
    const summary = workbook.getWorksheet('Riepilogo')!;
    let line = '';
    summary.eachRow((row) => {
      if (row.getCell(1).text === 'Verifica') line = row.getCell(2).text;
    });
    const fromSheet = PRINTED.exec(line)?.[1];
    expect(fromSheet).toBeDefined();
    const pdf = (await download(`/api/documents/pdf?${QUERY}`, client.token).expect(200)).body as Buffer;
    const fromPdf = PRINTED.exec((await pageTexts(pdf))[0]!)?.[1];
    expect(fromPdf).toBeDefined();
    expect(fromPdf).not.toBe(fromSheet);
    await api.deps.awaitProjections?.();
    expect((await verify(fromSheet!).expect(200)).body.kind).toBe('sheet');
    expect((await verify(fromPdf!).expect(200)).body.kind).toBe('pdf');
  });

  it('stamps the de minimis declaration on every page too', async () => {
    const client = await api.client({ remainingSearches: 5, pdfEnabled: true });
    const pdf = (
      await download(`/api/de-minimis/declaration?taxCodes=${CODE}&date=2026-03-10`, client.token).expect(200)
    ).body as Buffer;
    const codes = (await pageTexts(pdf)).map((page) => PRINTED.exec(page)?.[1]);
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.every((code) => code !== undefined && code === codes[0])).toBe(true);
    await api.deps.awaitProjections?.();
    expect((await verify(codes[0]!).expect(200)).body).toMatchObject({
      kind: 'declaration',
      taxCodes: [CODE],
    });
  });

  it('says when a code was altered or never issued, and does not let one address try codes in bulk', async () => {
    const client = await api.client({ remainingSearches: 5, pdfEnabled: true });
    const pdf = (await download(`/api/documents/pdf?${QUERY}`, client.token).expect(200)).body as Buffer;
    const printed = PRINTED.exec((await pageTexts(pdf))[0]!)![1]!;
    await api.deps.awaitProjections?.();
    // one character changed: the check character catches it
    expect((await verify(altered(printed, 2), '10.0.0.2').expect(400)).body.code).toBe('R001');
    // a well-formed code the portal never issued (a forger who knows the check rule)
    const wellFormed = (() => {
      // the printed code with its 12th character changed (to one it is not: codes are random, and
      // 'Z' alone was the printed one's own 12th character once in 32 runs)
      const plain = printed.replace(/-/g, '');
      const body = `${plain.slice(0, 11)}${plain[11] === 'Z' ? 'Y' : 'Z'}`;
      for (const check of '0123456789ABCDEFGHJKMNPQRSTVWXYZ') {
        if (parseReportCode(body + check)) return formatReportCode(body + check);
      }
      throw new Error('no check character');
    })();
    expect((await verify(wellFormed, '10.0.0.2').expect(404)).body.code).toBe('R002');
    expect((await verify('<script>', '10.0.0.2').expect(400)).body.code).toBe('R001');
    // the real code still verifies from that address; misses are what is counted
    await verify(printed, '10.0.0.2').expect(200);
    for (let i = 3; i < VERIFICATION_MISSES.limit; i += 1) await verify(wellFormed, '10.0.0.2').expect(404);
    const refused = await verify(wellFormed, '10.0.0.2').expect(429);
    expect(refused.body.code).toBe('Q001');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // another address is not held back
    await verify(printed, '10.0.0.3').expect(200);
  });
});
