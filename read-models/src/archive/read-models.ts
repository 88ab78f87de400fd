/**
 * Read models of the archive screen, written by the archive projections (projector) from the sync
 * events and read by the API. The projector owns their shapes; the API reads them by these names.
 */
import type {
  ArchiveFileDto,
  RegisterFileStatus,
  RegisterRecordRejection,
  SyncResultDto,
  SyncRunDto,
} from '@rna/domain';

/** One document per register file (id = file name). */
export const ARCHIVE_FILES_COLLECTION = 'archive-files';
/** One document per run, with the state of each of its files (id = run id). */
export const SYNC_RUNS_COLLECTION = 'sync-runs';
/** The compact history of runs (id = run id). */
export const SYNC_HISTORY_COLLECTION = 'sync-history';

/** Documents written before the record check have no rejection fields: read them as none. */
export interface ArchiveFileDoc extends Omit<ArchiveFileDto, 'recordsRejected' | 'rejected'> {
  id: string;
  runId: string | null;
  /** of the file's last import (kept when a later run skips the file as unchanged) */
  recordsRejected?: number;
  rejected?: RegisterRecordRejection[];
}

/** A run's file: its state and, once published (SUCCESS), the import that published its aids. */
export interface RunFileState {
  status: RegisterFileStatus;
  records: number;
  error: string | null;
  importId?: string;
  /** records this run's import of the file rejected, and the first of them */
  recordsRejected?: number;
  rejected?: RegisterRecordRejection[];
}

export interface SyncRunDoc extends Omit<
  SyncRunDto,
  'files' | 'published' | 'indexed' | 'recordsRejected' | 'recordsSetAside'
> {
  /** over the run's imports; absent on runs projected before the record check */
  recordsRejected?: number;
  files: string[];
  fileStates: Record<string, RunFileState>;
  succeeded: number;
  failed: number;
  skipped: number;
}

export interface SyncHistoryDoc extends Omit<SyncResultDto, 'recordsRejected'> {
  id: string;
  /** absent on runs before the record check */
  recordsRejected?: number;
}
