/**
 * The event store contract: every adapter (embedded SQLite, EventStoreDB, …) runs this suite unchanged.
 * Each test gets fresh storage from the factory; harness.open() opens further instances on it.
 */
import {
  eventually,
  settleAll,
  sleep,
  type ContractHarness,
  type HarnessFactory,
} from '../embedded/contract-helpers';
import { adaptersPerTest } from '../embedded/contract-lifecycle';
import { FencedError } from '../fencing';
import { ConcurrencyError, streamPages, type EventStore, type RecordedEvent } from './port';

export type EventStoreHarness = ContractHarness<EventStore>;

export function describeEventStoreContract(name: string, factory: HarnessFactory<EventStore>): void {
  describe(`EventStore contract: ${name}`, () => {
    const adapters = adaptersPerTest(factory);
    const open = adapters.open;
    let store: EventStore;
    beforeEach(() => {
      store = adapters.first();
    });

    const ev = (type: string, data: unknown = {}) => ({ type, data });

    describe('streams', () => {
      it('appends events and reads them back in order, versions from 0', async () => {
        const result = await store.appendToStream('client-1', [
          ev('ClientInvited', { clientId: '1', email: 'a@b.it' }),
          { type: 'ClientActivated', data: { clientId: '1' }, metadata: { correlationId: 'c-1' } },
        ]);
        expect(result.nextExpectedVersion).toBe(1);

        const read = await store.readStream('client-1');
        expect(read.currentVersion).toBe(1);
        expect(read.events.map((e) => [e.streamName, e.streamVersion, e.type])).toEqual([
          ['client-1', 0, 'ClientInvited'],
          ['client-1', 1, 'ClientActivated'],
        ]);
        expect(read.events[0]?.data).toEqual({ clientId: '1', email: 'a@b.it' });
        expect(read.events[1]?.metadata).toEqual({ correlationId: 'c-1' });
        expect(read.events[0]?.metadata).toEqual({});
        expect(Number.isNaN(Date.parse(read.events[0]?.createdAt ?? ''))).toBe(false);
        expect(result.lastGlobalPosition).toBe(read.events[1]?.globalPosition);
      });

      it('reports a missing stream as version -1 with no events', async () => {
        await expect(store.readStream('client-none')).resolves.toEqual({ currentVersion: -1, events: [] });
      });

      it('reads a stream from a given version', async () => {
        await store.appendToStream('s', [ev('A'), ev('B'), ev('C')]);
        const read = await store.readStream('s', { fromVersion: 1 });
        expect(read.currentVersion).toBe(2);
        expect(read.events.map((e) => e.type)).toEqual(['B', 'C']);
      });

      it('reads a stream in pages of at most maxCount, each knowing the current version', async () => {
        await store.appendToStream(
          'paged',
          ['A', 'B', 'C', 'D', 'E'].map((type) => ev(type)),
        );
        const page = await store.readStream('paged', { fromVersion: 1, maxCount: 2 });
        expect(page.currentVersion).toBe(4);
        expect(page.events.map((e) => e.type)).toEqual(['B', 'C']);
        expect((await store.readStream('paged', { fromVersion: 4, maxCount: 2 })).events).toHaveLength(1);
        expect(await store.readStream('paged', { fromVersion: 5, maxCount: 2 })).toEqual({
          currentVersion: 4,
          events: [],
        });
        const pages: string[][] = [];
        for await (const events of streamPages(store, 'paged', { pageSize: 2 })) {
          pages.push(events.map((e) => e.type));
        }
        expect(pages).toEqual([['A', 'B'], ['C', 'D'], ['E']]);
      });

      it('keeps streams apart', async () => {
        await store.appendToStream('a', [ev('A1')]);
        await store.appendToStream('b', [ev('B1'), ev('B2')]);
        await store.appendToStream('a', [ev('A2')]);
        expect((await store.readStream('a')).events.map((e) => e.type)).toEqual(['A1', 'A2']);
        expect((await store.readStream('b')).events.map((e) => e.streamVersion)).toEqual([0, 1]);
      });
    });

    describe('expected version', () => {
      async function expectConflict(promise: Promise<unknown>, actual: number) {
        const error: unknown = await promise.then(
          () => null,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ConcurrencyError);
        expect(error).toMatchObject({ code: 'EVENT_STORE_CONCURRENCY', actual });
      }

      it("'no_stream' succeeds only on a new stream", async () => {
        await store.appendToStream('s', [ev('A')], { expectedVersion: 'no_stream' });
        await expectConflict(store.appendToStream('s', [ev('B')], { expectedVersion: 'no_stream' }), 0);
      });

      it('version -1, the version read of a missing stream, is a stream that does not exist', async () => {
        await store.appendToStream('s', [ev('A')], { expectedVersion: -1 });
        await expectConflict(store.appendToStream('s', [ev('B')], { expectedVersion: -1 }), 0);
      });

      it("'stream_exists' fails on a new stream and succeeds afterwards", async () => {
        await expectConflict(store.appendToStream('s', [ev('A')], { expectedVersion: 'stream_exists' }), -1);
        await store.appendToStream('s', [ev('A')]);
        await expect(
          store.appendToStream('s', [ev('B')], { expectedVersion: 'stream_exists' }),
        ).resolves.toMatchObject({ nextExpectedVersion: 1 });
      });

      it('an exact version must equal the current one', async () => {
        await store.appendToStream('s', [ev('A'), ev('B')]);
        await expectConflict(store.appendToStream('s', [ev('C')], { expectedVersion: 0 }), 1);
        await expectConflict(store.appendToStream('s', [ev('C')], { expectedVersion: 2 }), 1);
        await expect(store.appendToStream('s', [ev('C')], { expectedVersion: 1 })).resolves.toMatchObject({
          nextExpectedVersion: 2,
        });
      });

      it("'any' never conflicts", async () => {
        await store.appendToStream('s', [ev('A')], { expectedVersion: 'any' });
        await store.appendToStream('s', [ev('B')], { expectedVersion: 'any' });
        expect((await store.readStream('s')).currentVersion).toBe(1);
      });

      it('a rejected append writes nothing', async () => {
        await store.appendToStream('s', [ev('A')]);
        await expect(store.appendToStream('s', [ev('X'), ev('Y')], { expectedVersion: 5 })).rejects.toThrow(
          ConcurrencyError,
        );
        expect((await store.readStream('s')).events.map((e) => e.type)).toEqual(['A']);
        expect(await store.readAll({ after: 0, maxCount: 100 })).toHaveLength(1);
      });
    });

    describe('race', () => {
      it('two concurrent appends with the same expected version: exactly one wins', async () => {
        await store.appendToStream('quota-1', [ev('SearchAllowanceGranted')]);
        const { fulfilled, rejected } = await settleAll([
          store.appendToStream('quota-1', [ev('SearchPerformed', { by: 'first' })], { expectedVersion: 0 }),
          store.appendToStream('quota-1', [ev('SearchPerformed', { by: 'second' })], { expectedVersion: 0 }),
        ]);
        expect(fulfilled).toHaveLength(1);
        expect(rejected).toHaveLength(1);
        expect(rejected[0]?.reason).toMatchObject({ code: 'EVENT_STORE_CONCURRENCY' });
        const read = await store.readStream('quota-1');
        expect(read.events.map((e) => e.type)).toEqual(['SearchAllowanceGranted', 'SearchPerformed']);
      });

      it('the same race across two adapter instances on the same storage', async () => {
        const other = await open();
        const results = await settleAll(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? store : other).appendToStream('quota-2', [ev('SearchPerformed', { i })], {
              expectedVersion: 'no_stream',
            }),
          ),
        );
        expect(results.fulfilled).toHaveLength(1);
        expect(results.rejected).toHaveLength(9);
        expect((await other.readStream('quota-2')).events).toHaveLength(1);
      });
    });

    describe('global feed', () => {
      it('reads all events after a position, in order, in batches', async () => {
        await store.appendToStream('a', [ev('1'), ev('2')]);
        await store.appendToStream('b', [ev('3')]);
        await store.appendToStream('a', [ev('4'), ev('5')]);

        const all = await store.readAll({ after: 0, maxCount: 100 });
        expect(all.map((e) => e.type)).toEqual(['1', '2', '3', '4', '5']);
        expect(all[0]?.globalPosition).toBeGreaterThanOrEqual(1);
        for (let i = 1; i < all.length; i++) {
          expect(all[i]!.globalPosition).toBeGreaterThan(all[i - 1]!.globalPosition);
        }

        const batches: string[][] = [];
        let after = 0;
        for (;;) {
          const batch = await store.readAll({ after, maxCount: 2 });
          if (batch.length === 0) break;
          batches.push(batch.map((e) => e.type));
          after = batch[batch.length - 1]!.globalPosition;
        }
        expect(batches).toEqual([['1', '2'], ['3', '4'], ['5']]);
      });

      it('stores and reads checkpoints (0 when unknown)', async () => {
        expect(await store.getCheckpoint('projector-clients')).toBe(0);
        await store.storeCheckpoint('projector-clients', 42);
        await store.storeCheckpoint('projector-clients', 43);
        expect(await store.getCheckpoint('projector-clients')).toBe(43);
        expect(await store.getCheckpoint('projector-other')).toBe(0);
      });

      it('never moves a checkpoint backwards, unless reset on purpose', async () => {
        await store.storeCheckpoint('projector-late', 50);
        await store.storeCheckpoint('projector-late', 20); // a late or second writer
        expect(await store.getCheckpoint('projector-late')).toBe(50);
        await store.storeCheckpoint('projector-late', 0, { reset: true }); // a rebuild
        expect(await store.getCheckpoint('projector-late')).toBe(0);
      });
    });

    it('refuses a former lease holder’s checkpoint once a later holder stored one, even one that does not move it', async () => {
      const other = await open();
      const holder = (token: number) => ({ fence: { name: 'projection:clients', token } });
      await store.storeCheckpoint('projection:clients', 10, holder(1));
      await other.storeCheckpoint('projection:clients', 10, holder(2)); // the later holder, not moved yet
      await expect(store.storeCheckpoint('projection:clients', 30, holder(1))).rejects.toBeInstanceOf(
        FencedError,
      );
      expect(await other.getCheckpoint('projection:clients')).toBe(10);
      await other.storeCheckpoint('projection:clients', 20, holder(2));
      expect(await store.getCheckpoint('projection:clients')).toBe(20);
      // another subscriber's checkpoint, or one without a fence (a rebuild's reset), is not concerned
      await store.storeCheckpoint('projection:users', 5, { fence: { name: 'projection:users', token: 1 } });
      await store.storeCheckpoint('projection:clients', 0, { reset: true });
      expect(await other.getCheckpoint('projection:clients')).toBe(0);
    });

    describe('a lease holder’s appends (fencing)', () => {
      const holder = (token: number) => ({ fence: { name: 'sync-worker', token } });

      it('refuses a former holder’s append once a later holder has raised the lease’s fence, on any stream', async () => {
        const later = await open();
        await store.appendToStream('sync-run-1', [ev('SyncStarted')], holder(1));
        await later.appendToStream('sync-run-1', [], holder(2)); // taking the lease: nothing written yet
        await expect(
          store.appendToStream('sync-run-1', [ev('SyncCompleted')], holder(1)),
        ).rejects.toBeInstanceOf(FencedError);
        await expect(
          store.appendToStream('register-file-7', [ev('Imported')], holder(1)),
        ).rejects.toBeInstanceOf(FencedError);
        expect((await later.readStream('sync-run-1')).events.map((e) => e.type)).toEqual(['SyncStarted']);
        expect((await later.readStream('register-file-7')).currentVersion).toBe(-1);
      });

      it('never lets a former holder’s event land after a later holder’s on a stream', async () => {
        const later = await open();
        await later.appendToStream('sync-run-2', [ev('FileImported', { by: 2 })], holder(2));
        await expect(
          store.appendToStream('sync-run-2', [ev('FileImported', { by: 1 })], {
            ...holder(1),
            expectedVersion: 0,
          }),
        ).rejects.toBeInstanceOf(FencedError);
        const read = await store.readStream('sync-run-2');
        expect(read.events.map((e) => e.data)).toEqual([{ by: 2 }]);
      });

      it('lets the holder go on writing, with its metadata as given, and leaves other leases alone', async () => {
        await store.appendToStream(
          'sync-run-3',
          [{ type: 'A', data: {}, metadata: { correlationId: 'c-3' } }],
          holder(3),
        );
        await store.appendToStream('sync-run-3', [ev('B')], { ...holder(3), expectedVersion: 0 });
        await store.appendToStream('bulk-job-1', [ev('C')], { fence: { name: 'bulk-runner', token: 1 } });
        const read = await store.readStream('sync-run-3');
        expect(read.events.map((e) => [e.type, e.metadata])).toEqual([
          ['A', { correlationId: 'c-3' }],
          ['B', {}],
        ]);
        // an exact expected version still conflicts as without a fence
        await expect(
          store.appendToStream('sync-run-3', [ev('D')], { ...holder(3), expectedVersion: 0 }),
        ).rejects.toBeInstanceOf(ConcurrencyError);
      });
    });

    describe('restart', () => {
      it('close and reopen: nothing lost, nothing duplicated, positions keep growing', async () => {
        await store.appendToStream('client-1', [ev('A'), ev('B')]);
        await store.appendToStream('client-2', [ev('C')]);
        await store.storeCheckpoint('sub', 2);
        const before = await store.readAll({ after: 0, maxCount: 100 });
        await store.close();

        const reopened = await open();
        expect(await reopened.readAll({ after: 0, maxCount: 100 })).toEqual(before);
        expect(await reopened.getCheckpoint('sub')).toBe(2);
        await expect(
          reopened.appendToStream('client-1', [ev('D')], { expectedVersion: 1 }),
        ).resolves.toMatchObject({ nextExpectedVersion: 2 });
        const after = await reopened.readAll({ after: 0, maxCount: 100 });
        expect(after.map((e) => e.type)).toEqual(['A', 'B', 'C', 'D']);
        expect(after[3]!.globalPosition).toBeGreaterThan(before[2]!.globalPosition);
      });
    });

    describe('subscribeToAll', () => {
      function collector() {
        const seen: RecordedEvent[] = [];
        const batches: number[] = [];
        return {
          seen,
          batches,
          handler: async (events: RecordedEvent[]) => {
            batches.push(events.length);
            seen.push(...events);
          },
        };
      }

      it('catches up with past events, then delivers new ones live, checkpointing as it goes', async () => {
        await store.appendToStream('a', [ev('1'), ev('2'), ev('3')]);
        const c = collector();
        const sub = store.subscribeToAll({ subscriberId: 'p1', handler: c.handler, batchSize: 2 });
        await sub.caughtUp();
        expect(c.seen.map((e) => e.type)).toEqual(['1', '2', '3']);
        expect(Math.max(...c.batches)).toBeLessThanOrEqual(2);

        const appended = await store.appendToStream('b', [ev('4')]);
        await sub.caughtUp();
        expect(c.seen.map((e) => e.type)).toEqual(['1', '2', '3', '4']);
        await eventually(
          'checkpoint stored',
          async () => (await store.getCheckpoint('p1')) === appended.lastGlobalPosition,
        );
        await sub.stop();
      });

      it('a subscription with a fence stores its checkpoints with it: a former holder’s stops moving', async () => {
        await store.appendToStream('a', [ev('1'), ev('2')]);
        const later = await open();
        await later.storeCheckpoint('fenced', 0, { fence: { name: 'fenced', token: 2 } });
        const seen = collector();
        const sub = store.subscribeToAll({
          subscriberId: 'fenced',
          handler: seen.handler,
          fence: { name: 'fenced', token: 1 },
        });
        await eventually('the events handed over', async () => seen.seen.length === 2);
        await sub.stop().catch(() => undefined);
        expect(await later.getCheckpoint('fenced')).toBe(0);
      });

      it('never calls the handler before subscribeToAll has returned', async () => {
        await store.appendToStream('a', [ev('1')]);
        let returned = false;
        let calledEarly = false;
        const sub = store.subscribeToAll({
          subscriberId: 'early',
          handler: async () => void (calledEarly ||= !returned),
        });
        returned = true;
        await sub.caughtUp();
        expect(calledEarly).toBe(false);
        await sub.stop();
      });

      it('caughtUp resolves at once on an empty store', async () => {
        const sub = store.subscribeToAll({ subscriberId: 'p0', handler: async () => undefined });
        await sub.caughtUp();
        await sub.stop();
      });

      it('resumes after its checkpoint when subscribing again after a restart', async () => {
        await store.appendToStream('a', [ev('1'), ev('2')]);
        const first = collector();
        const sub = store.subscribeToAll({ subscriberId: 'p2', handler: first.handler });
        await sub.caughtUp();
        await sub.stop();
        await store.close();

        const reopened = await open();
        await reopened.appendToStream('a', [ev('3')]);
        const second = collector();
        const again = reopened.subscribeToAll({ subscriberId: 'p2', handler: second.handler });
        await again.caughtUp();
        expect(first.seen.map((e) => e.type)).toEqual(['1', '2']);
        expect(second.seen.map((e) => e.type)).toEqual(['3']);
        await again.stop();
      });

      it('retries a failing batch without losing or reordering events', async () => {
        await store.appendToStream('a', [ev('1'), ev('2'), ev('3')]);
        const seen: string[] = [];
        let failures = 0;
        const sub = store.subscribeToAll({
          subscriberId: 'flaky',
          batchSize: 10,
          handler: async (events) => {
            if (events.some((e) => e.type === '2') && failures < 2) {
              failures += 1;
              throw new Error('projection temporarily unavailable');
            }
            seen.push(...events.map((e) => e.type));
          },
        });
        await sub.caughtUp();
        expect(failures).toBe(2);
        expect(seen).toEqual(['1', '2', '3']);
        expect(await store.getCheckpoint('flaky')).toBeGreaterThan(0);
        await sub.stop();
      });

      it('sees appends made through another instance on the same storage', async () => {
        const other = await open();
        const c = collector();
        const sub = store.subscribeToAll({ subscriberId: 'p3', handler: c.handler });
        await sub.caughtUp();
        await other.appendToStream('elsewhere', [ev('X'), ev('Y')]);
        await eventually('live delivery from the other instance', () => c.seen.length === 2);
        expect(c.seen.map((e) => e.type)).toEqual(['X', 'Y']);
        await sub.stop();
      });

      it('independent subscribers each get every event', async () => {
        const a = collector();
        const b = collector();
        const subA = store.subscribeToAll({ subscriberId: 'A', handler: a.handler });
        const subB = store.subscribeToAll({ subscriberId: 'B', handler: b.handler, batchSize: 1 });
        await store.appendToStream('s', [ev('1'), ev('2')]);
        await Promise.all([subA.caughtUp(), subB.caughtUp()]);
        expect(a.seen.map((e) => e.type)).toEqual(['1', '2']);
        expect(b.seen.map((e) => e.type)).toEqual(['1', '2']);
        await Promise.all([subA.stop(), subB.stop()]);
      });

      it('delivers nothing after stop', async () => {
        const c = collector();
        const sub = store.subscribeToAll({ subscriberId: 'p4', handler: c.handler });
        await sub.caughtUp();
        await sub.stop();
        await store.appendToStream('s', [ev('late')]);
        await sleep(300);
        expect(c.seen).toHaveLength(0);
      });
    });
  });
}
