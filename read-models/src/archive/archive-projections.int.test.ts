import type { Actor, SyncEvent } from '@rna/domain';
import type { AidIndex, DocumentStore, RecordedEvent } from '@rna/infra';
import { openTemporaryStores, type TemporaryStores } from '@rna/infra/embedded/testing';
import {
  ARCHIVE_FILES_COLLECTION,
  SYNC_HISTORY_COLLECTION,
  SYNC_RUNS_COLLECTION,
  type ArchiveFileDoc,
  type SyncHistoryDoc,
  type SyncRunDoc,
} from '@rna/read-models';
import { archiveProjections } from './archive-projections';

const by: Actor = { userId: 'a', email: 'a@x.it', role: 'ADMIN' };
const at = '2024-03-01T10:00:00.000Z';
const events: SyncEvent[] = [
  { type: 'SyncRequested', data: { runId: 'r', scope: 'LAST_YEAR', onlyDocuments: [], at, by } },
  { type: 'SyncStarted', data: { runId: 'r', files: ['2024_02', '2024_01'], at } },
  { type: 'RegisterFileQueued', data: { runId: 'r', name: '2024_02', at } },
  { type: 'RegisterFileQueued', data: { runId: 'r', name: '2024_01', at } },
  { type: 'RegisterFileDownloading', data: { runId: 'r', name: '2024_02', totalBytes: 10, at } },
  { type: 'RegisterFileParsing', data: { runId: 'r', name: '2024_02', at } },
  {
    type: 'RegisterFileSucceeded',
    data: { runId: 'r', name: '2024_02', importId: 'i', records: 12, withdrawn: 0, controlBytesRemoved: 0, etag: '"e"', lastModified: 'Fri, 01 Mar 2024 08:00:00 GMT', at },
  }, // prettier-ignore
  {
    type: 'RegisterFileFailed',
    data: { runId: 'r', name: '2024_01', reason: 'XML non valido alla riga 3: x', at },
  },
  { type: 'SyncCompleted', data: { runId: 'r', at, succeeded: 1, failed: 1, skipped: 0, records: 12 } },
];
const recorded: RecordedEvent<SyncEvent>[] = events.map((e, i) => ({
  ...e, streamName: 's', streamVersion: i, globalPosition: i + 1, metadata: {}, createdAt: at,
})); // prettier-ignore

async function project(stores: { documents: DocumentStore; aidIndex: AidIndex }, times: number) {
  for (let t = 0; t < times; t++) {
    for (const event of recorded) {
      for (const projection of archiveProjections) {
        if (projection.handles.includes(event.type)) await projection.apply(event, stores);
      }
    }
  }
}

async function snapshot(documents: DocumentStore) {
  return {
    files: await documents.collection(ARCHIVE_FILES_COLLECTION).find({}, { sortBy: 'id' }),
    runs: await documents.collection(SYNC_RUNS_COLLECTION).find(),
    history: await documents.collection(SYNC_HISTORY_COLLECTION).find(),
  };
}

describe('archive projections', () => {
  const opened: TemporaryStores[] = [];
  const freshStores = () => {
    const stores = openTemporaryStores('rna-archive-projections-');
    opened.push(stores);
    return stores;
  };
  afterEach(async () => {
    for (const stores of opened.splice(0)) await stores.dispose();
  });

  it('build file, run and history read models, the same after a replay', async () => {
    const once = freshStores();
    const twice = freshStores();
    await project(once, 1);
    await project(twice, 2);
    const state = await snapshot(once.documents);
    expect(await snapshot(twice.documents)).toEqual(state);
    expect(state.files).toEqual([
      expect.objectContaining({ name: '2024_01', status: 'ERROR', error: 'XML non valido alla riga 3: x' }),
      expect.objectContaining({
        name: '2024_02',
        status: 'SUCCESS',
        records: 12,
        lastUpdate: Date.parse(at),
        rnaLastUpdate: Date.parse('2024-03-01T08:00:00Z'),
      }),
    ]);
    expect(state.runs[0]).toMatchObject({ id: 'r', status: 'ERROR', done: 1, total: 2, records: 12 });
    expect(state.history[0]).toMatchObject({
      id: 'r',
      type: 'LAST_YEAR',
      status: 'ERROR',
      succeeded: 1,
      failed: 1,
      records: 12,
    });
  });

  it('carry the records an import rejected, per file and per run; an event from before the check folds as none', async () => {
    const stores = freshStores();
    const rejected = [
      { idComponenteAiuto: '71', reason: 'DATA_NON_VALIDA' as const, message: 'Data di concessione non valida: 2026-13-45' },
      { idComponenteAiuto: '72', reason: 'IMPORTO_NEGATIVO' as const, message: 'Importo negativo (elemento di aiuto): -500.000,00 €' },
    ]; // prettier-ignore
    const reimport: SyncEvent[] = [
      { type: 'SyncRequested', data: { runId: 'r2', scope: 'LAST_YEAR', onlyDocuments: [], at, by } },
      { type: 'SyncStarted', data: { runId: 'r2', files: ['2024_02'], at } },
      {
        type: 'RegisterFileSucceeded',
        data: { runId: 'r2', name: '2024_02', importId: 'i2', records: 10, withdrawn: 2, controlBytesRemoved: 0, etag: '"f"', lastModified: null, at, recordsRejected: 2, rejected },
      }, // prettier-ignore
      {
        type: 'SyncCompleted',
        data: { runId: 'r2', at, succeeded: 1, failed: 0, skipped: 0, records: 10, recordsRejected: 2 },
      },
      { type: 'SyncRequested', data: { runId: 'r3', scope: 'LAST_YEAR', onlyDocuments: [], at, by } },
      { type: 'SyncStarted', data: { runId: 'r3', files: ['2024_02'], at } },
      { type: 'RegisterFileSkipped', data: { runId: 'r3', name: '2024_02', reason: 'UNCHANGED', at } },
    ];
    const apply = async (list: SyncEvent[]) => {
      const more: RecordedEvent<SyncEvent>[] = list.map((e, i) => ({
        ...e, streamName: 's2', streamVersion: i, globalPosition: 100 + i, metadata: {}, createdAt: at,
      })); // prettier-ignore
      for (const event of more) {
        for (const projection of archiveProjections) {
          if (projection.handles.includes(event.type)) await projection.apply(event, stores);
        }
      }
    };
    await project(stores, 1);
    const files = stores.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION);
    const runs = stores.documents.collection<SyncRunDoc>(SYNC_RUNS_COLLECTION);
    // the first import's event has no rejection fields: nothing rejected
    expect(await files.get('2024_02')).toMatchObject({ records: 12, recordsRejected: 0, rejected: [] });
    expect(await runs.get('r')).toMatchObject({ recordsRejected: 0 });
    const history = stores.documents.collection<SyncHistoryDoc>(SYNC_HISTORY_COLLECTION);
    expect(await history.get('r')).toMatchObject({ records: 12, recordsRejected: 0 });

    await apply(reimport.slice(0, 4));
    expect(await files.get('2024_02')).toMatchObject({
      status: 'SUCCESS',
      records: 10,
      recordsRejected: 2,
      rejected,
    });
    expect(await runs.get('r2')).toMatchObject({
      records: 10,
      recordsRejected: 2,
      fileStates: { '2024_02': { status: 'SUCCESS', records: 10, recordsRejected: 2, rejected } },
    });
    expect(await history.get('r2')).toMatchObject({ status: 'SUCCESS', records: 10, recordsRejected: 2 });

    // a later run that skips the unchanged file leaves its last import's rejections on the file
    await apply(reimport.slice(4));
    expect(await files.get('2024_02')).toMatchObject({ status: 'SUCCESS', recordsRejected: 2, rejected });
  });
});
