/**
 * A sync process killed for real (SIGKILL, no chance to tidy up) in the middle of a file, on the
 * embedded SQLite stores, with a projector process indexing beside it: a new sync process on the same
 * DATA_DIR resumes the run, and the aid index ends exactly equal to the register's files — nothing
 * missing, nothing twice, the files finished before the kill left as they were. The test reads the
 * `aids` topic as a consumer of its own: the kill is asserted to land mid-file (some of the file's
 * aids published, not all) and the copies published twice are counted there, where the index's
 * idempotence cannot hide them.
 */
import type { ChildProcess } from 'node:child_process';
import { AIDS_TOPIC, type Actor, type AidMessage } from '@rna/domain';
import { PINNED_TEST_INSTANT } from '@rna/infra/config';
import { requestSync } from '@rna/api';
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
  // a file of 6,000 aids (~500 KB zipped) takes ~5 s and is published in three batches as it
  // arrives: the kill lands after its first batch and before its last
  scenario = await openSyncScenario('killed', { bytesPerSecond: 100_000 });
});

afterAll(() => scenario?.close());

it('a sync process killed with SIGKILL mid-file: the next one resumes, and the index equals the files exactly', async () => {
  const { stores, start, until } = scenario;
  const truth = await scenario.generateRegister({ aids: 24_000, seed: 11 });
  const files = stores.documents.collection<{ id: string; lastUpdate: number | null }>('archive-files');

  // every AidRecorded on the wire, by aid and by the import that published it
  const published = new Map<string, { importId: string; sourceFile: string }[]>();
  const wire = stores.messageLog.consume({
    topic: AIDS_TOPIC,
    groupId: 'test:wire',
    handler: async (batch) => {
      for (const message of batch) {
        const value = message.value as AidMessage;
        if (value.type !== 'AidRecorded') continue;
        const copies = published.get(value.aid.idComponenteAiuto) ?? [];
        copies.push({ importId: value.aid.importId, sourceFile: value.aid.sourceFile });
        published.set(value.aid.idComponenteAiuto, copies);
      }
    },
  });
  const truthByFile = new Map<string, number>();
  for (const aid of truth) truthByFile.set(aid.sourceFile, (truthByFile.get(aid.sourceFile) ?? 0) + 1);
  /** Aids of `file` on the wire so far, by import. */
  const publishedOf = (file: string) => {
    const byImport = new Map<string, number>();
    for (const copies of published.values())
      for (const copy of copies)
        if (copy.sourceFile === file) byImport.set(copy.importId, (byImport.get(copy.importId) ?? 0) + 1);
    return byImport;
  };

  start('projector', 'projector');
  const first = start('sync-1', 'sync').child;
  await requestSync(stores.eventStore, {
    scope: 'ALL',
    onlyDocuments: [],
    by: admin,
    now: new Date(PINNED_TEST_INSTANT),
  });

  // one file finished, another with some of its aids on the wire: kill the process then, without warning
  const finishedBefore = await scenario.fileDoneAndNextUnderWay();
  const finishedNames = new Set(finishedBefore.map((file) => file.id));
  const underWay = await until('aids of an unfinished file on the wire', async () => {
    await wire.caughtUp();
    const file = [...truthByFile.keys()].find(
      (name) => !finishedNames.has(name) && publishedOf(name).size > 0,
    );
    return file ?? null;
  });
  first.kill('SIGKILL');
  await exited(first);
  expect(first.signalCode).toBe('SIGKILL');
  await wire.caughtUp();
  // the kill landed mid-file and mid-run: part of the file published by one import, the run not ended
  const [killedImport, ...others] = [...publishedOf(underWay)];
  expect(others).toEqual([]);
  const publishedBeforeKill = killedImport![1];
  expect(publishedBeforeKill).toBeGreaterThan(0);
  expect(publishedBeforeKill).toBeLessThan(truthByFile.get(underWay)!);
  const runs = await stores.documents.collection<{ id: string; status: string }>('sync-history').find();
  expect(runs.map((run) => run.status)).toEqual(['RUNNING']);

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
  // on the wire: the files finished before the kill once each; the file cut by the kill published again
  // whole by the new process, so its aids the killed one had sent are the only copies sent twice
  await wire.caughtUp();
  await wire.stop();
  const twice = [...published].filter(([, copies]) => copies.length > 1);
  expect(twice.length).toBe(publishedBeforeKill);
  for (const [, copies] of twice) {
    expect(copies).toHaveLength(2);
    expect(copies.every((copy) => copy.sourceFile === underWay)).toBe(true);
    expect(copies[0]!.importId).toBe(killedImport![0]);
  }
  expect([...published.keys()].sort()).toEqual([...byId.keys()].sort());
  // the files finished before the kill were not imported again
  for (const before of finishedBefore) {
    const after = await files.get(before.id);
    expect({ file: before.id, lastUpdate: after?.lastUpdate }).toEqual({
      file: before.id,
      lastUpdate: before.lastUpdate,
    });
  }
});
