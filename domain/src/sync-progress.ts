/**
 * How far a running sync is, as the archive screen shows it: files done of the run's files, aids
 * published per second, and an estimated end. A whole register runs for half an hour: its operator
 * needs to know whether to wait. Pure: the screen gives it the run as last polled and the time.
 */
import type { SyncRunDto } from './api';

export interface SyncRunProgress {
  filesDone: number;
  filesTotal: number;
  /** aids published per second since the run began; null before a second passed or the first aid */
  aidsPerSecond: number | null;
  /** ms; null until a share of the work is done to go by (or when it is all done) */
  estimatedEnd: number | null;
}

/**
 * The share of the run's work done: each finished file counts whole, a file being downloaded by
 * what of it has arrived (half its weight: it still has to be parsed), a file being parsed half.
 * Files differ in size, so this is an estimate, better as the run goes on.
 */
function shareDone(run: Pick<SyncRunDto, 'done' | 'total' | 'files'>): number {
  // Without the guard a run of no files gets a share of NaN, Infinity or below 0: none gives an end either.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, see above
  if (run.total <= 0) return 0;
  const inFlight = run.files.reduce((sum, file) => {
    if (file.status === 'DOWNLOADING') return sum + Math.min(100, Math.max(0, file.progress)) / 200;
    if (file.status === 'PARSING') return sum + 0.5;
    return sum;
  }, 0);
  return Math.min(1, (run.done + inFlight) / run.total);
}

export function syncRunProgress(
  run: Pick<SyncRunDto, 'start' | 'done' | 'total' | 'published' | 'files'>,
  now: number,
): SyncRunProgress {
  const elapsedMs = now - run.start;
  const share = shareDone(run);
  return {
    filesDone: run.done,
    filesTotal: run.total,
    aidsPerSecond: elapsedMs >= 1_000 && run.published > 0 ? run.published / (elapsedMs / 1_000) : null,
    // below 1 % done, an extrapolation says nothing
    estimatedEnd: share >= 0.01 && share < 1 && elapsedMs > 0 ? run.start + elapsedMs / share : null,
  };
}

/** "1 h 3 min", "22 min 5 s", "40 s": how long a run took, as the history shows it. */
export function formatRunDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1_000));
  const h = Math.floor(seconds / 3_600);
  const min = Math.floor((seconds % 3_600) / 60);
  const s = seconds % 60;
  if (h > 0) return min > 0 ? `${h} h ${min} min` : `${h} h`;
  if (min > 0) return s > 0 ? `${min} min ${s} s` : `${min} min`;
  return `${s} s`;
}
