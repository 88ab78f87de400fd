/** What the screens read from a bulk job: pure, so that the rules are tested without rendering. */
import type { BulkJobDto } from '@rna/domain';

/** How often the list is read while a job is queued or running (the issue: every second). */
export const BULK_POLL_MS = 1000;

/** Queued or running: its progress is still moving. */
export const isUnderWay = (job: BulkJobDto): boolean => job.status === 'QUEUED' || job.status === 'RUNNING';

/** A completed job whose workbook and PDF can still be downloaded (the server keeps them 30 days). */
export function isDownloadable(job: BulkJobDto, now: number = Date.now()): boolean {
  return job.status === 'COMPLETED' && job.expiresAt !== null && Date.parse(job.expiresAt) > now;
}

/** Completed, not yet downloaded and not expired: what the home page announces. */
export function readyJobs(jobs: readonly BulkJobDto[], now: number = Date.now()): BulkJobDto[] {
  return jobs.filter((job) => !job.downloaded && isDownloadable(job, now));
}

/** The percentage of codes done, 0–100 (0 for an empty list, so a bar never divides by zero). */
export function progressPercent(job: Pick<BulkJobDto, 'doneCodes' | 'totalCodes'>): number {
  if (job.totalCodes <= 0) return 0;
  return Math.min(100, Math.max(0, (job.doneCodes / job.totalCodes) * 100));
}

/**
 * The name of a downloaded result: `ricerca-massiva-clienti.xlsx` for clienti.xlsx, and
 * `ricerca-massiva-elenco.xlsx` for a pasted list.
 */
export function resultFileName(sourceName: string, extension: 'xlsx' | 'pdf'): string {
  const stem = sourceName
    .replace(/\.[^./\\]*$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `ricerca-massiva-${stem || 'elenco'}.${extension}`;
}
