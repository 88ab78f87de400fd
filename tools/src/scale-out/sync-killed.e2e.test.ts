/**
 * A sync process killed for real (SIGKILL, no chance to tidy up) in the middle of a file, on the
 * embedded SQLite stores, with a projector process indexing beside it: a new sync process on the same
 * DATA_DIR resumes the run, and the aid index ends exactly equal to the register's files — nothing
 * missing, nothing twice, the files finished before the kill left as they were.
 */
import type { ChildProcess } from 'node:child_process';
import type { Actor } from '@rna/domain';
import { PINNED_TEST_INSTANT } from '@rna/infra/config';
import { requestSync } from '@rna/api';
import { generateArchive } from '../generator/generate';
import { readTruth } from '../rna-mirror/sync-harness';
import { buildMains } from './processes';
import { openSyncScenario, type SyncScenario } from './sync-scenario';

jest.setTimeout(240_000);

const admin: Actor = { userId: 'u-admin', email: 'admin@example.it', role: 'ADMIN' };

let scenario: SyncScenario;

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

beforeAll(async () => {
  buildMains();
  // slow enough that a file is still on its way when the process is killed
  scenario = await openSyncScenario('killed', { bytesPerSecond: 150_000 });
});

afterAll(() => scenario?.close());

it('a sync process killed with SIGKILL mid-file: the next one resumes, and the index equals the files exactly', async () => {
  const { stores, start, until } = scenario;
  const generated = await generateArchive({
    outDir: scenario.mirrorDir,
    months: ['2024_01', '2024_02'],
    aids: 600,
    partSize: 150,
    seed: 11,
    zip: true,
    beneficiaries: 40,
  });
  const truth = await readTruth(generated.truthFile!);
  const files = stores.documents.collection<{ id: string; lastUpdate: number | null }>('archive-files');

  start('projector', 'projector');
  const first = start('sync-1', 'sync').child;
  await requestSync(stores.eventStore, {
    scope: 'ALL',
    onlyDocuments: [],
    by: admin,
    now: new Date(PINNED_TEST_INSTANT),
  });

  // one file finished, another on its way: kill the process then, without warning
  const finishedBefore = await scenario.fileDoneAndNextUnderWay();
  first.kill('SIGKILL');
  await exited(first);
  expect(first.signalCode).toBe('SIGKILL');

  start('sync-2', 'sync');
  const [history] = await scenario.runEnded();
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
