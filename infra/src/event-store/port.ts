/** Event store port: append-only streams with optimistic concurrency and a global, ordered feed. */

/** 'any' = no check; 'no_stream' = the stream must not exist; 'stream_exists'; a number = the exact current version. */
export type ExpectedVersion = 'any' | 'no_stream' | 'stream_exists' | number;

// Events and stream names are typed by the domain (a union of events per stream category).
import type { EventShape, StreamName } from '@rna/domain';
import { overriding, type Fence } from '../fencing';
export type { EventShape, StreamName };

export type EventToAppend<E extends EventShape = EventShape> = E & {
  metadata?: Record<string, unknown>;
};

/** Where and when an event was recorded. */
export interface RecordedEventPosition {
  streamName: string;
  /** 0 for a stream's first event. */
  streamVersion: number;
  /** Strictly increasing across all streams, starting at 1. */
  globalPosition: number;
  metadata: Record<string, unknown>;
  createdAt: string;
}

/** A recorded event of the union E: `data` narrows on `type`. */
export type RecordedEvent<E extends EventShape = EventShape> = E & RecordedEventPosition;

export interface AppendResult {
  /** The stream's version after the append (its last event's streamVersion). */
  nextExpectedVersion: number;
  lastGlobalPosition: number;
}

export interface ReadStreamResult<E extends EventShape = EventShape> {
  /** -1 when the stream does not exist. */
  currentVersion: number;
  events: RecordedEvent<E>[];
}

export type EventsHandler = (events: RecordedEvent[]) => Promise<void>;

export interface Subscription {
  /** Stops after the batch being handled; resolves when stopped. */
  stop(): Promise<void>;
  /** Resolves once the subscriber has handled everything appended before this call. */
  caughtUp(): Promise<void>;
}

export interface AppendOptions {
  expectedVersion?: ExpectedVersion;
  /**
   * The lease holder's fencing token (fencing/): the events are appended only if no later holder of
   * the lease has appended to this store (FencedError otherwise), and the token is recorded, also
   * when there is no event. Checked by the embedded store in the append's transaction; by the
   * EventStoreDB adapter per stream and through the lease's fence stream (fencing/ says what that
   * leaves open).
   */
  fence?: Fence;
}

export interface EventStore {
  appendToStream<E extends EventShape = EventShape>(
    stream: StreamName<E>,
    events: EventToAppend<E>[],
    options?: AppendOptions,
  ): Promise<AppendResult>;
  /**
   * A stream's events from `fromVersion` (default 0), at most `maxCount` of them (default all), and
   * the stream's current version whatever the page. Long streams are read page by page
   * (`streamPages`), never whole.
   */
  readStream<E extends EventShape = EventShape>(
    stream: StreamName<E>,
    options?: { fromVersion?: number; maxCount?: number },
  ): Promise<ReadStreamResult<E>>;
  /** Events with globalPosition > after, in order, at most maxCount. */
  readAll(options: { after: number; maxCount: number }): Promise<RecordedEvent[]>;
  getCheckpoint(subscriberId: string): Promise<number>;
  /**
   * Moves a subscriber's checkpoint forward; a position behind the stored one (a late writer, a
   * second process) leaves it where it is. `reset` moves it back on purpose (projection rebuilds).
   * With a lease holder's fence, refused (FencedError) once a later holder of the lease stored one.
   */
  storeCheckpoint(
    subscriberId: string,
    position: number,
    options?: { reset?: boolean; fence?: Fence },
  ): Promise<void>;
  /**
   * Catch-up-then-live subscription to all events after the subscriber's stored checkpoint.
   * The checkpoint is stored after each handled batch: delivery is at-least-once. A lease holder's
   * subscription stores its checkpoints with the holder's fence.
   */
  subscribeToAll(options: {
    subscriberId: string;
    handler: EventsHandler;
    batchSize?: number;
    fence?: Fence;
  }): Subscription;
  close(): Promise<void>;
}

/** Thrown when the expected version does not match; stable code for callers. */
export class ConcurrencyError extends Error {
  readonly code = 'EVENT_STORE_CONCURRENCY' as const;
  constructor(
    public readonly stream: string,
    public readonly expected: ExpectedVersion,
    public readonly actual: number,
  ) {
    super(`Concurrency conflict on ${stream}: expected ${String(expected)}, actual ${actual}`);
    this.name = 'ConcurrencyError';
  }
}

/** Pages of a stream's events in order, each read when the previous one is done with: bounded memory. */
export async function* streamPages<E extends EventShape = EventShape>(
  store: Pick<EventStore, 'readStream'>,
  stream: StreamName<E>,
  options: { fromVersion?: number; pageSize?: number } = {},
): AsyncGenerator<RecordedEvent<E>[]> {
  const pageSize = options.pageSize ?? 1_000;
  for (let from = options.fromVersion ?? 0; ;) {
    const { events } = await store.readStream<E>(stream, { fromVersion: from, maxCount: pageSize });
    if (events.length > 0) yield events;
    if (events.length < pageSize) return;
    from = (events[events.length - 1]?.streamVersion ?? from) + 1;
  }
}

/**
 * The store as a lease holder writes to it: its appends and its subscriptions' checkpoints carry the
 * holder's fence (fencing/), so that none lands once a later holder of the lease has written.
 */
export function fencedEventStore(store: EventStore, fence: Fence): EventStore {
  return overriding(store, {
    appendToStream: (stream, events, options) => store.appendToStream(stream, events, { ...options, fence }),
    storeCheckpoint: (subscriberId, position, options) =>
      store.storeCheckpoint(subscriberId, position, { ...options, fence }),
    subscribeToAll: (options) => store.subscribeToAll({ ...options, fence }),
  });
}
