import { openTemporaryStores, type TemporaryStores } from '../embedded/testing';
import { runWhileHoldingLease, tryHoldLease, type StoppableWork } from '.';

describe('leases', () => {
  let stores: TemporaryStores;
  beforeEach(() => {
    stores = openTemporaryStores('rna-leases-');
  });
  afterEach(() => stores.dispose());

  it('is held by one holder at a time until it expires, then by whoever asks', async () => {
    let now = 1_000;
    const lease = (holder: string) => ({ name: 'sync-worker', holder, ttlMs: 500, now: () => now });
    expect(await tryHoldLease(stores.documents, lease('a'))).toBe(true);
    expect(await tryHoldLease(stores.documents, lease('b'))).toBe(false);
    now = 1_400;
    expect(await tryHoldLease(stores.documents, lease('a'))).toBe(true); // renewed until 1,900
    now = 1_800;
    expect(await tryHoldLease(stores.documents, lease('b'))).toBe(false);
    now = 1_900; // a stopped renewing (killed): b takes over
    expect(await tryHoldLease(stores.documents, lease('b'))).toBe(true);
    expect(await tryHoldLease(stores.documents, lease('a'))).toBe(false);
  });

  it('lets exactly one of many racing holders take a free lease', async () => {
    const holders = Array.from({ length: 8 }, (_, i) => `p${i}`);
    const taken = await Promise.all(
      holders.map((holder) => tryHoldLease(stores.documents, { name: 'notifier', holder, ttlMs: 10_000 })),
    );
    expect(taken.filter(Boolean)).toHaveLength(1);
  });

  it('runs the work in one process; when that one stops, another takes it over', async () => {
    const running = new Set<string>();
    const work = (name: string) => (): StoppableWork => {
      running.add(name);
      return { stop: async () => void running.delete(name) };
    };
    // a lease far longer than the wait below: a busy machine (a full test run on two cores) stalled
    // the loop past a 400 ms lease and both held the work for a moment (a holder keeps no deadline of
    // its own yet: issue 27); the hand-over below needs no expiry, so the length costs no time
    const options = (holder: string) => ({ name: 'projection:x', holder, ttlMs: 5_000, renewEveryMs: 50 });
    const a = runWhileHoldingLease(stores.documents, options('a'), work('a'));
    const b = runWhileHoldingLease(stores.documents, options('b'), work('b'));
    try {
      await until(() => running.size === 1);
      await new Promise((resolve) => setTimeout(resolve, 300)); // several renewals: still one
      expect(running.size).toBe(1);
      const [first] = [...running];
      const firstRunner = first === 'a' ? a : b;
      await firstRunner.stop(); // gives the lease up: the other one needs no expiry
      await until(() => running.size === 1 && !running.has(first!));
      expect((first === 'a' ? b : a).holding()).toBe(true);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(running.size).toBe(0);
  });
});

async function until(done: () => boolean, timeoutMs = 3_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > giveUpAt) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
