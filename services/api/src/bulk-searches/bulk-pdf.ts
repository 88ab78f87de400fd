/**
 * The bulk PDF is laid out on a worker thread: pdf-lib takes ~300 ms of one core for 5,000
 * companies (measured on this machine), all of it on the event loop, where every request of every
 * other client waited for it.
 */
import { WorkerPool } from '@rna/infra/embedded';
import type { ReportBranding } from '../reports/report-input';
import type { BulkResult } from './result-files';

type Task = { result: BulkResult; branding: ReportBranding };

let pool: WorkerPool<Task, Uint8Array> | null = null;

export async function bulkPdfOffThread(result: BulkResult, branding: ReportBranding): Promise<Buffer> {
  // one job runs at a time per runner: one thread, and a queue that never fills
  pool ??= new WorkerPool({ dir: __dirname, baseName: 'bulk-pdf.worker', timeoutMs: 120_000 });
  const bytes = await pool.run({ result, branding });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
