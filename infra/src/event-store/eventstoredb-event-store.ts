/**
 * Event store on EventStoreDB (@eventstore/db-client, gRPC).
 *
 * Global position mapping: globalPosition = the event's $all COMMIT position (a byte offset in the
 * server's transaction log, a u64). It is converted to a JS number only when it is a safe integer
 * (< 2^53, i.e. a log of 8 PiB); beyond that the adapter throws rather than lose precision. Checkpoints
 * given back (readAll `after`, stored checkpoints) are turned into a Position with prepare = commit,
 * which is exact for ordinary appends (one prepare per event, commit = prepare) and only used as a
 * lower bound: events at or before `after` are skipped client side, so a rounding never re-delivers.
 * Stream reads must carry the position: servers that answer stream reads without it (older ones send
 * u64::MAX) are rejected with a clear error instead of inventing an order.
 *
 * Namespacing: every stream is stored as `${namespace}${stream}`, so test runs and environments can
 * share a server; checkpoints live in `rna-checkpoint-${namespace}${subscriber}` (max count 1) and are
 * filtered out of the global feed, as are system streams ($…).
 */
import {
  ANY,
  END,
  EventStoreDBClient,
  FORWARDS,
  BACKWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  streamNameFilter,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  type CurrentRevision,
  type JSONType,
  type Position,
  type ReadPosition,
} from '@eventstore/db-client';
import {
  backoffDelay,
  CatchUpWaiters,
  defaultRetryPolicy,
  errorMessage,
  type RetryPolicy,
} from '../embedded/polling';
import {
  ConcurrencyError,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type EventsHandler,
  type EventShape,
  type EventToAppend,
  type ExpectedVersion,
  type ReadStreamResult,
  type RecordedEvent,
  type Subscription,
} from './port';
import { adapterLogger, logRetriedHandler } from '../logging';
import { assertFence, FencedError, type Fence } from '../fencing';

const adapterLog = adapterLogger('event-store');

export interface EventStoreDbOptions {
  /** esdb:// connection string. */
  url: string;
  namespace?: string;
  /** Back-off between attempts of a failing handler, and before resubscribing after a dropped connection. */
  retry?: RetryPolicy;
  onHandlerError?: (info: {
    subscriberId: string;
    attempt: number;
    retryInMs: number;
    error: unknown;
  }) => void;
  onSubscriptionDropped?: (info: {
    subscriberId: string;
    attempt: number;
    retryInMs: number;
    error: unknown;
  }) => void;
}

const CHECKPOINT_PREFIX = 'rna-checkpoint-';
/** Each lease's highest fencing token, one stream a lease (max count 1), out of the feed too. */
const FENCE_PREFIX = 'rna-fence-';
/** The key of an event's metadata that names the lease holder that appended it (taken off on reads). */
const FENCE_KEY = '$fence';
/** Compare-and-set attempts at a fenced append or a fence before the conflict is thrown. */
const FENCED_APPEND_ATTEMPTS = 5;
/** Compare-and-set attempts at a checkpoint before the conflict is thrown (another writer keeps moving it). */
const CHECKPOINT_ATTEMPTS = 5;

interface StoredCheckpoint {
  position: number;
  /** the revision of the checkpoint stream's last event; null before the first */
  revision: bigint | null;
  /** the fence of the lease holder that stored it, if one did */
  fence?: Fence;
}
/** The u64::MAX the server sends when it has no position for an event. */
const NO_POSITION = 18446744073709551615n;

export function toExpectedRevision(expected: ExpectedVersion): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  // what readStream reports for a missing stream, as the embedded store reads it: no stream yet
  if (expected === -1) return NO_STREAM;
  if (!Number.isSafeInteger(expected) || expected < 0)
    throw new Error(`Invalid expected version ${expected}`);
  return BigInt(expected);
}

export function fromCurrentRevision(actual: CurrentRevision | undefined): number {
  return actual === undefined || actual === NO_STREAM ? -1 : Number(actual);
}

export function toGlobalPosition(commit: bigint): number {
  if (commit === NO_POSITION || commit < 0n) {
    throw new Error(
      'EventStoreDB returned an event without a $all position (server too old for stream reads with positions)',
    );
  }
  if (commit > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new Error(
      `EventStoreDB commit position ${commit} exceeds the safe integer range of global positions`,
    );
  }
  return Number(commit);
}

export function toReadPosition(globalPosition: number): ReadPosition {
  if (globalPosition <= 0) return START;
  const position: Position = { commit: BigInt(globalPosition), prepare: BigInt(globalPosition) };
  return position;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Streams of this namespace, without system streams and checkpoint streams (.NET and JS regex alike). */
export function feedStreamPattern(namespace: string): string {
  return `^(?!\\$|${CHECKPOINT_PREFIX}|${FENCE_PREFIX})${escapeRegex(namespace)}`;
}

/** The fence an event was appended with (metadata written by a fenced append), if any. */
export function fenceOfMetadata(metadata: unknown): Fence | undefined {
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const fence = (metadata as Record<string, unknown>)[FENCE_KEY] as Partial<Fence> | undefined;
  return typeof fence?.name === 'string' && typeof fence.token === 'number'
    ? { name: fence.name, token: fence.token }
    : undefined;
}

/** The caller's metadata, without the fence the adapter keeps in it. */
function callerMetadata(metadata: unknown): Record<string, unknown> {
  if (typeof metadata !== 'object' || metadata === null) return {};
  const { [FENCE_KEY]: _fence, ...rest } = metadata as Record<string, unknown>;
  return rest;
}

/**
 * How a lease holder's append to one stream goes, given the stream's last event as read just before:
 * refused when that event was appended by a later holder of the same lease; otherwise appended at
 * exactly the revision read (a compare-and-set), so that no later holder's event can land between
 * this check and the write. The caller's own expected version still applies: a number or `no_stream`
 * that does not match what was read is the caller's conflict, `stream_exists` with no stream too.
 */
export function fencedAppendDecision(
  last: { revision: number; fence?: Fence } | null,
  expected: ExpectedVersion,
  fence: Fence,
):
  | { kind: 'fenced'; seenToken: number }
  | { kind: 'conflict'; actual: number }
  | { kind: 'append'; expectedRevision: number | 'no_stream' } {
  const actual = last?.revision ?? -1;
  if (last?.fence && last.fence.name === fence.name && last.fence.token > fence.token)
    return { kind: 'fenced', seenToken: last.fence.token };
  const matches =
    expected === 'any' ||
    (expected === 'stream_exists' && actual >= 0) ||
    (expected === 'no_stream' && actual === -1) ||
    expected === actual;
  if (!matches) return { kind: 'conflict', actual };
  return { kind: 'append', expectedRevision: actual === -1 ? 'no_stream' : actual };
}

/** A change of a lease's holder as its fence stream keeps it: the token and where in $all it was raised. */
export interface FenceRaise {
  token: number;
  position: bigint;
}

/**
 * The read-side half of the fence, for the one window the append's checks leave open (an append past
 * its checks when the lease changed hands, then paused, landing on a stream the later holder has not
 * written to): an event appended by a holder of a lease at a $all position after a later holder of the
 * same lease raised the fence was written after that holder began, and no reader takes it. An event
 * without a fence, or one that landed before the raise, stands.
 */
export function shutOutByFence(
  fence: Fence | undefined,
  position: bigint,
  raises: readonly FenceRaise[],
): boolean {
  if (!fence) return false;
  return raises.some((raise) => raise.token > fence.token && raise.position < position);
}

export function toRecordedEvent(resolved: AllStreamResolvedEvent, namespace: string): RecordedEvent | null {
  const event = resolved.event;
  if (!event || !event.streamId.startsWith(namespace)) return null;
  const position = event.position;
  if (!position) throw new Error('EventStoreDB returned an event without a $all position');
  return {
    streamName: event.streamId.slice(namespace.length),
    streamVersion: Number(event.revision),
    globalPosition: toGlobalPosition(position.commit),
    type: event.type,
    data: event.data as unknown,
    metadata: callerMetadata(event.metadata),
    createdAt: event.created.toISOString(),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class EventStoreDbEventStore implements EventStore {
  private readonly client: EventStoreDBClient;
  private readonly namespace: string;
  private readonly feedPattern: RegExp;
  private readonly subscriptions = new Set<EsdbSubscription>();
  /** What this process stored last of each subscriber's checkpoint (see storeCheckpoint). */
  private readonly checkpoints = new Map<string, StoredCheckpoint>();

  constructor(private readonly options: EventStoreDbOptions) {
    this.client = EventStoreDBClient.connectionString(options.url);
    this.namespace = options.namespace ?? '';
    this.feedPattern = new RegExp(feedStreamPattern(this.namespace));
  }

  async appendToStream(
    stream: string,
    events: EventToAppend[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const expected = options.expectedVersion ?? 'any';
    if (options.fence) return this.fencedAppend(stream, events, expected, options.fence);
    // nothing to write
    if (events.length === 0 && expected === 'any')
      return {
        nextExpectedVersion: await this.currentVersion(this.namespace + stream),
        lastGlobalPosition: 0,
      };
    try {
      return await this.write(this.namespace + stream, events, expected);
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) {
        throw new ConcurrencyError(stream, expected, fromCurrentRevision(error.actualVersion));
      }
      throw error;
    }
  }

  /**
   * A lease holder's append. EventStoreDB before 25.x writes one stream atomically, never two, so the
   * fence is checked twice: the lease's fence stream (raised to this token, or the append refused when
   * a later holder raised it), then the target stream's last event, whose metadata names the holder
   * that appended it, with the append expecting that event's revision. What is guaranteed: once a
   * later holder has appended to a stream, no former holder's event lands after it there; once it has
   * raised the lease's fence (it does so when it takes the lease, before anything else), a former
   * holder's append that starts after that is refused. The two checks are not one transaction: an
   * append whose checks passed just before the later holder took over, then paused, still lands on a
   * stream the later holder has not written to yet — but after the later holder's raise in $all, so no
   * reader takes it (shutOutByFence, in readStream, readAll and the subscriptions).
   */
  private async fencedAppend(
    stream: string,
    events: EventToAppend[],
    expected: ExpectedVersion,
    fence: Fence,
  ): Promise<AppendResult> {
    assertFence(fence);
    await this.raiseFence(fence);
    const name = this.namespace + stream;
    for (let attempt = 1; ; attempt++) {
      const decision = fencedAppendDecision(await this.lastEvent(name), expected, fence);
      if (decision.kind === 'fenced') throw new FencedError(fence, decision.seenToken);
      if (decision.kind === 'conflict') throw new ConcurrencyError(stream, expected, decision.actual);
      if (events.length === 0)
        return {
          nextExpectedVersion: decision.expectedRevision === 'no_stream' ? -1 : decision.expectedRevision,
          lastGlobalPosition: 0,
        };
      try {
        return await this.write(name, events, decision.expectedRevision, fence);
      } catch (error) {
        // another writer appended between the read and the write: read again (and be refused if it
        // was a later holder), unless the caller asked for an exact version, which is now stale
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        const exact = typeof expected === 'number' || expected === 'no_stream';
        if (exact || attempt >= FENCED_APPEND_ATTEMPTS)
          throw new ConcurrencyError(stream, expected, fromCurrentRevision(error.actualVersion));
      }
    }
  }

  /** One append of the events as JSON; a holder's fence goes into each event's metadata. */
  private async write(
    name: string,
    events: EventToAppend[],
    expected: ExpectedVersion,
    fence?: Fence,
  ): Promise<AppendResult> {
    const result = await this.client.appendToStream(
      name,
      events.map((event) =>
        jsonEvent({
          type: event.type,
          data: event.data as JSONType,
          metadata: (fence ? { ...event.metadata, [FENCE_KEY]: fence } : (event.metadata ?? {})) as JSONType,
        }),
      ),
      { expectedRevision: toExpectedRevision(expected) },
    );
    if (!result.position) throw new Error('EventStoreDB did not report the position of the append');
    // The append reports the commit position of its last event.
    return {
      nextExpectedVersion: Number(result.nextExpectedRevision),
      lastGlobalPosition: toGlobalPosition(result.position.commit),
    };
  }

  /** Raises the lease's fence stream to this token (compare-and-set), or refuses a lower token. */
  private async raiseFence(fence: Fence): Promise<void> {
    const stream = `${FENCE_PREFIX}${this.namespace}${fence.name}`;
    for (let attempt = 1; ; attempt++) {
      const last = await this.lastEvent(stream);
      const seen = (last?.data as { token?: unknown } | undefined)?.token;
      const seenToken = typeof seen === 'number' ? seen : 0;
      if (seenToken > fence.token) throw new FencedError(fence, seenToken);
      if (seenToken === fence.token) return;
      try {
        // every raise is kept (one event a change of holder): readers compare positions with them
        await this.client.appendToStream(
          stream,
          jsonEvent({ type: 'FenceRaised', data: { token: fence.token } }),
          { expectedRevision: last ? BigInt(last.revision) : NO_STREAM },
        );
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= FENCED_APPEND_ATTEMPTS) throw error;
      }
    }
  }

  /** A stream's last event: its revision, data and the fence it was appended with (null: no stream). */
  private async lastEvent(name: string): Promise<{ revision: number; data: unknown; fence?: Fence } | null> {
    try {
      for await (const resolved of this.client.readStream(name, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
      })) {
        if (resolved.event)
          return {
            revision: Number(resolved.event.revision),
            data: resolved.event.data,
            fence: fenceOfMetadata(resolved.event.metadata),
          };
      }
      return null;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
  }

  /** The raises of a lease's fence, oldest first (none: the lease never had a fenced holder). */
  private async fenceRaises(lease: string): Promise<FenceRaise[]> {
    const raises: FenceRaise[] = [];
    try {
      for await (const resolved of this.client.readStream(`${FENCE_PREFIX}${this.namespace}${lease}`, {
        direction: FORWARDS,
        fromRevision: START,
      })) {
        const token = (resolved.event?.data as { token?: unknown } | undefined)?.token;
        const position = resolved.event?.position?.commit;
        if (typeof token === 'number' && position !== undefined) raises.push({ token, position });
      }
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    return raises;
  }

  /**
   * The events read, without those a former holder appended after a later holder of its lease began
   * (shutOutByFence). The raises are read after the events, so they include every raise that came
   * before any of them; one read per lease among the events' fences, none when no event has one.
   */
  async withoutShutOut<R>(read: { recorded: R; resolved: AllStreamResolvedEvent }[]): Promise<R[]> {
    const fenced = read.map(({ resolved }) => fenceOfMetadata(resolved.event?.metadata));
    const leases = new Set(fenced.flatMap((fence) => (fence ? [fence.name] : [])));
    if (leases.size === 0) return read.map(({ recorded }) => recorded);
    const raisesOf = new Map<string, FenceRaise[]>();
    for (const lease of leases) raisesOf.set(lease, await this.fenceRaises(lease));
    return read.flatMap(({ recorded, resolved }, i) => {
      const fence = fenced[i];
      // every event read here has its $all position (toRecordedEvent refuses one without)
      const position = resolved.event!.position.commit;
      if (!fence || !shutOutByFence(fence, position, raisesOf.get(fence.name) ?? [])) return [recorded];
      adapterLog.warn(
        { stream: resolved.event?.streamId, lease: fence.name, token: fence.token },
        'an event a former lease holder appended after a later holder began: not read',
      );
      return [];
    });
  }

  async readStream<E extends EventShape = EventShape>(
    stream: string,
    options: { fromVersion?: number; maxCount?: number } = {},
  ): Promise<ReadStreamResult<E>> {
    const name = this.namespace + stream;
    if (options.maxCount === 0) return { currentVersion: await this.currentVersion(name), events: [] };
    try {
      const read: { recorded: RecordedEvent<E>; resolved: AllStreamResolvedEvent }[] = [];
      for await (const resolved of this.client.readStream(name, {
        direction: FORWARDS,
        fromRevision: options.fromVersion ? BigInt(options.fromVersion) : START,
        ...(options.maxCount === undefined ? {} : { maxCount: BigInt(Math.floor(options.maxCount)) }),
      })) {
        const recorded = toRecordedEvent(resolved as AllStreamResolvedEvent, this.namespace);
        if (recorded)
          read.push({ recorded: recorded as RecordedEvent<E>, resolved: resolved as AllStreamResolvedEvent });
      }
      const last = read[read.length - 1]?.recorded;
      // a page may end before the stream does: then its version is asked for
      const complete = options.maxCount === undefined || read.length < options.maxCount;
      // the version stays the stream's own (an append expects it), shut-out events included
      const currentVersion = last && complete ? last.streamVersion : await this.currentVersion(name);
      return { currentVersion, events: await this.withoutShutOut(read) };
    } catch (error) {
      if (error instanceof StreamNotFoundError) return { currentVersion: -1, events: [] };
      throw error;
    }
  }

  private async currentVersion(name: string): Promise<number> {
    return (await this.lastEvent(name))?.revision ?? -1;
  }

  async readAll(options: { after: number; maxCount: number }): Promise<RecordedEvent[]> {
    const kept: RecordedEvent[] = [];
    let from = toReadPosition(options.after);
    // $all cannot be filtered on reads: page through it and keep this namespace's events — but not
    // those a former lease holder appended after its successor began (so a page of fewer events than
    // asked still means the end of the feed, and a shut-out event never ends a caller's paging early)
    const page = Math.max(options.maxCount * 2, 200);
    for (;;) {
      let read = 0;
      let lastPosition: Position | null = null;
      const candidates: { recorded: RecordedEvent; resolved: AllStreamResolvedEvent }[] = [];
      for await (const resolved of this.client.readAll({
        direction: FORWARDS,
        fromPosition: from,
        maxCount: page,
      })) {
        read += 1;
        const position = resolved.event?.position;
        if (position) lastPosition = position;
        if (!resolved.event || !this.feedPattern.test(resolved.event.streamId)) continue;
        const recorded = toRecordedEvent(resolved, this.namespace);
        if (recorded && recorded.globalPosition > options.after) candidates.push({ recorded, resolved });
      }
      kept.push(...(await this.withoutShutOut(candidates)));
      if (kept.length >= options.maxCount) return kept.slice(0, options.maxCount);
      if (read < page || !lastPosition) return kept;
      from = lastPosition;
    }
  }

  /** The position of this namespace's newest event (0 if none), read backwards from the end of $all. */
  async lastPosition(): Promise<number> {
    let from: ReadPosition = END;
    const page = 200;
    for (;;) {
      let read = 0;
      let lastSeen: Position | null = null;
      for await (const resolved of this.client.readAll({
        direction: BACKWARDS,
        fromPosition: from,
        maxCount: page,
      })) {
        read += 1;
        if (resolved.event?.position) lastSeen = resolved.event.position;
        if (resolved.event && this.feedPattern.test(resolved.event.streamId) && resolved.event.position) {
          return toGlobalPosition(resolved.event.position.commit);
        }
      }
      if (read < page || !lastSeen) return 0;
      from = lastSeen;
    }
  }

  async getCheckpoint(subscriberId: string): Promise<number> {
    return (await this.readCheckpoint(subscriberId)).position;
  }

  /** The stored checkpoint and the revision of its stream (null: no stream yet). */
  private async readCheckpoint(subscriberId: string): Promise<StoredCheckpoint> {
    const last = await this.lastEvent(this.checkpointStream(subscriberId));
    const data = last?.data as { position?: number; fence?: Fence } | undefined;
    if (last && typeof data?.position === 'number')
      return { position: data.position, revision: BigInt(last.revision), fence: data.fence };
    return { position: 0, revision: null };
  }

  /**
   * Never backwards unless reset on purpose, as a compare-and-set: the append expects the revision
   * the checkpoint was read at, so two writers cannot both move it, and a lower one never lands over
   * a higher one. What this process stored last is remembered: a subscription's batch costs one
   * append, not a read and an append, until another writer moves the stream (then it reads again).
   */
  async storeCheckpoint(
    subscriberId: string,
    position: number,
    options: { reset?: boolean; fence?: Fence } = {},
  ): Promise<void> {
    const stream = this.checkpointStream(subscriberId);
    const { fence } = options;
    for (let attempt = 1; ; attempt++) {
      const known = this.checkpoints.get(subscriberId) ?? (await this.readCheckpoint(subscriberId));
      // the fence travels in the checkpoint, so the check and the write are one compare-and-set on
      // the checkpoint's stream: a later holder's checkpoint moves the revision and is read back
      if (fence && known.fence?.name === fence.name && known.fence.token > fence.token)
        throw new FencedError(fence, known.fence.token);
      const raisesFence =
        fence !== undefined && (known.fence?.name !== fence.name || known.fence.token < fence.token);
      const next = options.reset ? position : Math.max(position, known.position);
      if (!options.reset && next === known.position && !raisesFence) return;
      const kept = fence ?? known.fence;
      try {
        const result = await this.client.appendToStream(
          stream,
          jsonEvent({
            type: 'Checkpoint',
            data: kept ? { position: next, fence: kept } : { position: next },
          }),
          { expectedRevision: known.revision ?? NO_STREAM },
        );
        this.checkpoints.set(subscriberId, {
          position: next,
          revision: result.nextExpectedRevision,
          fence: kept,
        });
        // Only the newest checkpoint matters: let the server scavenge the rest.
        if (result.nextExpectedRevision === 0n) await this.client.setStreamMetadata(stream, { maxCount: 1 });
        return;
      } catch (error) {
        this.checkpoints.delete(subscriberId);
        if (!(error instanceof WrongExpectedVersionError) || attempt >= CHECKPOINT_ATTEMPTS) throw error;
      }
    }
  }

  subscribeToAll(options: {
    subscriberId: string;
    handler: EventsHandler;
    batchSize?: number;
    fence?: Fence;
  }): Subscription {
    const subscription = new EsdbSubscription(this, this.client, this.options, this.namespace, options);
    this.subscriptions.add(subscription);
    subscription.start();
    return {
      stop: async () => {
        await subscription.stop();
        this.subscriptions.delete(subscription);
      },
      caughtUp: () => subscription.caughtUp(),
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    this.subscriptions.clear();
    await this.client.dispose();
  }

  private checkpointStream(subscriberId: string): string {
    return `${CHECKPOINT_PREFIX}${this.namespace}${subscriberId}`;
  }
}

/**
 * A `$all` catch-up subscription filtered to the namespace, started from the stored checkpoint. Events
 * are buffered and handed over in batches; the checkpoint is stored after each handled batch. When the
 * connection drops, it resubscribes from the last handled position after a back-off.
 */
class EsdbSubscription {
  private handled = 0;
  private readonly queue: { recorded: RecordedEvent; resolved: AllStreamResolvedEvent }[] = [];
  private wakeUp: (() => void) | null = null;
  private live: AllStreamSubscription | null = null;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private readonly waiters = new CatchUpWaiters();
  private failure: unknown = null;

  constructor(
    private readonly store: EventStoreDbEventStore,
    private readonly client: EventStoreDBClient,
    private readonly options: EventStoreDbOptions,
    private readonly namespace: string,
    private readonly settings: {
      subscriberId: string;
      handler: EventsHandler;
      batchSize?: number;
      fence?: Fence;
    },
  ) {}

  start(): void {
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    this.handled = await this.store.getCheckpoint(this.settings.subscriberId);
    this.waiters.settle(this.handled);
    let drops = 0;
    while (!this.stopping) {
      this.subscribe();
      try {
        await this.drain();
        drops = 0;
      } catch (error) {
        if (this.stopping) break;
        drops += 1;
        const retryInMs = backoffDelay(this.options.retry ?? defaultRetryPolicy, drops);
        (this.options.onSubscriptionDropped ?? reportDrop)({
          subscriberId: this.settings.subscriberId,
          attempt: drops,
          retryInMs,
          error,
        });
        await this.unsubscribe();
        await sleep(retryInMs);
      }
    }
    await this.unsubscribe();
  }

  private subscribe(): void {
    this.queue.length = 0;
    this.failure = null;
    const live = this.client.subscribeToAll({
      fromPosition: toReadPosition(this.handled),
      filter: streamNameFilter({ regex: feedStreamPattern(this.namespace) }),
    });
    live.on('data', (resolved: AllStreamResolvedEvent) => {
      try {
        const recorded = toRecordedEvent(resolved, this.namespace);
        if (recorded && recorded.globalPosition > this.handled) this.queue.push({ recorded, resolved });
        // Back-pressure: stop reading while a large backlog waits for the handler.
        if (this.queue.length > 10 * (this.settings.batchSize ?? 100)) live.pause();
      } catch (error) {
        this.failure = error;
      }
      this.wake();
    });
    live.on('error', (error: Error) => {
      this.failure = error;
      this.wake();
    });
    live.on('end', () => {
      if (!this.stopping) this.failure = new Error('subscription ended by the server');
      this.wake();
    });
    this.live = live;
  }

  /** Hands queued events to the handler until stopped; throws when the subscription dropped. */
  private async drain(): Promise<void> {
    const batchSize = this.settings.batchSize ?? 100;
    while (!this.stopping) {
      if (this.failure) throw this.failure;
      if (this.queue.length === 0) {
        this.live?.resume();
        await new Promise<void>((resolve) => (this.wakeUp = resolve));
        continue;
      }
      const read = this.queue.splice(0, batchSize);
      const batch = await this.store.withoutShutOut(read);
      // a batch whose events were all shut out is passed over (its checkpoint still stored)
      if (batch.length > 0 && !(await this.handleWithRetries(batch))) return;
      const last = read[read.length - 1]!.recorded;
      await this.store.storeCheckpoint(this.settings.subscriberId, last.globalPosition, {
        fence: this.settings.fence,
      });
      this.handled = last.globalPosition;
      this.waiters.settle(this.handled);
    }
  }

  private async handleWithRetries(batch: RecordedEvent[]): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.settings.handler(batch);
        return true;
      } catch (error) {
        const retryInMs = backoffDelay(this.options.retry ?? defaultRetryPolicy, attempt);
        (this.options.onHandlerError ?? reportHandlerError)({
          subscriberId: this.settings.subscriberId,
          attempt,
          retryInMs,
          error,
        });
        await sleep(retryInMs);
        if (this.stopping) return false;
      }
    }
  }

  private wake(): void {
    const resolve = this.wakeUp;
    this.wakeUp = null;
    resolve?.();
  }

  private async unsubscribe(): Promise<void> {
    const live = this.live;
    this.live = null;
    await live?.unsubscribe().catch(() => undefined);
  }

  async caughtUp(): Promise<void> {
    const target = await this.store.lastPosition();
    if (this.handled >= target) return;
    await this.waiters.add(target);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop?.catch(() => undefined);
    this.waiters.rejectAll(new Error(`Subscription ${this.settings.subscriberId} stopped`));
  }
}

const reportHandlerError = logRetriedHandler(adapterLog, 'subscriber failed, retrying');

function reportDrop(info: { subscriberId: string; attempt: number; retryInMs: number; error: unknown }) {
  adapterLog.warn(
    {
      subscriberId: info.subscriberId,
      attempt: info.attempt,
      retryInMs: info.retryInMs,
      error: errorMessage(info.error),
    },
    'subscription dropped, resubscribing',
  );
}

export function openEventStoreDbEventStore(options: EventStoreDbOptions): EventStoreDbEventStore {
  return new EventStoreDbEventStore(options);
}
