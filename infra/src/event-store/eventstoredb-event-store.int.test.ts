/**
 * EventStoreDB adapter: the contract suite runs against a real server when EVENTSTORE_URL is set
 * (npm run test:engines); the mapping rules are tested here in any case.
 */
import {
  ANY,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  type AllStreamResolvedEvent,
} from '@eventstore/db-client';
import { describeEventStoreContract } from './contract';
import {
  feedStreamPattern,
  fencedAppendDecision,
  fenceOfMetadata,
  fromCurrentRevision,
  openEventStoreDbEventStore,
  shutOutByFence,
  toExpectedRevision,
  toGlobalPosition,
  toReadPosition,
  toRecordedEvent,
} from './eventstoredb-event-store';

const url = process.env.EVENTSTORE_URL;
if (url) {
  jest.setTimeout(60_000);
  let run = 0;
  describeEventStoreContract(`EventStoreDB (${url.replace(/\/\/[^@]*@/, '//')})`, async () => {
    // A server cannot be wiped between tests: each test gets a namespace of its own.
    run += 1;
    const namespace = `contract-${process.pid}-${Date.now()}-${run}.`;
    return {
      open: async () =>
        openEventStoreDbEventStore({
          url,
          namespace,
          retry: { initialDelayMs: 10, maxDelayMs: 100 },
          onHandlerError: () => undefined,
        }),
      dispose: async () => undefined,
    };
  });
} else {
  describe('EventStore contract: EventStoreDB', () => {
    it.skip('SKIPPED: EVENTSTORE_URL is not set (no EventStoreDB server here)', () => undefined);
  });
}

describe('EventStoreDB mapping', () => {
  it('maps expected versions to the client stream states and bigint revisions', () => {
    expect(toExpectedRevision('any')).toBe(ANY);
    expect(toExpectedRevision('no_stream')).toBe(NO_STREAM);
    expect(toExpectedRevision('stream_exists')).toBe(STREAM_EXISTS);
    expect(toExpectedRevision(4)).toBe(4n);
    expect(toExpectedRevision(-1)).toBe(NO_STREAM);
    expect(() => toExpectedRevision(-2)).toThrow(/Invalid expected version/);
    expect(fromCurrentRevision(NO_STREAM)).toBe(-1);
    expect(fromCurrentRevision(7n)).toBe(7);
  });

  it('maps commit positions to safe numbers and back, refusing missing or oversized ones', () => {
    expect(toGlobalPosition(123_456n)).toBe(123_456);
    expect(() => toGlobalPosition(2n ** 53n)).toThrow(/safe integer range/);
    expect(() => toGlobalPosition(18446744073709551615n)).toThrow(/without a \$all position/);
    expect(toReadPosition(0)).toBe(START);
    expect(toReadPosition(99)).toEqual({ commit: 99n, prepare: 99n });
  });

  it('keeps the feed to the namespace, without system or checkpoint streams', () => {
    const pattern = new RegExp(feedStreamPattern('test.1.'));
    expect(pattern.test('test.1.client-7')).toBe(true);
    expect(pattern.test('test.10client-7')).toBe(false);
    expect(pattern.test('$metadata')).toBe(false);
    const everything = new RegExp(feedStreamPattern(''));
    expect(everything.test('quota-1')).toBe(true);
    expect(everything.test('rna-checkpoint-projector')).toBe(false);
    expect(everything.test('$$rna-checkpoint-projector')).toBe(false);
    expect(everything.test('rna-fence-sync-worker')).toBe(false);
  });

  describe('a lease holder’s append (the fence kept in each event’s metadata)', () => {
    const mine = { name: 'sync-worker', token: 4 };

    it('is refused on a stream whose last event a later holder of the same lease appended', () => {
      expect(
        fencedAppendDecision({ revision: 7, fence: { name: 'sync-worker', token: 5 } }, 'any', mine),
      ).toEqual({
        kind: 'fenced',
        seenToken: 5,
      });
      // whatever the caller expected: the fence is checked first
      expect(
        fencedAppendDecision({ revision: 7, fence: { name: 'sync-worker', token: 5 } }, 7, mine).kind,
      ).toBe('fenced');
    });

    it('appends at exactly the revision read, so that nothing can land between the check and the write', () => {
      expect(
        fencedAppendDecision({ revision: 7, fence: { name: 'sync-worker', token: 4 } }, 'any', mine),
      ).toEqual({
        kind: 'append',
        expectedRevision: 7,
      });
      expect(
        fencedAppendDecision({ revision: 2, fence: { name: 'sync-worker', token: 1 } }, 'any', mine),
      ).toEqual({
        kind: 'append',
        expectedRevision: 2,
      });
      // another lease's holder, or a writer without a lease, wrote last: not concerned
      expect(
        fencedAppendDecision({ revision: 3, fence: { name: 'bulk-runner', token: 9 } }, 'any', mine),
      ).toEqual({
        kind: 'append',
        expectedRevision: 3,
      });
      expect(fencedAppendDecision({ revision: 3 }, 'stream_exists', mine)).toEqual({
        kind: 'append',
        expectedRevision: 3,
      });
      expect(fencedAppendDecision(null, 'any', mine)).toEqual({
        kind: 'append',
        expectedRevision: 'no_stream',
      });
      expect(fencedAppendDecision(null, 'no_stream', mine)).toEqual({
        kind: 'append',
        expectedRevision: 'no_stream',
      });
    });

    it('keeps the caller’s own expected version', () => {
      expect(fencedAppendDecision({ revision: 3 }, 2, mine)).toEqual({ kind: 'conflict', actual: 3 });
      expect(fencedAppendDecision({ revision: 3 }, 3, mine)).toEqual({ kind: 'append', expectedRevision: 3 });
      expect(fencedAppendDecision({ revision: 0 }, 'no_stream', mine)).toEqual({
        kind: 'conflict',
        actual: 0,
      });
      expect(fencedAppendDecision(null, 'stream_exists', mine)).toEqual({ kind: 'conflict', actual: -1 });
      expect(fencedAppendDecision(null, 0, mine)).toEqual({ kind: 'conflict', actual: -1 });
    });

    it('reads the fence from the metadata and hands the caller its metadata without it', () => {
      expect(fenceOfMetadata({ $fence: { name: 'sync-worker', token: 3 }, correlationId: 'c' })).toEqual({
        name: 'sync-worker',
        token: 3,
      });
      expect(fenceOfMetadata({ correlationId: 'c' })).toBeUndefined();
      expect(fenceOfMetadata({ $fence: { name: 'sync-worker' } })).toBeUndefined();
      expect(fenceOfMetadata(undefined)).toBeUndefined();
      const resolved = {
        event: {
          streamId: 'client-1',
          revision: 0n,
          type: 'ClientActivated',
          data: {},
          metadata: { $fence: { name: 'sync-worker', token: 3 }, correlationId: 'c' },
          created: new Date('2024-05-06T07:08:09.000Z'),
          position: { commit: 10n, prepare: 10n },
        },
      } as unknown as AllStreamResolvedEvent;
      expect(toRecordedEvent(resolved, '')?.metadata).toEqual({ correlationId: 'c' });
    });
  });

  it('strips the namespace and converts revision, position and creation date', () => {
    const resolved = {
      event: {
        streamId: 'ns.client-1',
        id: 'x',
        revision: 2n,
        type: 'ClientActivated',
        data: { clientId: '1' },
        metadata: undefined,
        isJson: true,
        created: new Date('2024-05-06T07:08:09.000Z'),
        position: { commit: 5000n, prepare: 5000n },
      },
    } as unknown as AllStreamResolvedEvent;
    expect(toRecordedEvent(resolved, 'ns.')).toEqual({
      streamName: 'client-1',
      streamVersion: 2,
      globalPosition: 5000,
      type: 'ClientActivated',
      data: { clientId: '1' },
      metadata: {},
      createdAt: '2024-05-06T07:08:09.000Z',
    });
    expect(toRecordedEvent(resolved, 'other.')).toBeNull();
  });

  describe('the read side of the fence (an append that passed its checks, paused, and landed late)', () => {
    const sync = (token: number) => ({ name: 'sync-worker', token });
    const raises = [
      { token: 1, position: 10n },
      { token: 2, position: 40n },
      { token: 3, position: 80n },
    ];

    it('shuts out an event of a holder appended after a later holder of its lease raised the fence', () => {
      expect(shutOutByFence(sync(1), 50n, raises)).toBe(true);
      expect(shutOutByFence(sync(2), 90n, raises)).toBe(true);
      // before the later holder began, or by the holder in office: read
      expect(shutOutByFence(sync(2), 70n, raises)).toBe(false);
      expect(shutOutByFence(sync(1), 39n, raises)).toBe(false);
      expect(shutOutByFence(sync(3), 500n, raises)).toBe(false);
      // no fence, or a lease never raised: read
      expect(shutOutByFence(undefined, 500n, raises)).toBe(false);
      expect(shutOutByFence(sync(1), 500n, [])).toBe(false);
    });

    /** A store whose client answers reads from these streams (no server: reads only). */
    function storeReading(streams: Record<string, AllStreamResolvedEvent[]>) {
      const store = openEventStoreDbEventStore({ url: 'esdb://localhost:1?tls=false' });
      const client = (store as unknown as { client: Record<string, unknown> }).client;
      client.readStream = async function* (name: string) {
        if (!streams[name]) throw new StreamNotFoundError(undefined as never, name);
        yield* streams[name];
      };
      client.readAll = async function* () {
        const all = Object.values(streams)
          .flat()
          .sort((a, b) => Number(a.event!.position.commit - b.event!.position.commit));
        yield* all;
      };
      return store;
    }
    const event = (streamId: string, revision: number, commit: number, data: unknown, token?: number) =>
      ({
        event: {
          streamId,
          revision: BigInt(revision),
          type: 'E',
          data,
          metadata: token === undefined ? {} : { $fence: sync(token) },
          isJson: true,
          created: new Date(0),
          position: { commit: BigInt(commit), prepare: BigInt(commit) },
        },
      }) as unknown as AllStreamResolvedEvent;

    it('readStream and readAll leave out the late event, and the stream keeps its own version', async () => {
      const store = storeReading({
        'rna-fence-sync-worker': [
          event('rna-fence-sync-worker', 0, 10, { token: 1 }),
          event('rna-fence-sync-worker', 1, 40, { token: 2 }),
        ],
        'sync-run-1': [
          event('sync-run-1', 0, 20, { n: 'former, before' }, 1),
          event('sync-run-1', 1, 50, { n: 'former, late' }, 1),
          event('sync-run-1', 2, 60, { n: 'later' }, 2),
          event('sync-run-1', 3, 70, { n: 'unfenced' }),
        ],
      });
      const read = await store.readStream('sync-run-1');
      expect(read.events.map((e) => (e.data as { n: string }).n)).toEqual([
        'former, before',
        'later',
        'unfenced',
      ]);
      expect(read.currentVersion).toBe(3);
      const all = await store.readAll({ after: 0, maxCount: 2 });
      expect(all.map((e) => (e.data as { n: string }).n)).toEqual(['former, before', 'later']);
      await store.close();
    });
  });
});
