import {
  PINNED_TEST_INSTANT,
  processClock,
  runningClockFrom,
  systemClock,
  TEST_CLOCK_SHIFT_ENV,
  TEST_NOW_ENV,
} from './clock';

describe('the process clock', () => {
  it('is the wall clock unless a test harness pins it', () => {
    expect(processClock({})).toBe(systemClock);
    // outside tests the variable is ignored: a production process never runs on a pinned date
    expect(processClock({ [TEST_NOW_ENV]: PINNED_TEST_INSTANT, NODE_ENV: 'production' })).toBe(systemClock);
  });

  it('starts at the pinned instant under NODE_ENV=test and runs on from there', () => {
    const clock = processClock({ [TEST_NOW_ENV]: '2024-02-15T10:00:00.000Z', NODE_ENV: 'test' });
    const first = clock().getTime();
    expect(first).toBeGreaterThanOrEqual(Date.parse('2024-02-15T10:00:00.000Z'));
    expect(first).toBeLessThan(Date.parse('2024-02-15T10:01:00.000Z'));
  });

  it('refuses a pinned instant that is not a date', () => {
    expect(() => processClock({ [TEST_NOW_ENV]: 'yesterday', NODE_ENV: 'test' })).toThrow(TEST_NOW_ENV);
  });

  it('moves with the monotonic clock, not the wall clock', () => {
    let monotonic = 1_000;
    const clock = runningClockFrom(new Date('2026-01-01T00:00:00.000Z'), () => monotonic);
    monotonic += 2_500;
    expect(clock().toISOString()).toBe('2026-01-01T00:00:02.500Z');
  });
});

describe('the suite-wide clock horizon', () => {
  const realNow = () => performance.timeOrigin + performance.now();

  it('runs this suite a year ahead, so that fixed data about to leave a window fails a year early', () => {
    const shiftDays = Number(process.env[TEST_CLOCK_SHIFT_ENV]);
    expect(shiftDays).toBeGreaterThanOrEqual(365);
    const aheadMs = Date.now() - realNow();
    expect(aheadMs / 86_400_000).toBeCloseTo(shiftDays, 1);
    expect(new Date().getTime() - realNow()).toBeGreaterThan(364 * 86_400_000);
  });
});
