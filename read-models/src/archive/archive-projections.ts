/**
 * Read models of the archive screen, from the sync events: one document per register file
 * (`archive-files`), one per run with its files (`sync-runs`) and the compact history
 * (`sync-history`). Each event overwrites fields by natural key, so replays give the same state.
 * Their names and shapes are in ./read-models, where the API reads them from.
 */
import type { RegisterFileStatus, SyncEvent, SyncScope } from '@rna/domain';
import {
  ARCHIVE_FILES_COLLECTION,
  SYNC_HISTORY_COLLECTION,
  SYNC_RUNS_COLLECTION,
  type ArchiveFileDoc,
  type SyncHistoryDoc,
  type SyncRunDoc,
} from './read-models';
import { updateDocument, type Collection } from '@rna/infra';
import type { Projection } from '../projection';

const ms = (iso: string) => Date.parse(iso);

const FILE_EVENTS = [
  'RegisterFileQueued',
  'RegisterFileSkipped',
  'RegisterFileDownloading',
  'RegisterFileParsing',
  'RegisterFileSucceeded',
  'RegisterFileFailed',
  'RegisterFileWithdrawn',
] as const;

async function updateFile(
  files: Collection<ArchiveFileDoc>,
  name: string,
  change: (doc: ArchiveFileDoc) => ArchiveFileDoc,
): Promise<void> {
  await updateDocument(files, name, (doc) =>
    change(
      doc ?? {
        id: name,
        name,
        lastUpdate: null,
        rnaLastUpdate: null,
        status: null,
        progress: 0,
        records: 0,
        error: null,
        runId: null,
      },
    ),
  );
}

export const archiveFilesProjection: Projection<SyncEvent> = {
  name: 'archive-files',
  collections: [ARCHIVE_FILES_COLLECTION],
  handles: FILE_EVENTS,
  async apply(e, stores) {
    const files = stores.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION);
    switch (e.type) {
      case 'RegisterFileQueued':
        return updateFile(files, e.data.name, (d) => ({
          ...d,
          status: 'PENDING',
          progress: 0,
          error: null,
          runId: e.data.runId,
        }));
      case 'RegisterFileSkipped':
        // Unchanged since its last import: it counts as done.
        return updateFile(files, e.data.name, (d) => ({
          ...d,
          status: 'SUCCESS',
          progress: 100,
          error: null,
          runId: e.data.runId,
        }));
      case 'RegisterFileDownloading':
        return updateFile(files, e.data.name, (d) => ({
          ...d,
          status: 'DOWNLOADING',
          progress: 0,
          runId: e.data.runId,
        }));
      case 'RegisterFileParsing':
        return updateFile(files, e.data.name, (d) => ({ ...d, status: 'PARSING', progress: 100 }));
      case 'RegisterFileSucceeded': {
        const rna = e.data.lastModified ? Date.parse(e.data.lastModified) : NaN;
        return updateFile(files, e.data.name, (d) => ({
          ...d,
          status: 'SUCCESS',
          progress: 100,
          records: e.data.records,
          recordsRejected: e.data.recordsRejected ?? 0,
          rejected: e.data.rejected ?? [],
          lastUpdate: ms(e.data.at),
          rnaLastUpdate: Number.isNaN(rna) ? d.rnaLastUpdate : rna,
          error: null,
          runId: e.data.runId,
        }));
      }
      case 'RegisterFileFailed':
        return updateFile(files, e.data.name, (d) => ({
          ...d,
          status: 'ERROR',
          error: e.data.reason,
          runId: e.data.runId,
        }));
      case 'RegisterFileWithdrawn':
        // gone from the register, so gone from the archive's list of files
        await files.delete(e.data.name);
        return;
      default:
        return;
    }
  },
  async reset(stores) {
    await stores.documents.collection(ARCHIVE_FILES_COLLECTION).clear();
  },
};

const RUN_EVENTS = ['SyncRequested', 'SyncStarted', ...FILE_EVENTS, 'SyncCompleted', 'SyncFailed'] as const;

function countDone(run: SyncRunDoc): SyncRunDoc {
  const states = Object.values(run.fileStates);
  return {
    ...run,
    done: states.filter((s) => s.status === 'SUCCESS').length,
    records: states.reduce((sum, s) => sum + s.records, 0),
    recordsRejected: states.reduce((sum, s) => sum + (s.recordsRejected ?? 0), 0),
  };
}

export const syncRunsProjection: Projection<SyncEvent> = {
  name: 'sync-runs',
  collections: [SYNC_RUNS_COLLECTION],
  handles: RUN_EVENTS,
  async apply(e, stores) {
    const runs = stores.documents.collection<SyncRunDoc>(SYNC_RUNS_COLLECTION);
    if (e.type === 'SyncRequested') {
      // a redelivery finds the run there already
      await updateDocument(
        runs,
        e.data.runId,
        (existing): SyncRunDoc =>
          existing ?? {
            id: e.data.runId,
            type: e.data.scope,
            start: ms(e.data.at),
            end: null,
            status: 'RUNNING',
            files: [],
            fileStates: {},
            done: 0,
            total: 0,
            records: 0,
            recordsRejected: 0,
            succeeded: 0,
            failed: 0,
            skipped: 0,
          },
      );
      return;
    }
    await updateDocument(runs, e.data.runId, (stored) =>
      stored ? evolveRun(structuredClone(stored), e) : null,
    );
  },
  async reset(stores) {
    await stores.documents.collection(SYNC_RUNS_COLLECTION).clear();
  },
};

/** The run after one of its events (the run is a copy of the stored one, changed in place). */
function evolveRun(run: SyncRunDoc, e: SyncEvent): SyncRunDoc {
  const setFile = (name: string, status: RegisterFileStatus, records = 0, error: string | null = null) => {
    run.fileStates[name] = { status, records, error };
  };
  switch (e.type) {
    case 'SyncStarted':
      run.files = e.data.files;
      run.total = e.data.files.length;
      for (const name of e.data.files)
        run.fileStates[name] ??= { status: 'PENDING', records: 0, error: null };
      break;
    case 'RegisterFileQueued':
      setFile(e.data.name, 'PENDING');
      break;
    case 'RegisterFileSkipped':
      setFile(e.data.name, 'SUCCESS');
      break;
    case 'RegisterFileDownloading':
      setFile(e.data.name, 'DOWNLOADING');
      break;
    case 'RegisterFileParsing':
      setFile(e.data.name, 'PARSING');
      break;
    case 'RegisterFileSucceeded':
      run.fileStates[e.data.name] = {
        status: 'SUCCESS',
        records: e.data.records,
        error: null,
        importId: e.data.importId,
        recordsRejected: e.data.recordsRejected ?? 0,
        rejected: e.data.rejected ?? [],
      };
      break;
    case 'RegisterFileFailed':
      setFile(e.data.name, 'ERROR', 0, e.data.reason);
      break;
    case 'SyncCompleted':
      run.end = ms(e.data.at);
      run.status = e.data.failed > 0 ? 'ERROR' : 'SUCCESS';
      run.succeeded = e.data.succeeded;
      run.failed = e.data.failed;
      run.skipped = e.data.skipped;
      break;
    case 'SyncFailed':
      run.end = ms(e.data.at);
      run.status = 'ERROR';
      break;
    default:
      return run;
  }
  return countDone(run);
}

export const syncHistoryProjection: Projection<SyncEvent> = {
  name: 'sync-history',
  collections: [SYNC_HISTORY_COLLECTION],
  handles: ['SyncRequested', 'SyncCompleted', 'SyncFailed'],
  async apply(e, stores) {
    const history = stores.documents.collection<SyncHistoryDoc>(SYNC_HISTORY_COLLECTION);
    if (e.type === 'SyncRequested') {
      await updateDocument(
        history,
        e.data.runId,
        (existing): SyncHistoryDoc =>
          existing ?? {
            id: e.data.runId,
            type: e.data.scope as SyncScope,
            start: ms(e.data.at),
            end: null,
            status: 'RUNNING',
            succeeded: 0,
            failed: 0,
            skipped: 0,
            records: 0,
          },
      );
      return;
    }
    if (e.type !== 'SyncCompleted' && e.type !== 'SyncFailed') return;
    await updateDocument(history, e.data.runId, (entry): SyncHistoryDoc | null => {
      if (!entry) return null;
      if (e.type === 'SyncFailed') return { ...entry, end: ms(e.data.at), status: 'ERROR' };
      return {
        ...entry,
        end: ms(e.data.at),
        status: e.data.failed > 0 ? 'ERROR' : 'SUCCESS',
        succeeded: e.data.succeeded,
        failed: e.data.failed,
        skipped: e.data.skipped,
        records: e.data.records,
        recordsRejected: e.data.recordsRejected ?? 0,
      };
    });
  },
  async reset(stores) {
    await stores.documents.collection(SYNC_HISTORY_COLLECTION).clear();
  },
};

export const archiveProjections: readonly Projection[] = [
  archiveFilesProjection,
  syncRunsProjection,
  syncHistoryProjection,
];
