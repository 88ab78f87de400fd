import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { DataDirLockedError } from '@rna/infra/embedded';
import type { HealthDto } from '@rna/domain';
import { loadConfig } from '@rna/infra/config';
import { startPortal, type RunningPortal } from './portal';

jest.setTimeout(60_000);
const silent = pino({ level: 'silent' });
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');

describe('standalone portal', () => {
  let dir: string;
  let portal: RunningPortal;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-'));
    const config = loadConfig(
      {
        DATA_DIR: dir,
        PORT: '0',
        ADMIN_PASSWORD: 'a-long-admin-password',
        VAT_NUMBER: '01234567897',
        CONTACT_EMAIL: 'assistenza@example.it',
      },
      dir,
    );
    portal = await startPortal(config, { logger: silent, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await portal?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the health check with its stores and version', async () => {
    const response = await fetch(`${portal.url}/api/health`);
    expect(response.status).toBe(200);
    const health = (await response.json()) as HealthDto;
    expect(health.status).toBe('ok');
    expect(health.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.values(health.stores).every((s) => s === 'ok')).toBe(true);
  });

  it('tells the front end its version, API path and the footer details at /config.json', async () => {
    const config = await (await fetch(`${portal.url}/config.json`)).json();
    expect(config).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      apiBaseUrl: '/api',
      forcedLastUpdate: null,
      vatNumber: '01234567897',
      contactEmail: 'assistenza@example.it',
    });
  });

  it('lets the first administrator sign in with the configured password', async () => {
    const response = await fetch(`${portal.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@portale.local', password: 'a-long-admin-password' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { role: string } };
    expect(body.user.role).toBe('ADMIN');
  });

  it('refuses a second portal on the same data directory with a clear message', async () => {
    const config = loadConfig({ DATA_DIR: dir, PORT: '0' }, dir);
    await expect(startPortal(config, { logger: silent })).rejects.toThrow(DataDirLockedError);
    await expect(startPortal(config, { logger: silent })).rejects.toThrow(/already in use/);
  });
});

describe('standalone process', () => {
  function startProcess(dataDir: string) {
    const child = spawn(process.execPath, [path.join(repositoryRoot, 'services/standalone/dist/main.js')], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const waitFor = async (pattern: RegExp) => {
      for (let i = 0; i < 600 && !pattern.test(output); i++) await new Promise((r) => setTimeout(r, 100));
      return output;
    };
    return { child, exited, waitFor, output: () => output };
  }

  it('prints a generated admin password once, refuses a second process, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-process-'));
    try {
      const first = startProcess(dataDir);
      const started = await first.waitFor(/portal started/);
      expect(started).toMatch(/Password generata \(mostrata una sola volta\): \S{12,}/);
      const password = /Password generata[^:]*: (\S+)/.exec(started)?.[1] ?? '';
      // Log lines are JSON and never carry the password.
      const jsonLines = started.split('\n').filter((line) => line.startsWith('{'));
      expect(jsonLines.length).toBeGreaterThan(0);
      for (const line of jsonLines) expect(line).not.toContain(password);

      const second = startProcess(dataDir);
      expect(await second.exited).toBe(3);
      expect(second.output()).toMatch(/already in use/);

      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(first.output()).toMatch(/stopped cleanly/);

      // A restart on the same data does not create or print another password.
      const third = startProcess(dataDir);
      const restarted = await third.waitFor(/portal started/);
      expect(restarted).not.toMatch(/Password generata/);
      third.child.kill('SIGINT');
      expect(await third.exited).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('what the portal loads', () => {
  /** Whether each package is loaded once `module` (built, in a process of its own) is required. */
  async function loadedBy(module: string, packages: string[]): Promise<Record<string, boolean>> {
    const script = `
      require.main = null; // a command's module loaded, not run
      require(${JSON.stringify(path.join(repositoryRoot, module))});
      const loaded = (name) => Object.keys(require.cache).some((file) => file.includes('/node_modules/' + name + '/'));
      process.stdout.write(JSON.stringify(Object.fromEntries(${JSON.stringify(packages)}.map((name) => [name, loaded(name)]))));`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise((resolve) => child.on('exit', resolve));
    return JSON.parse(output) as Record<string, boolean>;
  }

  it('leaves the PDF browser driver (playwright-core) until a report asks for it', async () => {
    // the API composed (express loaded), the driver not: ~70 MB resident less through a sync
    expect(await loadedBy('services/standalone/dist/portal.js', ['playwright-core', 'express'])).toEqual({
      'playwright-core': false,
      express: true,
    });
  });

  it('leaves the libraries that write files and mail until a file or a message asks for them', async () => {
    // a look-up needs none of them; loaded, they sat in the heap each full collection of a sync marks
    const libraries = ['exceljs', 'pdf-lib', 'sharp', 'nodemailer'];
    expect(await loadedBy('services/standalone/dist/portal.js', libraries)).toEqual(
      Object.fromEntries(libraries.map((name) => [name, false])),
    );
  });

  it('rebuilds without loading the API', async () => {
    // the rebuild's process replays the projections and the register files: no web server, no reports
    expect(
      await loadedBy('services/standalone/dist/rebuild-projections.js', [
        'express',
        'exceljs',
        'better-sqlite3',
      ]),
    ).toEqual({ express: false, exceljs: false, 'better-sqlite3': true });
  });
});
