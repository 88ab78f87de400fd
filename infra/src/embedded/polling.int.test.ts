/**
 * The polling loop of the embedded subscriptions and consumers, when the SQLite file is locked by
 * another process beyond its busy timeout (a process frozen in the middle of a write): it waits and
 * goes on, where it used to stop for good ("consumer stopped") and leave the aids unindexed.
 */
import { PollingLoop, type PollingRound } from './polling';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

/** A round over the numbers 1..n, one per batch, with faults injected at chosen calls. */
function countingRound(n: number, faults: { next?: number[]; advance?: number[] }) {
  let position = 0;
  let nextCalls = 0;
  let advanceCalls = 0;
  const handled: number[] = [];
  const round: PollingRound<number> = {
    next: () => {
      nextCalls += 1;
      if (faults.next?.includes(nextCalls)) throw busy();
      return position < n ? position + 1 : null;
    },
    handle: async (batch) => void handled.push(batch),
    advance: (batch) => {
      advanceCalls += 1;
      if (faults.advance?.includes(advanceCalls)) throw busy();
      position = batch;
    },
    idle: () => 5,
    finish: () => undefined,
  };
  return { round, handled, position: () => position };
}

/** Resolves once `done()` holds, looked at on each turn of the loop's back-off sleeps. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 2));
}

function loopOver(round: PollingRound<number>) {
  const busyAttempts: number[] = [];
  const failures: unknown[] = [];
  const loop = new PollingLoop(round, {
    name: 'test consumer',
    retry: { initialDelayMs: 1, maxDelayMs: 4 },
    onHandlerError: () => undefined,
    onFailure: (error) => failures.push(error),
    onBusy: (attempt) => busyAttempts.push(attempt),
    onStopped: () => undefined,
  });
  return { loop, busyAttempts, failures };
}

it('waits out a locked file when fetching, with growing pauses, and then consumes everything', async () => {
  const { round, handled, position } = countingRound(3, { next: [1, 2, 3] });
  const { loop, busyAttempts, failures } = loopOver(round);
  await until(() => position() === 3);
  await loop.stop();
  expect(handled).toEqual([1, 2, 3]);
  expect(busyAttempts).toEqual([1, 2, 3]);
  expect(failures).toEqual([]);
});

it('hands a batch over again when moving past it met a locked file, and never skips one', async () => {
  const { round, handled, position } = countingRound(3, { advance: [2] });
  const { loop, failures } = loopOver(round);
  await until(() => position() === 3);
  await loop.stop();
  expect(handled).toEqual([1, 2, 2, 3]);
  expect(failures).toEqual([]);
});

it('still stops, and says so, when the store fails otherwise (its file gone)', async () => {
  const gone = new Error('unable to open database file');
  const round: PollingRound<number> = {
    next: () => {
      throw gone;
    },
    handle: async () => undefined,
    advance: () => undefined,
    idle: () => 5,
    finish: () => undefined,
  };
  const { loop, failures } = loopOver(round);
  await until(() => failures.length > 0);
  await expect(
    loop.caughtUp(
      () => 1,
      () => false,
    ),
  ).rejects.toThrow(/is stopped/);
  await loop.stop();
  expect(failures).toEqual([gone]);
});
