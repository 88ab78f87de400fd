/**
 * End to end: generated register files served by the mirror → register client → sync worker →
 * `aids` topic → aid-index consumer and archive projections. The index is checked record by
 * record against the generator's ground truth. (Lives in tools because it needs the mirror and
 * the generator, which the services must not depend on.)
 */
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DomainError, streams, type AidRecord } from '@rna/domain';
import { latestAidChanges } from '@rna/read-models';
import { DEAD_LETTERS_COLLECTION, type DeadLetterDoc } from '@rna/infra/dead-letters';
import {
  ARCHIVE_FILES_COLLECTION,
  INDEXING_GAPS_COLLECTION,
  SYNC_HISTORY_COLLECTION,
  unhealedGaps,
  type ArchiveFileDoc,
  type IndexingGapDoc,
  type SyncHistoryDoc,
} from '@rna/read-models';
import { requestSync } from '@rna/api';
import {
  admin,
  ALL_FILES,
  clock,
  controlEvents,
  disposeHarness,
  expectIndexMatches,
  readTruth,
  refusingAid,
  runEvents,
  startHarness,
  type Harness,
} from './sync-harness';

let harness: Harness;

afterEach(() => disposeHarness(harness));

describe('sync against the register mirror', () => {
  it('imports every file of the scope over the zip flow; the index equals the ground truth', async () => {
    harness = await startHarness();
    const truth = await readTruth(await harness.generate());
    const runId = await harness.sync();

    await expectIndexMatches(harness.aidIndex, truth);
    const files = await harness.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION).find();
    expect(files.map((f) => f.name).sort()).toEqual(ALL_FILES);
    expect(
      files.every((f) => f.status === 'SUCCESS' && f.lastUpdate !== null && f.rnaLastUpdate !== null),
    ).toBe(true);
    expect(files.reduce((sum, f) => sum + f.records, 0)).toBe(truth.length);
    const [history] = await harness.documents.collection<SyncHistoryDoc>(SYNC_HISTORY_COLLECTION).find();
    expect(history).toMatchObject({
      id: runId,
      status: 'SUCCESS',
      succeeded: ALL_FILES.length,
      failed: 0,
      records: truth.length,
    });

    // A heavy beneficiary's aids, as a search would return them.
    const counts = new Map<string, number>();
    for (const aid of truth)
      counts.set(aid.codiceFiscaleBeneficiario, (counts.get(aid.codiceFiscaleBeneficiario) ?? 0) + 1);
    const [heaviest] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [''];
    const found = await harness.aidIndex.search({ taxCodes: [heaviest] });
    expect(found.length).toBe(counts.get(heaviest));
  });

  it('imports over the plain XML path too', async () => {
    harness = await startHarness({ preferZip: false });
    const truth = await readTruth(await harness.generate({ zip: false }));
    await harness.sync();
    await expectIndexMatches(harness.aidIndex, truth);
  });

  it('skips unchanged files on a second run and re-imports nothing', async () => {
    harness = await startHarness();
    const truth = await readTruth(await harness.generate());
    await harness.sync();
    const published = harness.published();

    const second = await harness.sync();
    const events = await runEvents(harness, second);
    expect(events.filter((e) => e.type === 'RegisterFileSkipped')).toHaveLength(ALL_FILES.length);
    expect(events.filter((e) => e.type === 'RegisterFileDownloading')).toHaveLength(0);
    expect(harness.published()).toBe(published);
    await expectIndexMatches(harness.aidIndex, truth);
  });

  it('imports unchanged files again after the index lost messages, which heals the gap', async () => {
    harness = await startHarness();
    const truth = await readTruth(await harness.generate());
    await harness.sync();
    // After those imports the index's consumer found messages gone from the log (see kafka-gaps.test):
    // the aids they held never reached the index.
    const gaps = harness.documents.collection<IndexingGapDoc>(INDEXING_GAPS_COLLECTION);
    const files = harness.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION);
    await gaps.put({
      id: 'aids/0/0',
      topic: 'aids',
      partition: 0,
      fromOffset: '0',
      toOffset: '40',
      missing: 40,
      detectedAt: clock.now().getTime(),
    });
    await harness.aidIndex.clear();
    expect(unhealedGaps(await gaps.find(), await files.find())).toHaveLength(1);

    const later = jest.spyOn(clock, 'now').mockReturnValue(new Date('2024-03-15T11:00:00Z'));
    try {
      const events = await runEvents(harness, await harness.sync());
      expect(events.filter((e) => e.type === 'RegisterFileSkipped')).toHaveLength(0);
      expect(events.filter((e) => e.type === 'RegisterFileSucceeded')).toHaveLength(ALL_FILES.length);
      await expectIndexMatches(harness.aidIndex, truth);
      expect(unhealedGaps(await gaps.find(), await files.find())).toEqual([]);

      // healed: the next run skips unchanged files again
      const next = await runEvents(harness, await harness.sync());
      expect(next.filter((e) => e.type === 'RegisterFileSkipped')).toHaveLength(ALL_FILES.length);
    } finally {
      later.mockRestore();
    }
  });

  it('imports an unchanged file again after the index set aside one of its aids, and skips it once healed', async () => {
    harness = await startHarness();
    const truth = await readTruth(await harness.generate());
    const refused = truth.find((aid) => aid.sourceFile === '2024_02_002')!;
    await harness.restartConsumer(refusingAid(harness.aidIndex, refused.idComponenteAiuto));
    await harness.sync();
    expect(await harness.aidIndex.get(refused.idComponenteAiuto)).toBeNull();
    const letters = await harness.documents.collection<DeadLetterDoc>(DEAD_LETTERS_COLLECTION).find();
    expect(letters.map((letter) => letter.sourceFile)).toEqual(['2024_02_002']);

    // the store takes the aid now (its rules or the code were fixed): the next sync publishes it anew
    await harness.restartConsumer();
    const events = await runEvents(harness, await harness.sync());
    const names = (type: string) =>
      events.flatMap((e) => (e.type === type ? [(e.data as { name: string }).name] : [])).sort();
    expect(names('RegisterFileSucceeded')).toEqual(['2024_02_002']);
    expect(names('RegisterFileSkipped')).toEqual(ALL_FILES.filter((name) => name !== '2024_02_002'));
    await expectIndexMatches(harness.aidIndex, truth);

    // that import is whole: the dead letter of the import before it does not ask for the file again
    const next = await runEvents(harness, await harness.sync());
    expect(next.filter((e) => e.type === 'RegisterFileSkipped')).toHaveLength(ALL_FILES.length);
  });

  it('re-imports a changed file: disappeared aids are withdrawn, changed amounts updated, tax codes noted', async () => {
    harness = await startHarness();
    const first = await readTruth(await harness.generate());
    await harness.sync();
    const revised = await readTruth(await harness.generate({ revision: 1 }));
    expect(revised.length).toBeLessThan(first.length); // the revision dropped some concessions

    await harness.sync();
    await expectIndexMatches(harness.aidIndex, revised);
    const remaining = new Set(revised.map((aid) => aid.idComponenteAiuto));
    const gone = first.filter((aid) => !remaining.has(aid.idComponenteAiuto));
    const changed = await latestAidChanges(harness.documents, { upTo: Infinity });
    for (const aid of gone) expect(changed.has(aid.codiceFiscaleBeneficiario)).toBe(true);
  });

  it('ends a broken file in ERROR with the reason and imports the others', async () => {
    harness = await startHarness();
    const truth = await readTruth(await harness.generate());
    await writeFile(
      path.join(harness.dir, 'OpenData_Aiuti_2024_03.xml'),
      '<?xml version="1.0"?><LISTA_AIUTI xmlns="http://www.rna.it/RNA_aiuto/schema"><AIUTO><CAR>1</CAR></AIUT></LISTA_AIUTI>',
    );
    const runId = await harness.sync();

    const broken = await harness.documents
      .collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION)
      .get('2024_03');
    expect(broken?.status).toBe('ERROR');
    expect(broken?.error).toMatch(/XML non valido alla riga 1/);
    await expectIndexMatches(harness.aidIndex, truth);
    const completed = (await controlEvents(harness)).find((e) => e.type === 'SyncCompleted');
    expect(completed?.data).toMatchObject({ runId, succeeded: ALL_FILES.length, failed: 1 });
  });

  it('removes stray control bytes and reads truncated tag names', async () => {
    harness = await startHarness();
    const truth = await readTruth(await harness.generate({ defects: true }));
    const runId = await harness.sync();

    await expectIndexMatches(harness.aidIndex, truth);
    const succeeded = (await runEvents(harness, runId)).filter((e) => e.type === 'RegisterFileSucceeded');
    const removed = succeeded.reduce(
      (sum, e) => sum + (e.type === 'RegisterFileSucceeded' ? e.data.controlBytesRemoved : 0),
      0,
    );
    expect(removed).toBeGreaterThan(0);
  });

  it('retries a download whose connection was reset mid-transfer', async () => {
    harness = await startHarness({ preferZip: false });
    const truth = await readTruth(await harness.generate({ zip: false }));
    harness.mirror.setFaults({ resetAfterBytes: 3000, resetTimes: 2 });
    const runId = await harness.sync();

    await expectIndexMatches(harness.aidIndex, truth);
    const events = await runEvents(harness, runId);
    expect(events.filter((e) => e.type === 'RegisterFileSucceeded')).toHaveLength(ALL_FILES.length);
    expect(harness.mirror.stats().downloads).toBe(ALL_FILES.length + 2); // two transfers were cut
  });

  it('fails a file whose connection keeps being reset, and completes the run', async () => {
    harness = await startHarness();
    await harness.generate();
    harness.mirror.setFaults({ resetAfterBytes: 1000 });
    await harness.sync('CUSTOM', ['2024_02']);

    const file = await harness.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION).get('2024_02');
    expect(file?.status).toBe('ERROR');
    expect(file?.error).toMatch(/Errore di trasferimento/);
    expect((await controlEvents(harness)).some((e) => e.type === 'SyncCompleted')).toBe(true);
  });

  it('ends a truncated zip in ERROR with a clear reason, imports the other files, and the next run retries it', async () => {
    harness = await startHarness();
    const truth = await readTruth(await harness.generate());
    harness.mirror.setFaults({ truncateZip: true });
    const runId = await harness.sync('CUSTOM', ['2024_02']);

    const file = await harness.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION).get('2024_02');
    expect(file?.status).toBe('ERROR');
    expect(file?.error).toMatch(/\S/);
    const completed = (await controlEvents(harness)).find((e) => e.type === 'SyncCompleted');
    expect(completed?.data).toMatchObject({ runId, failed: 1 });
    // whatever of the cut file was read is not passed off as the file: the next run imports it whole
    harness.mirror.setFaults({ truncateZip: false });
    await harness.sync();
    await expectIndexMatches(harness.aidIndex, truth);
    const retried = await harness.documents
      .collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION)
      .get('2024_02');
    expect(retried?.status).toBe('SUCCESS');
  });

  it('ends a file the register answers with 503 in ERROR, imports the others, and retries it next time', async () => {
    harness = await startHarness();
    const truth = await readTruth(await harness.generate());
    harness.mirror.setFaults({ unavailableFiles: ['2024_01_002'] });
    const runId = await harness.sync();

    const files = harness.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION);
    expect((await files.get('2024_01_002'))?.status).toBe('ERROR');
    for (const name of ALL_FILES.filter((n) => n !== '2024_01_002'))
      expect({ name, status: (await files.get(name))?.status }).toEqual({ name, status: 'SUCCESS' });
    const completed = (await controlEvents(harness)).find((e) => e.type === 'SyncCompleted');
    expect(completed?.data).toMatchObject({ runId, succeeded: ALL_FILES.length - 1, failed: 1 });
    // the others' aids are searchable already; the unavailable file's come with the next run
    const missing = truth.filter((aid) => aid.sourceFile.includes('2024_01_002'));
    expect(missing.length).toBeGreaterThan(0);
    expect(await harness.aidIndex.count()).toBe(truth.length - missing.length);

    harness.mirror.setFaults({ unavailableFiles: [] });
    await harness.sync();
    await expectIndexMatches(harness.aidIndex, truth);
    expect((await files.get('2024_01_002'))?.status).toBe('SUCCESS');
  });

  /** The register drops files from its listing (their files leave the folder the mirror serves). */
  async function removeFromRegister(dir: string, names: string[]): Promise<void> {
    for (const entry of await readdir(dir))
      if (names.some((name) => new RegExp(`_${name}\\.(xml|zip)$`).test(entry)))
        await rm(path.join(dir, entry));
  }

  it('withdraws the aids of a file that left the register when a full run sees the complete listing', async () => {
    harness = await startHarness();
    // six files: one leaving is news, not a broken listing (that would be more than a fifth)
    const truth = await readTruth(
      await harness.generate({ months: ['2024_01', '2024_02', '2024_03'], aids: 240 }),
    );
    await harness.sync('ALL');
    await expectIndexMatches(harness.aidIndex, truth);

    await removeFromRegister(harness.dir, ['2024_02_002']);
    const runId = await harness.sync('ALL');
    const kept = truth.filter((aid) => aid.sourceFile !== '2024_02_002');
    expect(kept.length).toBeLessThan(truth.length);
    await expectIndexMatches(harness.aidIndex, kept);
    expect((await runEvents(harness, runId)).map((e) => e.type)).toContain('RegisterFileWithdrawn');
    const files = harness.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION);
    expect(await files.get('2024_02_002')).toBeNull();
    // the companies whose aids went are noted for their variation alerts
    const changed = await latestAidChanges(harness.documents, { upTo: Infinity });
    for (const aid of truth.filter((a) => a.sourceFile === '2024_02_002'))
      expect(changed.has(aid.codiceFiscaleBeneficiario)).toBe(true);
  });

  it('withdraws nothing and fails the run when the listing loses more than a fifth of the files at once', async () => {
    harness = await startHarness();
    const truth = await readTruth(await harness.generate());
    await harness.sync('ALL');
    await removeFromRegister(harness.dir, ['2024_01', '2024_01_002']);
    const runId = await harness.sync('ALL');

    const failed = (await controlEvents(harness)).find((e) => e.type === 'SyncFailed');
    expect(failed?.type === 'SyncFailed' && failed.data).toMatchObject({
      runId,
      reason: expect.stringMatching(/^G007: .*mancano 2 dei 4/),
    });
    await expectIndexMatches(harness.aidIndex, truth);
  });

  it('fails the run with G007 when the register is in maintenance, and allows a new run later', async () => {
    harness = await startHarness();
    const truth = await readTruth(await harness.generate());
    harness.mirror.setFaults({ maintenance: true });
    await expect(harness.register.listFiles()).rejects.toMatchObject({ code: 'G007' });

    await harness.sync();
    const failed = (await controlEvents(harness)).find((e) => e.type === 'SyncFailed');
    expect(failed?.type === 'SyncFailed' && failed.data.reason).toMatch(/^G007/);
    const [history] = await harness.documents.collection<SyncHistoryDoc>(SYNC_HISTORY_COLLECTION).find();
    expect(history?.status).toBe('ERROR');

    harness.mirror.setFaults({ maintenance: false });
    await harness.sync();
    await expectIndexMatches(harness.aidIndex, truth);
  });

  it('resumes after a stop mid-file: finished files stay finished, the index equals an uninterrupted run', async () => {
    harness = await startHarness({ batchSize: 10 });
    const truth = await readTruth(await harness.generate());
    // Stop the worker in the middle of the third file, as a crash would.
    const publish = harness.messageLog.publish.bind(harness.messageLog);
    let markers = 0;
    let batchesInThirdFile = 0;
    const first = harness.worker;
    harness.messageLog.publish = async (topic, messages) => {
      await publish(topic, messages);
      const isMarker = (m: (typeof messages)[number]) =>
        'value' in m && (m.value as { type: string }).type === 'SourceFileImported';
      if (messages.some(isMarker)) markers++;
      else if (markers === 2 && ++batchesInThirdFile === 2) void first.stop();
    };
    const { runId } = await requestSync(harness.eventStore, {
      scope: 'LAST_YEAR',
      by: admin,
      now: clock.now(),
    });
    await first.runPending();
    await first.stop();
    expect((await controlEvents(harness)).some((e) => e.type === 'SyncCompleted')).toBe(false);
    const before = (await runEvents(harness, runId)).filter((e) => e.type === 'RegisterFileSucceeded');
    expect(before).toHaveLength(2);

    harness.messageLog.publish = publish;
    harness.worker = harness.newWorker();
    await harness.worker.runPending();
    await harness.settle();

    await expectIndexMatches(harness.aidIndex, truth);
    const events = await runEvents(harness, runId);
    const succeeded = events.flatMap((e) => (e.type === 'RegisterFileSucceeded' ? [e.data.name] : []));
    expect(succeeded.sort()).toEqual(ALL_FILES);
    expect((await controlEvents(harness)).filter((e) => e.type === 'SyncCompleted')).toHaveLength(1);
  });

  it('sends nothing more once its lease ran out mid-file (a pause): no batch, no marker; the next holder completes the files', async () => {
    const lease = { valid: true };
    harness = await startHarness({ batchSize: 10, leaseValid: () => lease.valid });
    const truth = await readTruth(await harness.generate());
    const publish = harness.messageLog.publish.bind(harness.messageLog);
    const sent: string[] = [];
    harness.messageLog.publish = async (topic, messages) => {
      await publish(topic, messages);
      const marker = messages.some(
        (m) => 'value' in m && (m.value as { type: string }).type === 'SourceFileImported',
      );
      sent.push(marker ? 'marker' : 'batch');
      // two batches into the second file, the holder is frozen past its lease and wakes up
      if (sent.filter((s) => s === 'marker').length === 1 && sent.at(-1) === 'batch' && sent.length >= 3)
        lease.valid = false;
    };
    const { runId } = await requestSync(harness.eventStore, {
      scope: 'LAST_YEAR',
      by: admin,
      now: clock.now(),
    });
    await harness.worker.runPending();
    const sentWhenLost = sent.length;
    // the parser still has batches of the file in hand: none of them, nor the marker, goes out
    await harness.worker.stop();
    expect(sent.slice(sentWhenLost)).toEqual([]);
    expect(sent.filter((s) => s === 'marker')).toHaveLength(1);
    expect((await controlEvents(harness)).some((e) => e.type === 'SyncCompleted')).toBe(false);

    // the holder that took over resumes the run
    harness.messageLog.publish = publish;
    lease.valid = true;
    harness.worker = harness.newWorker();
    await harness.worker.runPending();
    await harness.settle();
    await expectIndexMatches(harness.aidIndex, truth);
    const succeeded = (await runEvents(harness, runId)).flatMap((e) =>
      e.type === 'RegisterFileSucceeded' ? [e.data.name] : [],
    );
    expect(succeeded.sort()).toEqual(ALL_FILES);
  });

  it('refuses, by the fence, a batch a paused holder had on its way: once the next holder wrote, nothing of the former lands', async () => {
    harness = await startHarness({ batchSize: 10 });
    const truth = await readTruth(await harness.generate());
    // the former holder (token 1) never sees its lease run out: it was paused after its own check,
    // with a batch already handed to the log (what no check by the holder itself can stop)
    let release!: () => void;
    const resumed = new Promise<void>((resolve) => (release = resolve));
    let paused!: () => void;
    const pausedMidFile = new Promise<void>((resolve) => (paused = resolve));
    const formerLandings: string[] = [];
    let markers = 0;
    let batchesOfSecondFile = 0;
    const formerLog = Object.create(harness.messageLog) as typeof harness.messageLog;
    formerLog.publish = async (topic, messages, options) => {
      const marker = messages.some(
        (m) => 'value' in m && (m.value as { type: string }).type === 'SourceFileImported',
      );
      if (!marker && markers === 1 && ++batchesOfSecondFile === 2) {
        paused();
        await resumed;
      }
      await harness.messageLog.publish(topic, messages, options);
      if (marker) markers += 1;
      formerLandings.push(marker ? 'marker' : 'batch');
    };
    await harness.worker.stop();
    const former = harness.newWorker({ messageLog: formerLog, fence: { name: 'sync-worker', token: 1 } });
    const { runId } = await requestSync(harness.eventStore, {
      scope: 'LAST_YEAR',
      by: admin,
      now: clock.now(),
    });
    const formerRun = former.runPending();
    await pausedMidFile;
    const landedBeforePause = formerLandings.length;

    // the next holder (token 2) takes the run over and finishes it while the former one sleeps
    const next = harness.newWorker({ fence: { name: 'sync-worker', token: 2 } });
    await next.runPending();
    await harness.settle();
    const runVersion = (await harness.eventStore.readStream(streams.sync(runId))).currentVersion;

    // the former one wakes up: its batch in flight is refused, and it writes nothing more anywhere
    release();
    await formerRun;
    expect(formerLandings.slice(landedBeforePause)).toEqual([]);
    expect((await harness.eventStore.readStream(streams.sync(runId))).currentVersion).toBe(runVersion);
    expect((await controlEvents(harness)).filter((e) => e.type === 'SyncCompleted')).toHaveLength(1);
    await harness.settle();
    await expectIndexMatches(harness.aidIndex, truth);
    const succeeded = (await runEvents(harness, runId)).flatMap((e) =>
      e.type === 'RegisterFileSucceeded' ? [e.data.name] : [],
    );
    expect(succeeded.sort()).toEqual(ALL_FILES);
    await Promise.all([former.stop(), next.stop()]);
  });

  it('lets only one of two concurrent requests start a run', async () => {
    harness = await startHarness();
    await harness.worker.stop(); // keep the run pending
    const results = await Promise.allSettled([
      requestSync(harness.eventStore, { scope: 'ALL', by: admin }),
      requestSync(harness.eventStore, { scope: 'ALL', by: admin }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected');
    expect(rejected?.status === 'rejected' && rejected.reason).toBeInstanceOf(DomainError);
    expect(rejected?.status === 'rejected' && (rejected.reason as DomainError).code).toBe('S001');
  });

  it('answers the live look-up from the files it serves', async () => {
    harness = await startHarness();
    const truth = await readTruth(await harness.generate());
    const taxCode = (truth[0] as AidRecord).codiceFiscaleBeneficiario;
    const response = await fetch(`${harness.mirror.url}/rna/oracle/query/trasparenza/aiuti`, {
      method: 'POST',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      body: new URLSearchParams({ 'values[cfBen]': taxCode, 'values[count]': '1' }),
    });
    const body = (await response.json()) as {
      recordsTotal: number;
      data: { cf: string; elemento_aiuto: string; data: string }[];
      sleep: number;
    };
    const expected = truth.filter((aid) => aid.codiceFiscaleBeneficiario === taxCode);
    expect(body.recordsTotal).toBe(expected.length);
    expect(body.sleep).toBe(30);
    expect(
      body.data.every(
        (row) =>
          row.cf === taxCode &&
          /^€ [\d.]+,\d{2}$/.test(row.elemento_aiuto) &&
          /^\d{2}\/\d{2}\/\d{4}$/.test(row.data),
      ),
    ).toBe(true);
  });
});
