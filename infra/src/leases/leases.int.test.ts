import os from 'node:os';
import type { DocumentStore } from '../documents/port';
import { openTemporaryStores, until, withCollectionMethods, type TemporaryStores } from '../embedded/testing';
import {
  attemptLease,
  holderMarginMs,
  LEASES_COLLECTION,
  leaseClock,
  processHolderId,
  releaseLease,
  runWhileHoldingLease,
  tryHoldLease,
  type HeldLease,
  type LeaseDoc,
  type StoppableWork,
} from '.';

/** The store, except that once `hang` is set no lease read or write ever answers (a hung engine call). */
function hangingStore(documents: DocumentStore, hang: { now: boolean }): DocumentStore {
  const never = new Promise<never>(() => undefined);
  return withCollectionMethods(documents, (_, inner) => ({
    get: (id) => (hang.now ? never : inner.get(id)),
    getWithRevision: (id) => (hang.now ? never : inner.getWithRevision(id)),
    put: (doc, options) => (hang.now ? never : inner.put(doc, options)),
  }));
}

describe('leases', () => {
  let stores: TemporaryStores;
  beforeEach(() => {
    stores = openTemporaryStores('rna-leases-');
  });
  afterEach(() => stores.dispose());

  it('is taken over only once the holder’s revision stayed unchanged for a lease time on the taker’s clock', async () => {
    // each process has its own clock: only b's elapsed time decides when b may take over
    let aNow = 1_000;
    let bNow = 0;
    const a = { name: 'sync-worker', holder: 'a', ttlMs: 500, now: () => aNow };
    const b = { name: 'sync-worker', holder: 'b', ttlMs: 500, now: () => bNow };
    expect(await tryHoldLease(stores.documents, a)).toBe(true);
    expect(await tryHoldLease(stores.documents, b)).toBe(false); // b first sees a's lease at 0
    bNow = 400;
    // refused, and told when a's revision, if still unchanged, may be taken: in 100 ms of b's clock
    expect(await attemptLease(stores.documents, b)).toEqual({
      held: false,
      token: 0,
      revision: 1,
      ripeInMs: 100,
    });
    aNow = 1_400;
    expect(await tryHoldLease(stores.documents, a)).toBe(true); // a renewal: a new revision
    bNow = 600; // 600 ms since b first saw the lease, but it has just seen the renewal
    expect(await tryHoldLease(stores.documents, b)).toBe(false);
    bNow = 1_099;
    expect(await tryHoldLease(stores.documents, b)).toBe(false);
    bNow = 1_100; // a stopped renewing (killed): its renewal unchanged for 500 ms of b's clock
    expect(await tryHoldLease(stores.documents, b)).toBe(true);
    expect(await tryHoldLease(stores.documents, a)).toBe(false);
    // a clean stop frees the lease at once: a takes it back without waiting
    await releaseLease(stores.documents, b);
    expect(await tryHoldLease(stores.documents, a)).toBe(true);
  });

  it('gives each new holder a greater fencing token, which renewals keep', async () => {
    let now = 0;
    const a = { name: 'sync-worker', holder: 'a', ttlMs: 500, now: () => now };
    const b = { name: 'sync-worker', holder: 'b', ttlMs: 500, now: () => now };
    const leases = stores.documents.collection<LeaseDoc>(LEASES_COLLECTION);
    const first = await attemptLease(stores.documents, a);
    expect(first.held).toBe(true);
    expect(await attemptLease(stores.documents, b)).toMatchObject({ held: false }); // b starts watching
    now = 300;
    expect(await attemptLease(stores.documents, a)).toMatchObject({ held: true, token: first.token }); // renewed
    now = 900; // b saw a's renewal at 300: unchanged for a lease time, a stopped renewing
    expect(await attemptLease(stores.documents, b)).toMatchObject({ held: false });
    now = 1_400;
    const second = await attemptLease(stores.documents, b);
    expect(second).toMatchObject({ held: true });
    expect(second.token).toBeGreaterThan(first.token);
    expect(await attemptLease(stores.documents, a)).toMatchObject({ held: false });
    expect(await attemptLease(stores.documents, b)).toMatchObject({ held: true, token: second.token });
    // given up and taken again, even by the same process: a new holding, a greater token
    await releaseLease(stores.documents, b);
    const third = await attemptLease(stores.documents, b);
    expect(third.token).toBeGreaterThan(second.token);
    // a lease whose token ran ahead of the wall clock (another host's clock): the next is one more
    const current = await leases.getWithRevision('sync-worker');
    const ahead = Date.now() + 3_600_000;
    await leases.put(
      { ...current!.doc, expiresAt: 0, token: ahead },
      { expectedRevision: current!.revision },
    );
    expect(await attemptLease(stores.documents, a)).toMatchObject({ held: true, token: ahead + 1 });
    expect(await leases.get('sync-worker')).toMatchObject({ holder: 'a', token: ahead + 1 });
  });

  it('gives a holder a token above every one the stores saw, also when the lease document was lost', async () => {
    const before = Date.now();
    const a = { name: 'sync-worker', holder: 'a', ttlMs: 500 };
    const first = await attemptLease(stores.documents, a);
    // the lease document deleted (a store restored from an old backup): no token to count from
    await stores.documents.collection<LeaseDoc>(LEASES_COLLECTION).delete('sync-worker');
    const again = await attemptLease(stores.documents, { ...a, holder: 'b' });
    // tokens follow the wall clock from below: a store that saw `first` does not fence `again` off
    expect(first.token).toBeGreaterThanOrEqual(before);
    expect(again.token).toBeGreaterThanOrEqual(first.token);
  });

  it('hands the work the token it holds the lease with, a new one after a take-over', async () => {
    const fences: number[] = [];
    const work = (lease: HeldLease): StoppableWork => {
      fences.push(lease.fence().token);
      expect(lease.fence().name).toBe('projection:y');
      return { stop: async () => undefined };
    };
    const leases = stores.documents.collection<LeaseDoc>(LEASES_COLLECTION);
    const a = runWhileHoldingLease(
      stores.documents,
      { name: 'projection:y', holder: 'a', ttlMs: 60_000, renewEveryMs: 20 },
      work,
    );
    try {
      await until(() => fences.length === 1);
      // another holder took the lease and gave it up: a takes it again, with the token after b's
      const current = await leases.getWithRevision('projection:y');
      await leases.put(
        { id: 'projection:y', holder: 'b', expiresAt: 0, token: 2 },
        { expectedRevision: current!.revision },
      );
      await until(() => fences.length === 2);
      expect(fences[1]).toBeGreaterThan(Math.max(fences[0]!, 2));
    } finally {
      await a.stop();
    }
  });

  it('lets a holder whose clock is hours off neither steal a lease nor keep one it stopped renewing', async () => {
    const hours = 3 * 3_600_000;
    let now = 0; // the elapsed time of every process alike; their wall clocks differ by hours
    const lease = (holder: string, offset: number) => ({
      name: 'sync-worker',
      holder,
      ttlMs: 500,
      now: () => now + offset,
    });
    const ahead = lease('ahead', hours);
    const onTime = lease('on-time', 0);
    const behind = lease('behind', -hours);
    const leases = stores.documents.collection<LeaseDoc>(LEASES_COLLECTION);

    // ahead takes the lease and dies: an expiry hours in the others' future does not keep them out
    expect(await tryHoldLease(stores.documents, ahead)).toBe(true);
    expect((await leases.get('sync-worker'))!.expiresAt).toBe(hours + 500);
    expect(await tryHoldLease(stores.documents, onTime)).toBe(false);
    now = 500;
    expect(await tryHoldLease(stores.documents, onTime)).toBe(true);

    // ahead wakes up: to its clock the lease ran out hours ago, but it is renewed, so it is not taken
    for (let t = 600; t <= 2_000; t += 100) {
      now = t;
      expect(await tryHoldLease(stores.documents, onTime)).toBe(true);
      expect(await tryHoldLease(stores.documents, ahead)).toBe(false);
      expect(await tryHoldLease(stores.documents, behind)).toBe(false);
    }
    expect(await leases.get('sync-worker')).toMatchObject({ holder: 'on-time' });

    // on-time dies; behind's clock reads hours before its expiry, yet 500 ms of it are enough
    now = 2_499;
    expect(await tryHoldLease(stores.documents, behind)).toBe(false);
    now = 2_500;
    expect(await tryHoldLease(stores.documents, behind)).toBe(true);
    expect(await tryHoldLease(stores.documents, ahead)).toBe(false);
  });

  it('moves the work of a dead holder whose clock ran hours ahead to a standby within the lease time', async () => {
    // the dead holder wrote an expiry three hours ahead of everybody else's clock, then never renewed
    const dead = {
      name: 'projection:x',
      holder: 'dead',
      ttlMs: 300,
      now: () => leaseClock() + 3 * 3_600_000,
    };
    expect(await tryHoldLease(stores.documents, dead)).toBe(true);
    let running = false;
    const standby = runWhileHoldingLease(
      stores.documents,
      { name: 'projection:x', holder: 'b', ttlMs: 300 },
      () => {
        running = true;
        return { stop: async () => void (running = false) };
      },
    );
    try {
      await until(() => running);
      expect(standby.holding()).toBe(true);
    } finally {
      await standby.stop();
    }
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
    // a lease far longer than the wait below: on a busy machine a stalled loop can outlive a short
    // lease, and then the holder stops at its own deadline (tested below) while the other takes
    // over: "still one" would be a bet on the machine; the hand-over needs no expiry anyway
    const options = (holder: string) => ({ name: 'projection:x', holder, ttlMs: 5_000, renewEveryMs: 50 });
    const a = runWhileHoldingLease(stores.documents, options('a'), work('a'));
    const b = runWhileHoldingLease(stores.documents, options('b'), work('b'));
    try {
      await until(() => running.size === 1);
      // several renewals later (seen in the lease document, not guessed from a sleep): still one
      await renewals(stores.documents, 'projection:x', 5);
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

  it('stops the work of a live holder whose renewal the store refuses: after that only the new holder writes', async () => {
    // the work of each holder writes to one shared log while it runs
    const log: string[] = [];
    const writer = (name: string) => (): StoppableWork => {
      const timer = setInterval(() => log.push(name), 5);
      return { stop: async () => clearInterval(timer) };
    };
    const changes: boolean[] = [];
    let aLease: HeldLease | null = null;
    const a = runWhileHoldingLease(
      stores.documents,
      {
        name: 'sync',
        holder: 'a',
        ttlMs: 60_000,
        renewEveryMs: 20,
        onChange: (holding) => changes.push(holding),
      },
      (lease) => {
        aLease = lease;
        return writer('a')();
      },
    );
    let intruder: NodeJS.Timeout | undefined;
    try {
      await until(() => log.includes('a'));
      // another process holds the lease now (it saw a's lease unchanged for a lease time: a's renewals
      // came late): a is alive and renewing, and the store refuses it
      const leases = stores.documents.collection<LeaseDoc>(LEASES_COLLECTION);
      const current = await leases.getWithRevision('sync');
      await leases.put(
        { id: 'sync', holder: 'b', expiresAt: leaseClock() + 60_000 },
        { expectedRevision: current!.revision },
      );
      // stopped on the refused renewal, long before its own deadline (a minute) could stop it
      await until(() => !a.holding());
      // and its lease no longer valid, though a minute has not passed since its last renewal
      expect(aLease!.valid()).toBe(false);
      expect(changes).toEqual([true, false]);
      // from here on b writes; a must not write once more while b writes many times
      const bStarts = log.length;
      intruder = setInterval(() => log.push('b'), 5);
      await until(() => log.slice(bStarts).filter((name) => name === 'b').length >= 50);
      expect(log.slice(bStarts)).not.toContain('a');
      expect(log.slice(0, bStarts).every((name) => name === 'a')).toBe(true);
    } finally {
      clearInterval(intruder);
      await a.stop();
    }
  }, 30_000);

  it('stops the work at the holder’s own deadline when a renewal hangs, and never says valid past it', async () => {
    const hang = { now: false };
    let running = false;
    let lease: HeldLease | null = null;
    const ttlMs = 600;
    const events: string[] = [];
    const work = runWhileHoldingLease(
      hangingStore(stores.documents, hang),
      {
        name: 'sync-worker',
        holder: 'a',
        ttlMs,
        renewEveryMs: 100,
        onError: (error) => events.push(`error: ${(error as Error).message}`),
      },
      (held) => {
        lease = held;
        running = true;
        return { stop: async () => void ((running = false), events.push('stopped')) };
      },
    );
    try {
      await until(() => running);
      expect(lease!.valid()).toBe(true);
      hang.now = true; // every renewal from here on waits for ever
      await until(() => !running);
      expect(lease!.valid()).toBe(false);
      // by its own deadline (last renewal sent + 540 ms), before the hung renewal gave up (sent later + 600 ms)
      await until(() => events.length >= 2);
      expect(events).toEqual(['stopped', `error: Lease renewal did not answer within ${ttlMs} ms`]);
    } finally {
      hang.now = false;
      await work.stop();
    }
  });

  it('reports a work that fails to stop at the deadline', async () => {
    const hang = { now: false };
    const errors: string[] = [];
    let running = false;
    const work = runWhileHoldingLease(
      hangingStore(stores.documents, hang),
      {
        name: 'sync-worker',
        holder: 'a',
        ttlMs: 300,
        renewEveryMs: 50,
        onError: (e) => errors.push((e as Error).message),
      },
      () => {
        running = true;
        return { stop: () => Promise.reject(new Error('the work could not stop')) };
      },
    );
    try {
      await until(() => running);
      hang.now = true;
      await until(() => errors.includes('the work could not stop'));
    } finally {
      hang.now = false;
      await work.stop();
    }
  });

  it('tells a holder woken from a pause that its lease ran out, before any timer has run', async () => {
    let monotonicNow = 0;
    let lease: HeldLease | null = null;
    const work = runWhileHoldingLease(
      stores.documents,
      { name: 'sync-worker', holder: 'a', ttlMs: 1_000, renewEveryMs: 60_000, monotonic: () => monotonicNow },
      (held) => {
        lease = held;
        return { stop: async () => undefined };
      },
    );
    try {
      await until(() => lease !== null);
      monotonicNow = 899; // within the lease time less its 100 ms margin
      expect(lease!.valid()).toBe(true);
      monotonicNow = 900; // the deadline itself is past it
      expect(lease!.valid()).toBe(false);
      monotonicNow = 12_000; // SIGSTOP for 12 s, then SIGCONT: the same instant, no timer run yet
      expect(lease!.valid()).toBe(false);
    } finally {
      await work.stop();
    }
  });

  it('begins the work again, from a clean state, when a renewal succeeds after the deadline passed', async () => {
    let pausedMs = 0; // a pause (SIGSTOP, a long GC) moves the monotonic clock, not the timers
    const begun: string[] = [];
    const work = runWhileHoldingLease(
      stores.documents,
      {
        name: 'sync-worker',
        holder: 'a',
        ttlMs: 60_000,
        renewEveryMs: 20,
        monotonic: () => performance.now() + pausedMs,
      },
      (lease) => {
        begun.push(`begun with ${lease.fence().token}`);
        return { stop: async () => void begun.push('stopped') };
      },
    );
    try {
      await until(() => begun.length === 1);
      await renewals(stores.documents, 'sync-worker', 5); // renewals in time change nothing
      expect(begun).toHaveLength(1);
      pausedMs = 120_000; // woken two lease times later: the next renewal still finds the lease ours
      await until(() => begun.length === 3);
      await renewals(stores.documents, 'sync-worker', 5);
      expect(begun).toEqual([begun[0], 'stopped', begun[0]]); // the same token: nobody took it meanwhile
    } finally {
      await work.stop();
    }
  });

  it('renews by default often enough that a standby never takes a live holder’s lease', async () => {
    const holder = runWhileHoldingLease(
      stores.documents,
      { name: 'alerts', holder: 'a', ttlMs: 1_500 },
      () => ({
        stop: async () => undefined,
      }),
    );
    await until(() => holder.holding());
    const standby = runWhileHoldingLease(
      stores.documents,
      { name: 'alerts', holder: 'b', ttlMs: 1_500, renewEveryMs: 50 },
      () => ({ stop: async () => undefined }),
    );
    try {
      await renewals(stores.documents, 'alerts', 5); // ~2.5 s: more than a lease time
      expect(standby.holding()).toBe(false);
      expect(holder.holding()).toBe(true);
    } finally {
      await standby.stop();
      await holder.stop();
    }
  });

  it('asks for a lease another holds no more often than its renewal period', async () => {
    let asks = 0;
    const counting = withCollectionMethods(stores.documents, (_, inner) => ({
      getWithRevision: (id) => (asks++, inner.getWithRevision(id)),
    }));
    const settings = { name: 'alerts', ttlMs: 600, renewEveryMs: 100 };
    const holder = runWhileHoldingLease(stores.documents, { ...settings, holder: 'a' }, () => ({
      stop: async () => undefined,
    }));
    await until(() => holder.holding());
    const standby = runWhileHoldingLease(counting, { ...settings, holder: 'b' }, () => ({
      stop: async () => undefined,
    }));
    try {
      await renewals(stores.documents, 'alerts', 10); // ~1 s of the holder renewing every 100 ms
      expect(standby.holding()).toBe(false);
      expect(asks).toBeLessThan(40); // ~10 at one a period; asking at once again would be hundreds
    } finally {
      await standby.stop();
      await holder.stop();
    }
  });

  it('keeps what a store error says: only a lost race is a refusal', async () => {
    const failing = withCollectionMethods(stores.documents, () => ({
      put: () => Promise.reject(new Error('disk I/O error')),
    }));
    await expect(attemptLease(failing, { name: 'sync', holder: 'a', ttlMs: 500 })).rejects.toThrow(
      'disk I/O error',
    );
  });

  it('gives up only its own lease: a holder that took it meanwhile keeps it', async () => {
    const a = { name: 'sync', holder: 'a', ttlMs: 500 };
    expect(await tryHoldLease(stores.documents, a)).toBe(true);
    const leases = stores.documents.collection<LeaseDoc>(LEASES_COLLECTION);
    // b takes the lease over between a's read and its write (a's read is served as it was)
    const racing = withCollectionMethods(stores.documents, (_, inner) => ({
      getWithRevision: async (id) => {
        const seen = await inner.getWithRevision(id);
        await leases.put(
          { id: 'sync', holder: 'b', expiresAt: 1, token: 9 },
          { expectedRevision: seen!.revision },
        );
        return seen;
      },
    }));
    await releaseLease(racing, a);
    expect(await leases.get('sync')).toEqual(
      expect.objectContaining({ holder: 'b', expiresAt: 1, token: 9 }),
    );
  });

  it('names a process by its host and pid, and tells two holders of one process apart', () => {
    const [one, two] = [processHolderId(), processHolderId()];
    expect(one.startsWith(`${os.hostname()}:${process.pid}:`)).toBe(true);
    expect(one).not.toBe(two);
  });

  it('lets a release the store fails say so: only a lost race is swallowed', async () => {
    const a = { name: 'sync', holder: 'a', ttlMs: 500 };
    expect(await tryHoldLease(stores.documents, a)).toBe(true);
    const failing = withCollectionMethods(stores.documents, () => ({
      put: () => Promise.reject(new Error('disk I/O error')),
    }));
    await expect(releaseLease(failing, a)).rejects.toThrow('disk I/O error');
  });

  it('leaves no timer behind once stopped, a renewal’s give-up timer included', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    const holder = runWhileHoldingLease(
      stores.documents,
      { name: 'timers', holder: 'a', ttlMs: 5_000, renewEveryMs: 50 },
      () => ({ stop: async () => undefined }),
    );
    await until(() => holder.holding());
    await renewals(stores.documents, 'timers', 3);
    await holder.stop();
    expect(timers()).toBe(before);
  });

  it('stops the work while renewals fail, and begins it again, with a real token, once one succeeds', async () => {
    const failing = { now: false };
    const errors: unknown[] = [];
    const store = withCollectionMethods(stores.documents, (_, inner) => ({
      getWithRevision: (id) =>
        failing.now ? Promise.reject(new Error('disk I/O error')) : inner.getWithRevision(id),
    }));
    const starts: { token: number; whileFailing: boolean }[] = [];
    const holder = runWhileHoldingLease(
      store,
      {
        name: 'failing',
        holder: 'a',
        ttlMs: 5_000,
        renewEveryMs: 50,
        onError: (error) => errors.push(error),
      },
      (lease) => {
        starts.push({ token: lease.fence().token, whileFailing: failing.now });
        return { stop: async () => undefined };
      },
    );
    try {
      await until(() => holder.holding());
      failing.now = true;
      await until(() => errors.length >= 3); // three renewals failed
      expect(holder.holding()).toBe(false);
      failing.now = false;
      await until(() => holder.holding());
      expect(starts.map((start) => start.whileFailing)).toEqual([false, false]);
      expect(starts.every((start) => start.token >= 1)).toBe(true);
    } finally {
      await holder.stop();
    }
  });

  it('reports a work that fails to start, and starts it at the next renewal', async () => {
    const errors: unknown[] = [];
    let attempts = 0;
    const holder = runWhileHoldingLease(
      stores.documents,
      {
        name: 'starting',
        holder: 'a',
        ttlMs: 5_000,
        renewEveryMs: 50,
        onError: (error) => errors.push(error),
      },
      () => {
        attempts += 1;
        if (attempts === 1) throw new Error('cannot start');
        return { stop: async () => undefined };
      },
    );
    try {
      await until(() => holder.holding());
      expect(errors).toEqual([expect.objectContaining({ message: 'cannot start' })]);
      expect(attempts).toBe(2);
    } finally {
      await holder.stop();
    }
  });

  it('asks for the lease no more once stopped, even when stopped during a renewal', async () => {
    let reads = 0;
    const held = { now: false, release: null as (() => void) | null };
    const store = withCollectionMethods(stores.documents, (_, inner) => ({
      getWithRevision: async (id) => {
        reads += 1;
        if (held.now) await new Promise<void>((resolve) => (held.release = resolve));
        return inner.getWithRevision(id);
      },
    }));
    const settings = { name: 'stopping', ttlMs: 5_000, renewEveryMs: 50 };
    const a = runWhileHoldingLease(store, { ...settings, holder: 'a' }, () => ({
      stop: async () => undefined,
    }));
    await until(() => a.holding());
    held.now = true;
    await until(() => held.release !== null); // a renewal is under way
    held.now = false;
    const stopping = a.stop();
    held.release!();
    await stopping;
    const readsWhenStopped = reads;
    // a later event than any ask a would still make: b takes the lease given up and renews it often
    const b = runWhileHoldingLease(stores.documents, { ...settings, holder: 'b' }, () => ({
      stop: async () => undefined,
    }));
    try {
      await until(() => b.holding());
      await renewals(stores.documents, 'stopping', 5);
      expect(reads).toBe(readsWhenStopped);
    } finally {
      await b.stop();
    }
  });

  it('never begins the work, nor arms its deadline, when stopped during its first renewal', async () => {
    const held = { release: null as (() => void) | null };
    const store = withCollectionMethods(stores.documents, (_, inner) => ({
      getWithRevision: async (id) => {
        if (held.release === null) await new Promise<void>((resolve) => (held.release = resolve));
        return inner.getWithRevision(id);
      },
    }));
    let starts = 0;
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    const a = runWhileHoldingLease(store, { name: 'first', holder: 'a', ttlMs: 5_000 }, () => {
      starts += 1;
      return { stop: async () => undefined };
    });
    await until(() => held.release !== null); // the first renewal is under way
    const stopping = a.stop();
    held.release!();
    await stopping;
    // nor leaves a deadline timer behind
    expect({ starts, holding: a.holding(), timers: timers() }).toEqual({
      starts: 0,
      holding: false,
      timers: before,
    });
  });

  it('keeps a tenth of the lease time off the holder’s deadline, at least 20 ms', () => {
    expect(holderMarginMs(15_000)).toBe(1_500);
    expect(holderMarginMs(1_000)).toBe(100);
    expect(holderMarginMs(100)).toBe(20);
  });
});

/** Waits until the lease `name` has been written `count` more times (renewals), whatever the clock. */
async function renewals(documents: DocumentStore, name: string, count: number): Promise<void> {
  const leases = documents.collection<LeaseDoc>(LEASES_COLLECTION);
  const first = (await leases.getWithRevision(name))!.revision;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const revision = (await leases.getWithRevision(name))?.revision ?? first;
    if (revision - first >= count) return;
    if (Date.now() > deadline) throw new Error(`lease ${name} renewed fewer than ${count} times in 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
