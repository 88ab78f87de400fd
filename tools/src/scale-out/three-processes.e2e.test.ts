/**
 * Scale-out on one machine: the API (twice), the projector (twice) and the sync worker run as separate
 * Node processes (`node services/<x>/dist/main.js`) on the same DATA_DIR (embedded SQLite stores,
 * multi-process). The register is the local mirror serving generated files. A sync is requested on one
 * API process; the search is made on the other; the result must equal the generator's ground truth,
 * with every aid indexed once although two projectors ran.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SearchAnswerDto } from '@rna/domain';
import { generateArchive, type TruthRecord } from '../generator/generate';
import { startMirror, type RunningMirror } from '../rna-mirror/server';
import { buildMains, startService, until as untilReady, type ServiceProcess } from './processes';

jest.setTimeout(240_000);

const ADMIN = { email: 'admin@scaleout.test', password: 'Scale-out-test-password-1' };

let dataDir: string;
let mirrorDir: string;
let mirror: RunningMirror;
const services: ServiceProcess[] = [];

const start = (name: string, service: 'api' | 'sync' | 'projector', env: Record<string, string>) =>
  startService(services, name, service, {
    DATA_DIR: dataDir,
    RNA_BASE_URL: mirror.url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ...env,
  });

async function listeningPort(api: ServiceProcess): Promise<number> {
  for (let waited = 0; waited < 60_000; waited += 100) {
    const match = /API_LISTENING (\d+)/.exec(api.output.join(''));
    if (match?.[1]) return Number(match[1]);
    if (api.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${api.name} did not start:\n${api.output.join('')}`);
}

async function call<T>(
  port: number,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${port}/api${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} → ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

const until = <T>(what: string, probe: () => Promise<T | null>) =>
  untilReady(what, probe, services, 120_000, 200);

beforeAll(async () => {
  buildMains();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rna-scaleout-data-'));
  mirrorDir = await mkdtemp(path.join(os.tmpdir(), 'rna-scaleout-mirror-'));
  mirror = await startMirror({ dir: mirrorDir });
});

afterAll(async () => {
  for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  await mirror?.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(mirrorDir, { recursive: true, force: true });
});

it('api ×2, projector ×2 and sync as separate processes: a sync then a search, each aid indexed once', async () => {
  const generated = await generateArchive({
    outDir: mirrorDir,
    months: ['2024_01', '2024_02'],
    aids: 160,
    partSize: 60,
    seed: 8,
    zip: true,
    beneficiaries: 20,
  });
  const truth = (await readFile(generated.truthFile!, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TruthRecord);

  expect(truth.length).toBeGreaterThan(100);

  start('projector-1', 'projector', {});
  start('projector-2', 'projector', {});
  start('sync', 'sync', {});
  const apiA = start('api-a', 'api', { PORT: '0', JWT_SECRET: 'x'.repeat(48) });
  const portA = await listeningPort(apiA);
  const apiB = start('api-b', 'api', { PORT: '0', JWT_SECRET: 'x'.repeat(48), ALERT_NOTIFIER: 'off' });
  const portB = await listeningPort(apiB);

  // The first admin exists once the projector has projected it: sign in on A.
  const { accessToken } = await until('admin sign-in', () =>
    call<{ accessToken: string }>(portA, 'POST', '/auth/login', undefined, ADMIN),
  );

  await call(portA, 'POST', '/sync', accessToken, { type: 'ALL' });
  // Progress and results are read on the OTHER API process.
  const finished = await until('the sync run to finish', async () => {
    const status = await call<{ running: boolean; run: { status: string; records: number } | null }>(
      portB,
      'GET',
      '/sync/status',
      accessToken,
    );
    return !status.running && status.run && status.run.status !== 'RUNNING' ? status.run : null;
  });
  expect(finished.status).toBe('SUCCESS');
  const stats = await until('every aid indexed', async () => {
    const s = await call<{ totalDocuments: number }>(portB, 'GET', '/sync/archive-stats', accessToken);
    return s.totalDocuments === truth.length ? s : null;
  });
  expect(stats.totalDocuments).toBe(truth.length);

  // A search on B for the beneficiary with the most aids returns exactly its aids.
  const byTaxCode = new Map<string, TruthRecord[]>();
  for (const aid of truth) {
    byTaxCode.set(aid.codiceFiscaleBeneficiario, [
      ...(byTaxCode.get(aid.codiceFiscaleBeneficiario) ?? []),
      aid,
    ]);
  }
  const [taxCode, expected] = [...byTaxCode.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
  expect(expected.length).toBeGreaterThan(1);
  const result = await call<SearchAnswerDto>(
    portB,
    'GET',
    `/documents?taxCodes=${encodeURIComponent(taxCode)}`,
    accessToken,
  );
  expect(result.rows.map((r) => r.idComponenteAiuto).sort()).toEqual(
    expected.map((a) => a.idComponenteAiuto).sort(),
  );
  expect(result.stats.totalDocuments).toBe(expected.length);

  // One run in the history, although two projectors applied the archive projections.
  const history = await call<unknown[]>(portA, 'GET', '/sync/results', accessToken);
  expect(history).toHaveLength(1);

  // Every process stops cleanly on SIGTERM.
  for (const service of services) service.child.kill('SIGTERM');
  const codes = await Promise.all(services.map((s) => s.exited));
  // On failure the message names the process and shows what it logged while stopping.
  const stops = services.map((s, i) => ({
    name: s.name,
    code: codes[i],
    log: codes[i] === 0 ? '' : s.output.join('').slice(-3000),
  }));
  expect(stops).toEqual(services.map((s) => ({ name: s.name, code: 0, log: '' })));
});
