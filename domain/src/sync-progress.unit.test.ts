import type { SyncRunFileDto } from './api';
import { formatRunDuration, syncRunProgress } from './sync-progress';

const file = (status: SyncRunFileDto['status'], progress = 0): SyncRunFileDto => ({
  name: 'f',
  lastUpdate: null,
  rnaLastUpdate: null,
  status,
  progress,
  records: 0,
  error: null,
  recordsRejected: 0,
  rejected: [],
  recordsSetAside: 0,
});

describe('a running sync’s progress', () => {
  const start = Date.UTC(2026, 10, 25, 20, 0);

  it('counts files, aids per second and an end extrapolated from the share done', () => {
    // 10 of 40 files done, one half downloaded (a quarter of its weight), one being parsed (half)
    const run = {
      start,
      done: 10,
      total: 40,
      published: 600_000,
      files: [file('SUCCESS'), file('DOWNLOADING', 50), file('PARSING'), file('PENDING')],
    };
    const progress = syncRunProgress(run, start + 60_000);
    expect(progress).toEqual({
      filesDone: 10,
      filesTotal: 40,
      aidsPerSecond: 10_000,
      // 10.75 of 40 files in a minute: 40 / 10.75 minutes in all
      estimatedEnd: start + 60_000 * (40 / 10.75),
    });
  });

  it('gives no rate or end before there is anything to go by, nor an end once all is done', () => {
    const empty = { start, done: 0, total: 145, published: 0, files: [file('PENDING')] };
    expect(syncRunProgress(empty, start + 500)).toMatchObject({ aidsPerSecond: null, estimatedEnd: null });
    expect(syncRunProgress({ ...empty, published: 10 }, start + 500).aidsPerSecond).toBeNull();
    const done = { start, done: 145, total: 145, published: 25_000_000, files: [] };
    expect(syncRunProgress(done, start + 1_500_000)).toMatchObject({
      aidsPerSecond: 25_000_000 / 1_500,
      estimatedEnd: null,
    });
    expect(syncRunProgress({ ...done, total: 0, done: 0 }, start + 1_000).estimatedEnd).toBeNull();
  });

  it('counts a download by what of it has arrived, between nothing and the whole of its half', () => {
    // 1 of 10 files done: a download reported past 100 % counts as 100 %, one below 0 as 0 %
    const run = (files: SyncRunFileDto[]) => ({ start, done: 1, total: 10, published: 0, files });
    // 1.5 of 10 files in 60 s: 400 s in all
    expect(syncRunProgress(run([file('DOWNLOADING', 150)]), start + 60_000).estimatedEnd).toBe(
      start + 400_000,
    );
    // 1 of 10 files in 60 s: 600 s in all
    expect(syncRunProgress(run([file('DOWNLOADING', -20)]), start + 60_000).estimatedEnd).toBe(
      start + 600_000,
    );
    // a finished or failed file counts by `done` only
    expect(syncRunProgress(run([file('SUCCESS', 100), file('ERROR', 40)]), start + 60_000).estimatedEnd).toBe(
      start + 600_000,
    );
  });

  it('gives a rate from the first full second and the first aid on', () => {
    const run = { start, done: 0, total: 10, published: 500, files: [] };
    expect(syncRunProgress(run, start + 1_000).aidsPerSecond).toBe(500);
    expect(syncRunProgress(run, start + 999).aidsPerSecond).toBeNull();
    expect(syncRunProgress({ ...run, published: 0 }, start + 5_000).aidsPerSecond).toBeNull();
  });

  it('extrapolates an end from 1 % of the work done on, not before, and not at the run’s first instant', () => {
    const run = { start, done: 1, total: 100, published: 0, files: [] };
    // 1 % in 30 s: 3,000 s in all
    expect(syncRunProgress(run, start + 30_000).estimatedEnd).toBe(start + 3_000_000);
    expect(syncRunProgress({ ...run, total: 101 }, start + 30_000).estimatedEnd).toBeNull();
    expect(syncRunProgress(run, start).estimatedEnd).toBeNull();
  });
});

describe('a run’s duration', () => {
  it('reads as hours and minutes, minutes and seconds, or seconds', () => {
    expect(formatRunDuration(40_000)).toBe('40 s');
    expect(formatRunDuration(22 * 60_000 + 5_000)).toBe('22 min 5 s');
    expect(formatRunDuration(25 * 60_000)).toBe('25 min');
    expect(formatRunDuration(63 * 60_000 + 20_000)).toBe('1 h 3 min');
    expect(formatRunDuration(2 * 3_600_000)).toBe('2 h');
    expect(formatRunDuration(-5)).toBe('0 s');
  });

  it('rounds to the nearest second', () => {
    expect(formatRunDuration(1_499)).toBe('1 s');
    expect(formatRunDuration(1_500)).toBe('2 s');
    expect(formatRunDuration(59_500)).toBe('1 min');
    expect(formatRunDuration(3_599_600)).toBe('1 h');
    // seconds are not shown beside hours
    expect(formatRunDuration(3_659_000)).toBe('1 h');
  });
});
