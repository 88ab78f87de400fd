/**
 * Fair shares of the bulk search runner. One runner works through the jobs one at a time, so one
 * user's jobs could keep everybody else waiting: 30 repeats of a list already looked up that day
 * cost nothing and were all accepted in 0.74 s, another client's one-code job waited behind them,
 * and each kept its result files for 30 days. The rules: a few jobs open per user, a few free
 * repeats a day, a ceiling on the bytes of results a user keeps, and the runner takes the user it
 * served least recently first.
 */
import type { BulkJobState } from './bulk-summary';
import { isBulkJobAwaitingCharge, isBulkJobOpen, isBulkResultExpired } from './bulk-summary';
import { romeDay } from './dates';
import { DomainError } from './errors';

/** Jobs a user may have queued or running at once (B010 past it). */
export const BULK_MAX_OPEN_JOBS = 3;
/** Jobs a client may run in a Rome day that cost nothing, every code already looked up that day (B011 past it). */
export const BULK_MAX_FREE_JOBS_PER_DAY = 5;
/** Bytes of results (workbooks and PDFs) a user keeps at most (B012 past it): ~50 jobs of 5,000 codes. */
export const BULK_RESULT_QUOTA_BYTES = 500 * 1024 * 1024;

export type BulkJobFacts = Pick<
  BulkJobState,
  'status' | 'clientId' | 'cost' | 'requestedAt' | 'expiresAt' | 'resultBytes'
>;

/** A job still to run (queued, running, or awaiting its charge). */
const isActive = (job: BulkJobFacts) => isBulkJobOpen(job) || isBulkJobAwaitingCharge(job);

/**
 * Whether a user whose jobs are `jobs` may request another one now: B010 with BULK_MAX_OPEN_JOBS
 * open; for a client's job that would cost nothing (`cost` 0), B011 once BULK_MAX_FREE_JOBS_PER_DAY
 * free jobs were requested today (Rome day; failed ones do not count); B012 while the results kept
 * (completed, not expired) reach BULK_RESULT_QUOTA_BYTES.
 */
export function assertBulkJobAllowed(
  jobs: readonly BulkJobFacts[],
  request: { metered: boolean; cost: number; now: Date | number },
): void {
  if (jobs.filter(isActive).length >= BULK_MAX_OPEN_JOBS) throw new DomainError('B010');
  if (request.metered && request.cost === 0) {
    const today = romeDay(request.now);
    const freeToday = jobs.filter(
      (job) =>
        job.clientId !== null &&
        job.status !== 'FAILED' &&
        !isBulkJobAwaitingCharge(job) &&
        job.cost === 0 &&
        job.requestedAt !== '' &&
        romeDay(Date.parse(job.requestedAt)) === today,
    ).length;
    if (freeToday >= BULK_MAX_FREE_JOBS_PER_DAY) throw new DomainError('B011');
  }
  const kept = jobs
    // Stryker disable next-line ConditionalExpression: only a completed job has result bytes (BulkSearchCompleted records them, and nothing but downloads follows it)
    .filter((job) => job.status === 'COMPLETED')
    .filter((job) => !isBulkResultExpired(job, request.now))
    .reduce((sum, job) => sum + (job.resultBytes ?? 0), 0);
  if (kept >= BULK_RESULT_QUOTA_BYTES) throw new DomainError('B012');
}

/**
 * The job the runner takes next: among the users with jobs waiting, the one it served least recently
 * (never served first; `lastServed` maps a user to the instant its last job started), then the
 * earliest request; within that user, the earliest request. Null when nothing waits.
 */
export function nextFairJob<J extends { id: string; userId: string; requestedAt: string }>(
  waiting: readonly J[],
  lastServed: ReadonlyMap<string, number>,
): J | null {
  let best: J | null = null;
  const served = (job: J) => lastServed.get(job.userId) ?? Number.NEGATIVE_INFINITY;
  for (const job of waiting) {
    if (
      best === null ||
      served(job) < served(best) ||
      (served(job) === served(best) && job.requestedAt < best.requestedAt)
    )
      best = job;
  }
  return best;
}
