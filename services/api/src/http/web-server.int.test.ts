import express from 'express';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { startWebServer, type RunningWebServer } from './web-server';

/** A large search answer: thousands of rows repeating the same company and measure texts. */
const largeRows = Array.from({ length: 3000 }, (_, i) => ({
  id: String(i),
  codiceFiscaleBeneficiario: '01234567897',
  denominazioneBeneficiario: 'STUDIO ROSSI E ASSOCIATI SRL',
  titoloMisura: 'Fondo di garanzia per le piccole e medie imprese',
  importoNominale: `${i}.000,00 €`,
}));

/** The raw answer of a GET with this Accept-Encoding: headers and the bytes as sent. */
function rawGet(
  url: string,
  acceptEncoding: string,
): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('standalone web server', () => {
  let dir: string;
  let server: RunningWebServer;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'web-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Portale</title><div id="root"></div>');
    writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
    const api = express.Router();
    api.get('/ping', (_req, res) => {
      res.json({ pong: true });
    });
    api.get('/large', (_req, res) => {
      res.json({ rows: largeRows });
    });
    api.get('/report.pdf', (_req, res) => {
      res.type('application/pdf').send(Buffer.alloc(64 * 1024, 'x'));
    });
    server = await startWebServer({
      apiRouter: api,
      frontendDir: dir,
      port: 0,
      host: '127.0.0.1',
      runtimeConfig: () => ({ version: '1.2.3', apiBaseUrl: '/api', forcedLastUpdate: null }),
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the API under /api and the runtime configuration at /config.json', async () => {
    expect(await (await fetch(`${server.url}/api/ping`)).json()).toEqual({ pong: true });
    const config = await fetch(`${server.url}/config.json`);
    expect(config.headers.get('cache-control')).toBe('no-store');
    expect(await config.json()).toEqual({ version: '1.2.3', apiBaseUrl: '/api', forcedLastUpdate: null });
  });

  it.each([
    ['gzip', zlib.gunzipSync],
    ['br', zlib.brotliDecompressSync],
  ])('sends large JSON answers compressed with %s when the browser accepts it', async (encoding, decode) => {
    const plain = await rawGet(`${server.url}/api/large`, 'identity');
    const packed = await rawGet(`${server.url}/api/large`, encoding);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(packed.headers['content-encoding']).toBe(encoding);
    expect(packed.body.length).toBeLessThan(plain.body.length / 10);
    expect(JSON.parse(decode(packed.body).toString('utf8'))).toEqual({ rows: largeRows });
  });

  it('leaves a PDF as it is: compressing it again gains nothing', async () => {
    const pdf = await rawGet(`${server.url}/api/report.pdf`, 'gzip, br');
    expect(pdf.headers['content-encoding']).toBeUndefined();
    expect(pdf.body.length).toBe(64 * 1024);
  });

  it('serves the front end for any client-side route, and hashed assets with long caching', async () => {
    const page = await fetch(`${server.url}/documents?taxCode=01234567897`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const asset = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });
});

describe('security headers', () => {
  let dir: string;
  const servers: RunningWebServer[] = [];
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'web-headers-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Portale</title>');
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(publicUrl: string): Promise<RunningWebServer> {
    const api = express.Router();
    api.get('/ping', (_req, res) => {
      res.json({ pong: true });
    });
    api.get('/large', (_req, res) => {
      res.json({ rows: largeRows });
    });
    api.get('/report.pdf', (_req, res) => {
      res.type('application/pdf').send(Buffer.alloc(64 * 1024, 'x'));
    });
    const server = await startWebServer({
      apiRouter: api,
      frontendDir: dir,
      port: 0,
      host: '127.0.0.1',
      publicUrl,
      runtimeConfig: () => ({ version: '1', apiBaseUrl: '/api', forcedLastUpdate: null }),
    });
    servers.push(server);
    return server;
  }

  /** The directives of a Content-Security-Policy header, by name. */
  const directives = (header: string | null) =>
    new Map(
      (header ?? '')
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter((words) => words[0])
        .map(([name, ...values]) => [name!, values]),
    );

  it('every page and API answer forbids eval, plugins, framing and foreign scripts', async () => {
    const server = await start('http://localhost:8080');
    for (const url of ['/', '/documents', '/api/ping', '/api/nothing', '/config.json']) {
      const res = await fetch(`${server.url}${url}`);
      const csp = directives(res.headers.get('content-security-policy'));
      expect({ url, script: csp.get('script-src') }).toEqual({ url, script: ["'self'"] });
      expect(res.headers.get('content-security-policy')).not.toContain('unsafe-eval');
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'self'"]);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      // plain http: HSTS would be ignored by browsers and wrong on a local portal
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('sends HSTS when the portal is reached over https', async () => {
    const server = await start('https://aiuti.example.it');
    const res = await fetch(`${server.url}/api/ping`);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=31536000/);
  });
});
