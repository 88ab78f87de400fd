/**
 * A sync process killed for real (SIGKILL, no chance to tidy up) in the middle of a file, on the
 * embedded SQLite stores, with a projector process indexing beside it: a new sync process on the same
 * DATA_DIR resumes the run, and the aid index ends exactly equal to the register's files — nothing
 * missing, nothing twice, the files finished before the kill left as they were.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Actor } from '@rna/domain';
import { PINNED_TEST_INSTANT } from '@rna/infra/config';
import { openStores, type Stores } from '@rna/infra/stores';
import { requestSync } from '@rna/api';
import { generateArchive, type TruthRecord } from '../generator/generate';
import { startMirror, type RunningMirror } from '../rna-mirror/server';
import { buildMains, startService, until as untilReady, type ServiceProcess } from './processes';

jest.setTimeout(240_000);

const admin: Actor = { userId: 'u-admin', email: 'admin@example.it', role: 'ADMIN' };

interface ArchiveFileDoc {
  id: string;
  status: string | null;
  lastUpdate: number | null;
}
interface SyncHistoryDoc {
  id: string;
  status: string;
}

let dataDir: string;
let mirrorDir: string;
let mirror: RunningMirror;
let stores: Stores;
const children: ServiceProcess[] = [];

const start = (name: string, service: 'sync' | 'projector'): ChildProcess =>
  startService(children, name, service, { DATA_DIR: dataDir, RNA_BASE_URL: mirror.url }).child;
const until = <T>(what: string, probe: () => Promise<T | null>) =>
  untilReady(what, probe, children, 120_000, 50);

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

beforeAll(async () => {
  buildMains();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rna-killed-data-'));
  mirrorDir = await mkdtemp(path.join(os.tmpdir(), 'rna-killed-mirror-'));
  // slow enough that a file is still on its way when the process is killed
  mirror = await startMirror({ dir: mirrorDir, faults: { bytesPerSecond: 150_000 } });
  stores = openStores({ dataDir });
});

afterAll(async () => {
  for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
  await stores?.close();
  await mirror?.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(mirrorDir, { recursive: true, force: true });
});

it('a sync process killed with SIGKILL mid-file: the next one resumes, and the index equals the files exactly', async () => {
  const generated = await generateArchive({
    outDir: mirrorDir,
    months: ['2024_01', '2024_02'],
    aids: 600,
    partSize: 150,
    seed: 11,
    zip: true,
    beneficiaries: 40,
  });
  const truth = (await readFile(generated.truthFile!, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TruthRecord);
  const files = stores.documents.collection<ArchiveFileDoc>('archive-files');

  start('projector', 'projector');
  const first = start('sync-1', 'sync');
  await requestSync(stores.eventStore, {
    scope: 'ALL',
    onlyDocuments: [],
    by: admin,
    now: new Date(PINNED_TEST_INSTANT),
  });

  // one file finished, another on its way: kill the process then, without warning
  const finishedBefore = await until('a file imported and the next one under way', async () => {
    const all = await files.find();
    const done = all.filter((f) => f.status === 'SUCCESS');
    const busy = all.some((f) => f.status === 'DOWNLOADING' || f.status === 'PARSING');
    return done.length > 0 && busy ? done : null;
  });
  first.kill('SIGKILL');
  await exited(first);
  expect(first.signalCode).toBe('SIGKILL');

  start('sync-2', 'sync');
  const [history] = await until('the run to end', async () => {
    const runs = await stores.documents.collection<SyncHistoryDoc>('sync-history').find();
    return runs.length > 0 && runs.every((run) => run.status !== 'RUNNING') ? runs : null;
  });
  expect(history?.status).toBe('SUCCESS');

  // every aid of the files indexed once, nothing else: the aids the killed process had published
  // are not doubled and the ones it had not are not missing
  const byId = new Map(truth.map((aid) => [aid.idComponenteAiuto, aid]));
  await until('every aid indexed', async () =>
    (await stores.aidIndex.count()) === truth.length ? true : null,
  );
  const taxCodes = [...new Set(truth.map((aid) => aid.codiceFiscaleBeneficiario))];
  const indexed = await stores.aidIndex.search({ taxCodes });
  expect(indexed).toHaveLength(truth.length);
  expect(new Set(indexed.map((aid) => aid.idComponenteAiuto))).toEqual(new Set(byId.keys()));
  for (const aid of indexed)
    expect({ id: aid.idComponenteAiuto, cents: aid.elementoDiAiutoCents }).toEqual({
      id: aid.idComponenteAiuto,
      cents: byId.get(aid.idComponenteAiuto)?.elementoDiAiutoCents,
    });
  // the files finished before the kill were not imported again
  for (const before of finishedBefore) {
    const after = await files.get(before.id);
    expect({ file: before.id, lastUpdate: after?.lastUpdate }).toEqual({
      file: before.id,
      lastUpdate: before.lastUpdate,
    });
  }
});
