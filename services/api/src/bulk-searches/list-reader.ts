/**
 * Lists are read off the event loop: unzipping a workbook, parsing its XML or a CSV of 5 MB, or a
 * pasted list of tens of thousands of pieces takes a core for a while, and on the request's own
 * thread every other client waited for it (85,000 pasted codes: /api/health answered after 10-17 s).
 * One thread (the machine has two cores and the index and Chromium need theirs), a short queue: past
 * it the user is asked to retry (Q001).
 */
import { DomainError, isErrorCode, type BulkCodeList } from '@rna/domain';
import { WorkerPool, WorkerPoolBusyError, WorkerTaskFailedError } from '@rna/infra/embedded';
import { RetryLaterError } from '../http/paid-work-limit';
import type { CodeListInput } from './file-reading';

/** Longer than any list within the limits takes; a task past it is no honest list. */
const READ_TIMEOUT_MS = 20_000;

let pool: WorkerPool<CodeListInput, BulkCodeList> | null = null;

export async function readCodeListOffThread(input: CodeListInput): Promise<BulkCodeList> {
  pool ??= new WorkerPool({ dir: __dirname, baseName: 'list-reader.worker', timeoutMs: READ_TIMEOUT_MS });
  // the thread gets a copy of its own: an upload's buffer may be a slice of a larger one
  const bytes = input.bytes ? new Uint8Array(input.bytes) : undefined;
  try {
    return await pool.run({ ...input, bytes }, bytes ? [bytes.buffer as ArrayBuffer] : []);
  } catch (error) {
    if (error instanceof WorkerPoolBusyError) throw new RetryLaterError(5);
    if (error instanceof WorkerTaskFailedError && isErrorCode(error.reported.code))
      throw new DomainError(error.reported.code, error.reported.message);
    throw new DomainError('B002');
  }
}
