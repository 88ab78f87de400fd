import express from 'express';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startWebServer, type RunningWebServer } from './web-server';

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

  it('serves the front end for any client-side route, and hashed assets with long caching', async () => {
    const page = await fetch(`${server.url}/documents?taxCode=01234567897`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const asset = await fetch(`${server.url}/assets/app-abc123.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });
});
