/**
 * The sync worker's own working state, kept in documents and shown by the API's sync screen: the
 * register's listing as last seen, the live progress of the file being imported, and the last
 * successful import of each file (the change signal for the next run). Only the sync worker writes
 * them; the shapes live here so that the API reads the same names and fields.
 */
import type { ArchivedRegisterFile, RegisterFileStatus } from '@rna/domain';

/** The register's listing as last seen, so that never-synced files can be shown and picked. */
export const REGISTER_FILES_COLLECTION = 'register-files';

export interface RegisterFileDoc {
  id: string;
  fileName: string;
  rnaLastUpdate: number | null;
  size: number | null;
  listedAt: number;
}

/** Download progress of the file being imported (one document, LIVE_PROGRESS_ID). */
export const SYNC_PROGRESS_COLLECTION = 'sync-progress';
/** The single document id of the live progress record. */
export const LIVE_PROGRESS_ID = 'current';

export interface LiveProgress {
  id: string;
  runId: string;
  file: string;
  status: RegisterFileStatus;
  /** 0..100, 2 decimals */
  progress: number;
  receivedBytes: number;
  totalBytes: number | null;
  updatedAt: number;
}

/** Last successful import per register file: the change signal for the next run. */
export const FILE_STATE_COLLECTION = 'sync-file-state';

export interface FileState {
  id: string;
  etag: string | null;
  lastModified: string | null;
  records: number;
  importId: string;
  succeededAt: string;
  /** The file as imported, for rebuilds; absent for imports made before files were kept. */
  archive?: ArchivedRegisterFile;
}
