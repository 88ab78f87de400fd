/**
 * The clock every process reads business time from (search windows, quotas, token expiry, sync
 * scopes). In production it is the wall clock. Test harnesses that start processes pin it with
 * RNA_TEST_NOW, so that tests with fixed data never depend on the day they run: the variable is
 * honoured only when NODE_ENV is 'test' (jest sets it; harnesses pass it to their children).
 */
export type Clock = () => Date;

/** The environment variable a test harness sets to an ISO instant to start a process's clock at. */
export const TEST_NOW_ENV = 'RNA_TEST_NOW';
/**
 * Days the test suite moves unpinned clocks ahead (tools/setup/jest-clock-horizon.js sets it for the
 * test processes and, through their environment, for the processes they start).
 */
export const TEST_CLOCK_SHIFT_ENV = 'RNA_TEST_CLOCK_SHIFT_DAYS';

type Env = Record<string, string | undefined>;

export const systemClock: Clock = () => new Date();

/**
 * A clock that starts at `start` and runs on at the speed of the machine's monotonic clock (timeouts,
 * token lifetimes and leases keep behaving as they do on the wall clock).
 */
export function runningClockFrom(start: Date, monotonicMs: () => number = () => performance.now()): Clock {
  const startMs = start.getTime();
  const t0 = monotonicMs();
  return () => new Date(startMs + (monotonicMs() - t0));
}

/**
 * The process's clock: the wall clock; under NODE_ENV=test, the pinned one a test harness asked for,
 * or else the wall clock moved as far ahead as the test suite runs.
 */
export function processClock(env: Env = process.env): Clock {
  if (env.NODE_ENV !== 'test') return systemClock;
  const pinned = env[TEST_NOW_ENV]?.trim();
  if (pinned) {
    const start = new Date(pinned);
    if (Number.isNaN(start.getTime()))
      throw new Error(`${TEST_NOW_ENV} must be an ISO instant, got "${pinned}"`);
    return runningClockFrom(start);
  }
  const shiftDays = Number(env[TEST_CLOCK_SHIFT_ENV] ?? 0);
  if (!Number.isFinite(shiftDays) || shiftDays === 0) return systemClock;
  const shiftMs = Math.round(shiftDays * 86_400_000);
  return () => new Date(Date.now() + shiftMs);
}

/**
 * The instant test harnesses pin their clocks to unless a test needs another: a Tuesday morning in
 * Rome, far from midnight and from a month's end, so that a same-day or same-month rule cannot flip
 * while a test runs.
 */
export const PINNED_TEST_INSTANT = '2026-03-10T09:00:00.000Z';
