/**
 * Ricerca massiva (bulk search): the contract shared by the API and the front end — limits and the
 * DTOs of /bulk-searches. The events of a job's stream `bulk-<jobId>` are in events.ts with the
 * others; the rules (reading a list, the per-company figures) live beside it in bulk-summary.ts.
 */
import type { BulkCodeGroup, BulkCodeWarning } from './events';

/** At most this many distinct codes in one job. */
export const BULK_MAX_CODES = 5_000;
/** An uploaded file larger than this is refused before it is read. */
export const BULK_MAX_FILE_BYTES = 5 * 1024 * 1024;
/** A completed job's workbook and PDF can be downloaded for this many days. */
export const BULK_RESULT_DAYS = 30;

/**
 * POST /bulk-searches/preview: what a list holds and what running it would cost. Nothing is kept
 * and nothing is charged.
 */
export interface BulkPreviewDto {
  /** the file's name, or '' for a pasted list */
  sourceName: string;
  /** the header of the column the codes were read from; null = first column (or a pasted list) */
  column: string | null;
  /** the headers of the file's first row, so that the user can pick another column */
  columns: string[];
  /** the distinct, normalised codes, in the order they came */
  taxCodes: string[];
  /** codes whose check digit is wrong (they are searched all the same) */
  warnings: BulkCodeWarning[];
  /** non-empty cells that are no tax code, as they were written (at most 50 listed) */
  ignored: string[];
  ignoredCount: number;
  /** repeated codes dropped */
  duplicates: number;
  /**
   * the group (impresa unica) of each code, from a column headed "Gruppo" or "Impresa unica" when the
   * file has one; empty otherwise. The job's workbook sums each group's de minimis together.
   */
  groups: BulkCodeGroup[];
  /** codes not yet looked up today by this client: what the job costs (0 for ADMIN) */
  newToday: number;
  cost: number;
  /** CLIENT: searches left before the job; null for ADMIN (not metered) */
  remainingSearches: number | null;
  /** false when a CLIENT has fewer searches left than the cost: confirming would answer U004 */
  affordable: boolean;
}

/** POST /bulk-searches (JSON): run the previewed list. The server reads and charges it anew. */
export interface BulkSearchRequestDto {
  taxCodes: string[];
  sourceName: string;
  /** the previewed groups (impresa unica), when the list had a group column */
  groups?: BulkCodeGroup[];
}

export type BulkJobStatus = 'QUEUED' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'EXPIRED';

/** GET /bulk-searches (the user's own jobs, newest first) and GET /bulk-searches/:jobId. */
export interface BulkJobDto {
  jobId: string;
  sourceName: string;
  status: BulkJobStatus;
  totalCodes: number;
  doneCodes: number;
  /** searches charged for the job (0 for ADMIN and for codes already looked up that day) */
  cost: number;
  /** ISO instants */
  requestedAt: string;
  completedAt: string | null;
  /** when the downloads go away (completedAt + BULK_RESULT_DAYS) */
  expiresAt: string | null;
  /** COMPLETED: companies with at least one aid, aids found, companies over the de minimis ceiling */
  companiesWithAids: number | null;
  aids: number | null;
  overCeiling: number | null;
  /** FAILED: an error code of the catalogue */
  failureCode: string | null;
  /** whether the user has downloaded the workbook or the PDF (the home notice stops then) */
  downloaded: boolean;
}

/** One row of the workbook's summary sheet and of the PDF: one company of the list. */
export interface BulkCompanySummary {
  taxCode: string;
  /** the beneficiary's name as the register writes it ('' when the code has no aid) */
  name: string;
  aids: number;
  /** euro: every aid of the last 3 years, de minimis or not */
  totalLast3Years: number;
  /** euro, now and when 6 and 12 months have passed (older aids leave the rolling window) */
  deMinimisUsed: number;
  remainingNow: number;
  remainingIn6Months: number;
  remainingIn12Months: number;
  exceeded: boolean;
  /** Italian texts for the row's warnings column (wrong check digit, live fallback, no aid found…) */
  warnings: string[];
}
