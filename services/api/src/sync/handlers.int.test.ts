import { DomainError, streams, type Actor } from '@rna/domain';
import {
  INDEXED_IMPORTS_COLLECTION,
  INDEXING_GAPS_COLLECTION,
  type IndexedImportDoc,
  type IndexingGapDoc,
} from '@rna/read-models';
import { openTemporaryStores, type TemporaryStores } from '@rna/infra/embedded/testing';
import { DEAD_LETTERS_COLLECTION, type DeadLetterDoc } from '@rna/infra/dead-letters';
import {
  archiveLastUpdateReader,
  getArchiveStats,
  getDocumentsUpdate,
  getLastRnaSync,
  getSyncResults,
  getSyncStatus,
  startSync,
  type SyncHandlerDeps,
} from './handlers';

const admin: Actor = { userId: 'a', email: 'admin@example.it', role: 'ADMIN' };

const opened: TemporaryStores[] = [];
afterEach(async () => {
  for (const stores of opened.splice(0)) await stores.dispose();
});

/** The handlers' dependencies on fresh embedded stores (the adapters every contract suite checks). */
function deps(
  requestSync: SyncHandlerDeps['requestSync'] = async () => ({ runId: 'r1', at: '2024-03-01T10:00:00.000Z' }),
) {
  const stores = openTemporaryStores('rna-sync-handlers-');
  opened.push(stores);
  return {
    eventStore: stores.eventStore,
    documents: stores.documents,
    aidIndex: stores.aidIndex,
    requestSync: jest.fn(requestSync),
  };
}

describe('POST /sync', () => {
  it('starts a custom sync of the selected files, named without prefix', async () => {
    const d = deps();
    const run = await startSync(d, admin, {
      type: 'CUSTOM',
      onlyDocuments: ['OpenData_Aiuti_2024_02_002.xml', '2024_01'],
    });
    expect(d.requestSync).toHaveBeenCalledWith({
      scope: 'CUSTOM',
      onlyDocuments: ['2024_02_002', '2024_01'],
      by: admin,
    });
    expect(run).toMatchObject({ id: 'r1', type: 'CUSTOM', status: 'RUNNING', total: 2, end: null });
  });
  it('refuses an unknown type or a custom sync without files (J001)', async () => {
    const d = deps();
    await expect(startSync(d, admin, { type: 'EVERYTHING' })).rejects.toMatchObject({ code: 'J001' });
    await expect(startSync(d, admin, { type: 'CUSTOM', onlyDocuments: [] })).rejects.toMatchObject({
      code: 'J001',
    });
    await expect(
      startSync(d, admin, { type: 'CUSTOM', onlyDocuments: ['../etc/passwd'] }),
    ).rejects.toMatchObject({ code: 'J001' });
    expect(d.requestSync).not.toHaveBeenCalled();
  });
  it('passes on S001 when a sync is already running', async () => {
    const d = deps(async () => {
      throw new DomainError('S001');
    });
    await expect(startSync(d, admin, { type: 'ALL' })).rejects.toMatchObject({ code: 'S001' });
  });
});

describe('indexing of a finished run', () => {
  it('counts the aids the run published against those the index applied, file by file', async () => {
    const d = deps();
    const state = (importId: string | null, records: number) => ({
      status: 'SUCCESS',
      records,
      error: null,
      ...(importId ? { importId } : {}),
    });
    await d.documents.collection<Record<string, unknown> & { id: string }>('sync-runs').put({
      id: 'r1',
      type: 'ALL',
      start: 1000,
      end: 2000,
      status: 'SUCCESS',
      files: ['2024_01', '2024_02', '2023_12'],
      fileStates: {
        '2024_01': state('r1:2024_01:a', 200_000),
        '2024_02': state('r1:2024_02:b', 40_025),
        '2023_12': state(null, 0), // unchanged: skipped, nothing published
      },
      done: 3,
      total: 3,
      records: 240_025,
      succeeded: 2,
      failed: 0,
      skipped: 1,
    });
    const imports = d.documents.collection<IndexedImportDoc>(INDEXED_IMPORTS_COLLECTION);
    const status = await getSyncStatus(d);
    expect(status).toMatchObject({ running: false, indexing: true, run: { published: 240_025, indexed: 0 } });
    // the tally the screen tells a run that changed nothing by
    expect(status.run).toMatchObject({ succeeded: 2, failed: 0, skipped: 1 });

    await imports.put({
      id: 'r1:2024_02:b',
      sourceFile: '2024_02',
      runId: 'r1',
      records: 40_025,
      indexedAt: 1,
    });
    // an import of the same file by an older run does not count for this one
    await imports.put({
      id: 'r0:2024_01:z',
      sourceFile: '2024_01',
      runId: 'r0',
      records: 199_000,
      indexedAt: 1,
    });
    expect((await getSyncStatus(d)).run).toMatchObject({ published: 240_025, indexed: 40_025 });

    await imports.put({
      id: 'r1:2024_01:a',
      sourceFile: '2024_01',
      runId: 'r1',
      records: 200_000,
      indexedAt: 2,
    });
    expect(await getSyncStatus(d)).toMatchObject({
      indexing: false,
      run: { published: 240_025, indexed: 240_025 },
    });
  });

  it('says how many aids were lost before the index saw them', async () => {
    const d = deps();
    const gaps = d.documents.collection<IndexingGapDoc>(INDEXING_GAPS_COLLECTION);
    const gap = { topic: 'aids', partition: 0, detectedAt: 1 };
    await gaps.put({ ...gap, id: 'aids/0/1000', fromOffset: '1000', toOffset: '22868', missing: 21_868 });
    await gaps.put({ ...gap, id: 'aids/0/30000', fromOffset: '30000', toOffset: '30005', missing: 5 });
    const files = d.documents.collection<Record<string, unknown> & { id: string }>('archive-files');
    // a file imported before the gaps were found may miss any of those aids
    await files.put({ id: '2024_01', name: '2024_01', status: 'SUCCESS', lastUpdate: 0, records: 9 });
    expect((await getArchiveStats(d)).missingAids).toBe(21_873);
    // imported again since: nothing is missing any more
    await files.put({ id: '2024_01', name: '2024_01', status: 'SUCCESS', lastUpdate: 2, records: 9 });
    expect((await getArchiveStats(d)).missingAids).toBe(0);
  });
});

describe('read side', () => {
  /** An archive-files read model entry as the projector keeps it. */
  const archiveFile = (name: string, status: string, lastUpdate: number | null) => ({
    id: name,
    name,
    lastUpdate,
    rnaLastUpdate: null,
    status,
    progress: status === 'SUCCESS' ? 100 : 0,
    records: 1,
    error: status === 'ERROR' ? 'broken' : null,
    runId: 'r',
  });

  it('reports never / when the archive last changed / live mode for the last RNA sync', async () => {
    const d = deps();
    const files = d.documents.collection<Record<string, unknown> & { id: string }>('archive-files');
    expect(await getLastRnaSync(d)).toBe(null);
    // a file that never imported does not make the archive "updated"
    await files.put(archiveFile('2024_02', 'ERROR', null));
    expect(await getLastRnaSync(d)).toBe(null);
    // a run where one file failed still changed the archive with the file it imported
    await files.put(archiveFile('2024_01', 'SUCCESS', 5000));
    expect(await getLastRnaSync(d)).toBe(5000);
    // a file that failed on a later run keeps the time of its last good import
    await files.put(archiveFile('2023_12', 'ERROR', 7000));
    expect(await getLastRnaSync(d)).toBe(7000);
    expect(await getArchiveStats(d)).toEqual({
      totalDocuments: 0,
      lastSync: 7000,
      deadLetters: 0,
      missingAids: 0,
    });
    const history = d.documents.collection<Record<string, unknown> & { id: string }>('sync-history');
    await history.put({ id: 'r0', type: 'ALL', start: 1000, end: 5000, status: 'ERROR', succeeded: 1, failed: 1, skipped: 0, records: 3 }); // prettier-ignore
    await history.put({ id: 'r1', type: 'ALL', start: 6000, end: 7500, status: 'ERROR', succeeded: 1, failed: 1, skipped: 0, records: 1 }); // prettier-ignore
    expect((await getSyncResults(d)).map((r) => r.id)).toEqual(['r1', 'r0']);
    await d.eventStore.appendToStream(streams.settings, [
      { type: 'DataSourceSwitched', data: { useLiveData: true, at: 'x', by: admin } },
    ]);
    expect(await getLastRnaSync(d)).toBe(-1);
  });

  it('gives searches the last archive change, read again once the reuse time has passed', async () => {
    const d = deps();
    const files = d.documents.collection<Record<string, unknown> & { id: string }>('archive-files');
    const clock = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    try {
      const lastUpdate = archiveLastUpdateReader(d.documents, 50);
      expect(await lastUpdate()).toBeNull();
      await files.put(archiveFile('2024_01', 'SUCCESS', 5000));
      clock.mockReturnValue(1_000_049);
      expect(await lastUpdate()).toBeNull(); // still the value read a moment ago
      clock.mockReturnValue(1_000_050);
      expect(await lastUpdate()).toBe(5000);
    } finally {
      clock.mockRestore();
    }
  });

  it('shows the running run with the live download percentage', async () => {
    const d = deps();
    await d.documents.collection<Record<string, unknown> & { id: string }>('sync-runs').put({
      id: 'r1', type: 'LAST_YEAR', start: 1, end: null, status: 'RUNNING', files: ['2024_01', '2024_02'], done: 1, total: 2, records: 5,
      fileStates: { '2024_02': { status: 'SUCCESS', records: 5, error: null }, '2024_01': { status: 'DOWNLOADING', records: 0, error: null } },
    }); // prettier-ignore
    await d.documents
      .collection<Record<string, unknown> & { id: string }>('sync-progress')
      .put({ id: 'current', runId: 'r1', file: '2024_01', status: 'DOWNLOADING', progress: 42.57 });
    const status = await getSyncStatus(d);
    expect(status.running).toBe(true);
    expect(status.run?.files.map((f) => [f.name, f.status, f.progress])).toEqual([
      ['2024_02', 'SUCCESS', 100],
      ['2024_01', 'DOWNLOADING', 42.57],
    ]);
  });

  it('tells which records each file’s last import rejected; documents from before the check read as none', async () => {
    const d = deps();
    const negative = { idComponenteAiuto: '7', reason: 'IMPORTO_NEGATIVO', message: 'Importo negativo (elemento di aiuto): -500.000,00 €' }; // prettier-ignore
    const badDay = { idComponenteAiuto: '9', reason: 'DATA_NON_VALIDA', message: 'Data di concessione non valida: 2026-13-45' }; // prettier-ignore
    const files = d.documents.collection<Record<string, unknown> & { id: string }>('archive-files');
    await files.put({ ...archiveFile('2024_02', 'SUCCESS', 50), recordsRejected: 1, rejected: [negative] });
    await files.put({ ...archiveFile('2024_01', 'SUCCESS', 40), recordsRejected: 1, rejected: [badDay] });
    await files.put(archiveFile('2023_12', 'SUCCESS', 30)); // imported before the check
    await d.documents.collection<Record<string, unknown> & { id: string }>('sync-runs').put({
      id: 'r1', type: 'ALL', start: 1, end: 2, status: 'SUCCESS', files: ['2024_02', '2024_01', '2023_12'], done: 3, total: 3, records: 12, recordsRejected: 1,
      fileStates: {
        '2024_02': { status: 'SUCCESS', records: 12, error: null, importId: 'r1:2024_02:a', recordsRejected: 1, rejected: [negative] },
        '2024_01': { status: 'SUCCESS', records: 0, error: null }, // unchanged: skipped by this run
        '2023_12': { status: 'SUCCESS', records: 0, error: null },
      },
    }); // prettier-ignore
    const status = await getSyncStatus(d);
    expect(status.run?.recordsRejected).toBe(1);
    // the skipped file still shows what its last import rejected
    expect(status.run?.files.map((f) => [f.name, f.recordsRejected, f.rejected])).toEqual([
      ['2024_02', 1, [negative]],
      ['2024_01', 1, [badDay]],
      ['2023_12', 0, []],
    ]);
    expect((await getDocumentsUpdate(d)).map((f) => [f.name, f.recordsRejected, f.rejected])).toEqual([
      ['2024_02', 1, [negative]],
      ['2024_01', 1, [badDay]],
      ['2023_12', 0, []],
    ]);
  });

  it('counts per file the aids of the run’s import that the index set aside and has not applied since', async () => {
    const d = deps();
    await d.documents.collection<Record<string, unknown> & { id: string }>('sync-runs').put({
      id: 'r1', type: 'ALL', start: 1, end: 2, status: 'SUCCESS', files: ['2024_02', '2024_01'], done: 2, total: 2, records: 12,
      fileStates: {
        '2024_02': { status: 'SUCCESS', records: 12, error: null, importId: 'i000000000002:r1:2024_02' },
        '2024_01': { status: 'SUCCESS', records: 0, error: null }, // unchanged: skipped by this run
      },
    }); // prettier-ignore
    const letters = d.documents.collection<DeadLetterDoc>(DEAD_LETTERS_COLLECTION);
    const letter = (offset: number, sourceFile?: string, importId?: string): DeadLetterDoc => ({
      id: `projection:aid-index@aids/0/${offset}`, consumer: 'projection:aid-index', position: `aids/0/${offset}`,
      type: 'AidRecorded', error: 'RecordRejectedError: mapping', attempts: 3, at: 1,
      ...(sourceFile ? { sourceFile } : {}), ...(importId ? { importId } : {}),
    }); // prettier-ignore
    await letters.put(letter(1, '2024_02', 'i000000000002:r1:2024_02'));
    await letters.put(letter(2, '2024_02', 'i000000000002:r1:2024_02'));
    await letters.put(letter(3, '2024_01', 'i000000000001:r0:2024_01')); // an earlier run's import
    await letters.put(letter(4)); // JSON cut short: no file
    const status = await getSyncStatus(d);
    expect(status.run?.files.map((f) => [f.name, f.recordsSetAside])).toEqual([
      ['2024_02', 2],
      ['2024_01', 0],
    ]);
    expect(status.run?.recordsSetAside).toBe(2);

    // replayed: applied to the index at last, so no longer counted
    await letters.delete('projection:aid-index@aids/0/1');
    expect((await getSyncStatus(d)).run?.files[0]?.recordsSetAside).toBe(1);
  });

  it('lists listed-but-never-synced files next to imported ones, newest first', async () => {
    const d = deps();
    await d.documents
      .collection<Record<string, unknown> & { id: string }>('register-files')
      .put({ id: '2024_03', rnaLastUpdate: 99 });
    await d.documents.collection<Record<string, unknown> & { id: string }>('archive-files').put({
      id: '2024_02_002', name: '2024_02_002', lastUpdate: 50, rnaLastUpdate: 40, status: 'SUCCESS', progress: 100, records: 7, error: null,
    }); // prettier-ignore
    const files = await getDocumentsUpdate(d);
    expect(files.map((f) => [f.name, f.lastUpdate, f.status])).toEqual([
      ['2024_03', null, null],
      ['2024_02_002', 50, 'SUCCESS'],
    ]);
  });
});
