/** Embedded event store: one SQLite file (WAL), an append-only table whose rowid is the global position. */
import type { SqliteDatabase } from '../embedded/sqlite';
import { openSqliteFile } from '../embedded/sqlite';
import { checkpointInBackground } from '../embedded/wal-checkpointer';
import { FENCES_SCHEMA, sqliteFenceCheck, type Fence } from '../fencing';
import {
  defaultRetryPolicy,
  errorMessage,
  PollingLoop,
  type PollingRound,
  type RetryPolicy,
} from '../embedded/polling';
import {
  ConcurrencyError,
  type AppendOptions,
  type AppendResult,
  type EventsHandler,
  type EventStore,
  type EventShape,
  type EventToAppend,
  type ExpectedVersion,
  type ReadStreamResult,
  type RecordedEvent,
  type Subscription,
} from './port';
import { adapterLogger, logRetriedHandler } from '../logging';

const adapterLog = adapterLogger('event-store');

export interface SqliteEventStoreOptions {
  /** How often subscriptions look for events appended by other processes (default 150 ms). */
  pollIntervalMs?: number;
  /** Back-off between retries of a failing handler. */
  retry?: RetryPolicy;
  /** Where handler failures are reported (default: the adapters' pino log, message only). */
  onHandlerError?: (info: {
    subscriberId: string;
    attempt: number;
    retryInMs: number;
    error: unknown;
  }) => void;
  /** WAL checkpoints on a worker thread instead of inside a commit (default true). */
  backgroundCheckpoints?: boolean;
}

interface EventRow {
  global_position: number;
  stream_name: string;
  stream_version: number;
  type: string;
  data: string;
  metadata: string;
  created_at: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  global_position INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_name TEXT NOT NULL,
  stream_version INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (stream_name, stream_version)
);
CREATE TABLE IF NOT EXISTS checkpoints (
  subscriber_id TEXT PRIMARY KEY,
  position INTEGER NOT NULL
);
${FENCES_SCHEMA}`;

function toRecorded(row: EventRow): RecordedEvent {
  return {
    streamName: row.stream_name,
    streamVersion: row.stream_version,
    globalPosition: row.global_position,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: row.created_at,
  };
}

function versionMatches(expected: ExpectedVersion, current: number): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === -1;
  if (expected === 'stream_exists') return current >= 0;
  return current === expected;
}

function validateAppend(stream: string, events: EventToAppend[], expected: ExpectedVersion): void {
  if (typeof stream !== 'string' || stream.length === 0)
    throw new TypeError('Stream name must be a non-empty string');
  const validExpected =
    expected === 'any' ||
    expected === 'no_stream' ||
    expected === 'stream_exists' ||
    (Number.isInteger(expected) && expected >= -1);
  if (!validExpected) throw new TypeError(`Invalid expected version: ${String(expected)}`);
  for (const event of events) {
    if (typeof event.type !== 'string' || event.type.length === 0) {
      throw new TypeError(`Every event of ${stream} needs a non-empty type`);
    }
  }
}

export class SqliteEventStore implements EventStore {
  private readonly db: SqliteDatabase;
  private readonly statements;
  private readonly appendTransaction;
  private readonly checkpointTransaction;
  private readonly readStreamTransaction;
  private readonly subscriptions = new Set<PollingSubscription>();
  private closed = false;
  private localAppends = 0;
  private wakeTimer: NodeJS.Timeout | null = null;
  private readonly stopBackgroundCheckpoints: () => void;
  private sharedRead: {
    after: number;
    maxCount: number;
    localAppends: number;
    at: number;
    events: RecordedEvent[];
  } | null = null;

  constructor(
    file: string,
    private readonly options: SqliteEventStoreOptions = {},
  ) {
    this.db = openSqliteFile(file, { schema: SCHEMA });
    this.stopBackgroundCheckpoints =
      options.backgroundCheckpoints === false ? () => undefined : checkpointInBackground(file);
    this.statements = {
      currentVersion: this.db.prepare<[string], { v: number | null }>(
        'SELECT MAX(stream_version) AS v FROM events WHERE stream_name = ?',
      ),
      insert: this.db.prepare<[string, number, string, string, string, string]>(
        'INSERT INTO events (stream_name, stream_version, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      readStream: this.db.prepare<[string, number, number], EventRow>(
        'SELECT * FROM events WHERE stream_name = ? AND stream_version >= ? ORDER BY stream_version LIMIT ?',
      ),
      readAll: this.db.prepare<[number, number], EventRow>(
        'SELECT * FROM events WHERE global_position > ? ORDER BY global_position LIMIT ?',
      ),
      lastPosition: this.db.prepare<[], { p: number | null }>('SELECT MAX(global_position) AS p FROM events'),
      getCheckpoint: this.db.prepare<[string], { position: number }>(
        'SELECT position FROM checkpoints WHERE subscriber_id = ?',
      ),
      // checkpoints never move backwards, unless reset on purpose
      storeCheckpoint: this.db.prepare<[string, number]>(
        'INSERT INTO checkpoints (subscriber_id, position) VALUES (?, ?) ' +
          'ON CONFLICT (subscriber_id) DO UPDATE SET position = MAX(position, excluded.position)',
      ),
      resetCheckpoint: this.db.prepare<[string, number]>(
        'INSERT INTO checkpoints (subscriber_id, position) VALUES (?, ?) ' +
          'ON CONFLICT (subscriber_id) DO UPDATE SET position = excluded.position',
      ),
    };
    // The version check and the inserts happen under one write lock (BEGIN IMMEDIATE), so two
    // appenders — in this process or another — cannot both pass the check.
    const checkFence = sqliteFenceCheck(this.db);
    this.checkpointTransaction = this.db.transaction(
      (subscriberId: string, position: number, reset: boolean, fence: Fence | undefined): void => {
        if (fence) checkFence(fence);
        (reset ? this.statements.resetCheckpoint : this.statements.storeCheckpoint).run(
          subscriberId,
          position,
        );
      },
    );
    this.appendTransaction = this.db.transaction(
      (stream: string, events: EventToAppend[], expected: ExpectedVersion, fence?: Fence): AppendResult => {
        if (fence) checkFence(fence);
        const current = this.statements.currentVersion.get(stream)?.v ?? -1;
        if (!versionMatches(expected, current)) throw new ConcurrencyError(stream, expected, current);
        const createdAt = new Date().toISOString();
        let version = current;
        let lastGlobalPosition = this.statements.lastPosition.get()?.p ?? 0;
        for (const event of events) {
          version += 1;
          const info = this.statements.insert.run(
            stream,
            version,
            event.type,
            JSON.stringify(event.data ?? null),
            JSON.stringify(event.metadata ?? {}),
            createdAt,
          );
          lastGlobalPosition = Number(info.lastInsertRowid);
        }
        return { nextExpectedVersion: version, lastGlobalPosition };
      },
    );
    // The version and the events come from one snapshot; made once, as wrapping is not free.
    // LIMIT -1 is SQLite's "no limit"
    this.readStreamTransaction = this.db.transaction(
      (stream: string, fromVersion: number, maxCount: number) => ({
        currentVersion: this.statements.currentVersion.get(stream)?.v ?? -1,
        rows: this.statements.readStream.all(stream, fromVersion, maxCount),
      }),
    );
  }

  async appendToStream(
    stream: string,
    events: EventToAppend[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.assertOpen();
    const expected = options.expectedVersion ?? 'any';
    validateAppend(stream, events, expected);
    const result = this.appendTransaction.immediate(stream, events, expected, options.fence);
    if (events.length > 0) {
      this.localAppends += 1;
      this.wakeSubscriptionsSoon();
    }
    return result;
  }

  /**
   * Subscriptions are woken once for all the appends of the current turn of the event loop, not once
   * per append: under load (a metered search appends an event) each projection then handles a batch
   * per wake-up instead of going round its loop for every single event.
   */
  private wakeSubscriptionsSoon(): void {
    if (this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      for (const subscription of this.subscriptions) subscription.wake();
    }, 0);
  }

  async readStream<E extends EventShape = EventShape>(
    stream: string,
    options: { fromVersion?: number; maxCount?: number } = {},
  ): Promise<ReadStreamResult<E>> {
    this.assertOpen();
    const maxCount = options.maxCount === undefined ? -1 : Math.max(0, Math.floor(options.maxCount));
    const { currentVersion, rows } = this.readStreamTransaction(stream, options.fromVersion ?? 0, maxCount);
    return { currentVersion, events: rows.map(toRecorded) as RecordedEvent<E>[] };
  }

  async readAll(options: { after: number; maxCount: number }): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.readAllSync(options.after, options.maxCount);
  }

  readAllSync(after: number, maxCount: number): RecordedEvent[] {
    return this.statements.readAll.all(after, Math.max(0, Math.floor(maxCount))).map(toRecorded);
  }

  /**
   * The subscriptions of this process, woken by the same append, all read the same new events: one
   * query and one parse serve them all (a metered search appends an event that every projection
   * reads). A shared read is reused only until this process appends again and for at most
   * SHARED_READ_MS; events from other processes are picked up by the next read, as with polling.
   * Handlers receive the shared events and must not modify them.
   */
  readForSubscription(after: number, maxCount: number): RecordedEvent[] {
    const shared = this.sharedRead;
    if (
      shared &&
      shared.after === after &&
      shared.maxCount === maxCount &&
      shared.localAppends === this.localAppends &&
      Date.now() - shared.at < SHARED_READ_MS
    )
      return shared.events;
    const events = this.readAllSync(after, maxCount);
    this.sharedRead = { after, maxCount, localAppends: this.localAppends, at: Date.now(), events };
    return events;
  }

  lastGlobalPosition(): number {
    return this.statements.lastPosition.get()?.p ?? 0;
  }

  async getCheckpoint(subscriberId: string): Promise<number> {
    this.assertOpen();
    return this.getCheckpointSync(subscriberId);
  }

  getCheckpointSync(subscriberId: string): number {
    return this.statements.getCheckpoint.get(subscriberId)?.position ?? 0;
  }

  async storeCheckpoint(
    subscriberId: string,
    position: number,
    options: { reset?: boolean; fence?: Fence } = {},
  ): Promise<void> {
    this.assertOpen();
    this.checkpointTransaction.immediate(subscriberId, position, options.reset === true, options.fence);
  }

  subscribeToAll(options: {
    subscriberId: string;
    handler: EventsHandler;
    batchSize?: number;
    fence?: Fence;
  }): Subscription {
    this.assertOpen();
    const subscription = new PollingSubscription(this, {
      subscriberId: options.subscriberId,
      handler: options.handler,
      fence: options.fence,
      batchSize: options.batchSize ?? 500,
      pollIntervalMs: this.options.pollIntervalMs ?? 150,
      retry: this.options.retry ?? defaultRetryPolicy,
      onHandlerError: this.options.onHandlerError ?? reportHandlerError,
      onStopped: (s) => this.subscriptions.delete(s),
    });
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    this.closed = true;
    this.stopBackgroundCheckpoints();
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Event store is closed');
  }
}

const reportHandlerError = logRetriedHandler(adapterLog, 'subscriber failed, retrying');

interface SubscriptionSettings {
  subscriberId: string;
  handler: EventsHandler;
  fence: Fence | undefined;
  batchSize: number;
  pollIntervalMs: number;
  retry: RetryPolicy;
  onHandlerError: NonNullable<SqliteEventStoreOptions['onHandlerError']>;
  onStopped: (subscription: PollingSubscription) => void;
}

const CHECKPOINT_INTERVAL_MS = 250;
const SHARED_READ_MS = 50;

/** Reads after the checkpoint, hands over a batch, stores the checkpoint now and then (PollingLoop). */
class PollingSubscription implements Subscription, PollingRound<RecordedEvent[]> {
  private readonly loop: PollingLoop<RecordedEvent[]>;
  private position: number;
  private storedPosition: number;
  private storedAt = 0;
  private handledUpTo = -1;

  constructor(
    private readonly store: SqliteEventStore,
    private readonly settings: SubscriptionSettings,
  ) {
    this.position = store.getCheckpointSync(settings.subscriberId);
    this.storedPosition = this.position;
    const { subscriberId } = settings;
    this.loop = new PollingLoop(this, {
      name: `subscription ${subscriberId}`,
      retry: settings.retry,
      onHandlerError: (attempt, retryInMs, error) =>
        settings.onHandlerError({ subscriberId, attempt, retryInMs, error }),
      onFailure: (error) =>
        adapterLog.error({ subscriberId, error: errorMessage(error) }, 'subscription stopped'),
      onBusy: (attempt, retryInMs, error) =>
        adapterLog.warn(
          { subscriberId, attempt, retryInMs, error: errorMessage(error) },
          'event store locked by another process: trying again',
        ),
      onStopped: () => settings.onStopped(this),
    });
  }

  wake(): void {
    this.loop.wake();
  }

  caughtUp(): Promise<void> {
    return this.loop.caughtUp(
      () => this.store.lastGlobalPosition(),
      (target) => this.handledUpTo >= target,
    );
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  next(): RecordedEvent[] | null {
    const batch = this.store.readForSubscription(this.position, this.settings.batchSize);
    return batch.length > 0 ? batch : null;
  }

  handle(batch: RecordedEvent[]): Promise<void> {
    return this.settings.handler(batch);
  }

  async advance(batch: RecordedEvent[]): Promise<void> {
    this.markHandled(batch[batch.length - 1]!.globalPosition);
    // Every search appends an event that each projection reads: writing each one's checkpoint after
    // every batch was a write transaction per projection per search. Delivery is at-least-once and
    // projections are idempotent, so the checkpoint is written at most every CHECKPOINT_INTERVAL_MS,
    // and once more on stop.
    await this.storeCheckpointIfDue();
  }

  async idle(): Promise<number> {
    this.markHandled(this.position);
    await this.storeCheckpointIfDue();
    // A checkpoint still to write is written once its interval is over, even when idle.
    if (this.position === this.storedPosition) return this.settings.pollIntervalMs;
    return Math.min(this.settings.pollIntervalMs, CHECKPOINT_INTERVAL_MS - (Date.now() - this.storedAt));
  }

  finish(): Promise<void> {
    return this.storeCheckpointIfDue(true);
  }

  /** Writes the checkpoint if it moved and its interval is over (or at once when `now`). */
  private async storeCheckpointIfDue(now = false): Promise<void> {
    const { position } = this;
    if (position === this.storedPosition) return;
    if (!now && Date.now() - this.storedAt < CHECKPOINT_INTERVAL_MS) return;
    await this.store.storeCheckpoint(this.settings.subscriberId, position, { fence: this.settings.fence });
    this.storedPosition = position;
    this.storedAt = Date.now();
  }

  private markHandled(position: number): void {
    this.position = position;
    this.handledUpTo = position;
    this.loop.waiters.settle(position);
  }
}

export function openSqliteEventStore(file: string, options?: SqliteEventStoreOptions): SqliteEventStore {
  return new SqliteEventStore(file, options);
}
