/**
 * Embedded message log: one SQLite file (WAL). A topic is a single partition whose offsets are the
 * table's rowids (monotonic, possibly with gaps, like Kafka's). A consumer group's offset and its
 * lease live in one row: only the lease holder fetches, and a commit succeeds only if the offset is
 * still the one the batch was read after — so two consumers of a group never both commit a batch.
 *
 * The log is a transport, not an archive (the register's own files are kept for rebuilds): once
 * every group of a topic has committed past a message, it is deleted and its pages are given back
 * to the file system, so a whole-register sync never keeps 25 million aids twice. A group that was
 * behind what is left (a new group, a reset) is told of the gap, as with Kafka's retention.
 */
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { SqliteDatabase } from '../embedded/sqlite';
import { openSqliteFile, retryWhileBusy } from '../embedded/sqlite';
import {
  defaultRetryPolicy,
  errorMessage,
  PollingLoop,
  type PollingRound,
  type RetryPolicy,
} from '../embedded/polling';
import {
  messageJson,
  type BatchHandler,
  type ConsumedMessage,
  type ConsumeOptions,
  type Consumer,
  type MessageGap,
  type MessageLog,
  type MessageToPublish,
  type PublishOptions,
} from './port';
import { adapterLogger, logRetriedHandler } from '../logging';
import { FENCES_SCHEMA, sqliteFenceCheck, type Fence } from '../fencing';
import { DecodedBatch, encodeBatch } from './stored-batch';

const adapterLog = adapterLogger('message-log');
/** Batches looked up at once by a fetch (a publish is one batch; a sync's are 2,000 messages). */
const FETCHED_BATCHES = 8;

export interface SqliteMessageLogOptions {
  /** How often consumers look for messages published by other processes (default 150 ms). */
  pollIntervalMs?: number;
  /** How long a group lease lasts without renewal (default 30 s); renewed while a batch is handled. */
  leaseMs?: number;
  retry?: RetryPolicy;
  /** Delete what every group has consumed (default true); false keeps every message for ever. */
  trimConsumed?: boolean;
  /** Least time between two trims of a topic by this process (default 1 s). */
  trimIntervalMs?: number;
  /**
   * The most messages a topic holds ahead of its slowest live consumer before a publish waits
   * (default 200,000, ~200 MB of aids): a sync parses faster than the index is written, and the log
   * would otherwise hold most of the register at once (9 GB half-way through a whole-register sync).
   * A group whose consumer is not running (no live lease) does not hold publishers back.
   */
  maxBacklog?: number;
  onHandlerError?: (info: {
    topic: string;
    groupId: string;
    attempt: number;
    retryInMs: number;
    error: unknown;
  }) => void;
}

interface GroupRow {
  committed: number;
  lease_owner: string | null;
  lease_until: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS message_batches (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  first_seq INTEGER NOT NULL,
  topic TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  keys TEXT NOT NULL,
  lengths TEXT NOT NULL,
  vals BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS message_batches_by_topic ON message_batches (topic, seq);
CREATE TABLE IF NOT EXISTS topic_floors (
  topic TEXT PRIMARY KEY,
  trimmed_through INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS consumer_groups (
  topic TEXT NOT NULL,
  group_id TEXT NOT NULL,
  committed INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_until INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (topic, group_id)
);
${FENCES_SCHEMA}`;

/**
 * A publish is one row (stored-batch.ts): its messages' offsets are first_seq … seq, so a row's
 * rowid is the offset of its last message and AUTOINCREMENT never hands an offset out twice, even
 * once every row is trimmed. The columns read to find a batch come before its texts, which stay
 * unread in their overflow pages until the batch itself is read.
 */
interface BatchPosition {
  seq: number;
  first_seq: number;
}
interface ReadBatch {
  seq: number;
  batch: DecodedBatch;
  timestamp: string;
}
interface BatchBody {
  timestamp: string;
  keys: string;
  lengths: string;
  /** a Buffer; a string in batches stored before blobs (a file's column may be declared TEXT) */
  vals: Buffer | string;
}

/**
 * Files written when every message was a row of `messages`: their messages become one-message
 * batches under the same offsets, and offsets go on from the old table's, so every group's
 * committed offset keeps its meaning. Runs once, in one transaction.
 */
function moveRowPerMessageTable(db: SqliteDatabase): void {
  const oldTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages'");
  // a plain read first: every open of a converted file would otherwise take the write lock
  if (oldTable.get() === undefined) return;
  db.transaction(() => {
    if (oldTable.get() === undefined) return; // another process converted it meanwhile
    const insert = db.prepare<[number, number, string, string, string, string, Buffer | string]>(
      'INSERT INTO message_batches (seq, first_seq, topic, timestamp, keys, lengths, vals) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    // read in slices: a file left mid-sync holds up to the backlog bound (~200 MB of aids)
    const slice = db.prepare<
      [number],
      { seq: number; topic: string; key: string; value: string; timestamp: string }
    >('SELECT seq, topic, key, value, timestamp FROM messages WHERE seq > ? ORDER BY seq LIMIT 1000');
    for (let rows = slice.all(0); rows.length > 0; rows = slice.all(rows[rows.length - 1]!.seq)) {
      for (const row of rows) {
        const batch = encodeBatch([{ key: row.key, json: row.value }]);
        insert.run(row.seq, row.seq, row.topic, row.timestamp, batch.keys, batch.lengths, batch.values);
      }
    }
    const sequenceOf = (name: string) =>
      db.prepare<[string], { seq: number }>('SELECT seq FROM sqlite_sequence WHERE name = ?').get(name)
        ?.seq ?? 0;
    const old = sequenceOf('messages');
    if (sequenceOf('message_batches') < old) {
      db.prepare("DELETE FROM sqlite_sequence WHERE name = 'message_batches'").run();
      db.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('message_batches', ?)").run(old);
    }
    db.exec('DROP TABLE messages');
  }).immediate();
}

/**
 * A fetched message whose text and value are decoded on first use: a consumer that passes `bytes`
 * or `json` on never pays for the rest.
 */
class StoredMessage implements ConsumedMessage {
  readonly partition = 0;
  readonly offset: string;
  private text: string | null = null;
  private decoded: { value: unknown } | null = null;

  constructor(
    readonly topic: string,
    offset: number,
    readonly key: string,
    private readonly batch: DecodedBatch,
    private readonly index: number,
    readonly timestamp: string,
  ) {
    this.offset = String(offset);
  }

  get json(): string {
    this.text ??= this.batch.json(this.index);
    return this.text;
  }

  get bytes(): Uint8Array | undefined {
    return this.batch.bytes(this.index) ?? undefined;
  }

  get value(): unknown {
    this.decoded ??= { value: JSON.parse(this.json) as unknown };
    return this.decoded.value;
  }
}

/** Owner ids carry host and pid so that a lease left by a crashed process on this host is taken over at once. */
function newOwnerId(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID()}`;
}

function ownerIsDeadHere(owner: string): boolean {
  const [host, pidText] = owner.split(':');
  const pid = Number(pidText);
  if (host !== os.hostname() || !Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export class SqliteMessageLog implements MessageLog {
  private readonly db: SqliteDatabase;
  private readonly statements;
  private readonly publishTransaction;
  private readonly acquireLeaseTransaction;
  private readonly trimTransaction;
  private readonly lastTrim = new Map<string, number>();
  private readonly consumers = new Set<PollingConsumer>();
  private lastRead: ReadBatch | null = null;
  private closed = false;

  constructor(
    file: string,
    private readonly options: SqliteMessageLogOptions = {},
  ) {
    // Set before the first table is created: deleted messages' pages can then be given back.
    this.db = openSqliteFile(file, { schema: SCHEMA, autoVacuum: 'incremental' });
    // Bulk publishing (a sync: ~1 KB per message): checkpoint every ~40 MB of WAL instead of 4 MB.
    this.db.pragma('wal_autocheckpoint = 10000');
    retryWhileBusy(() => moveRowPerMessageTable(this.db), 15_000);
    this.statements = {
      lastIssued: this.db
        .prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'message_batches'")
        .pluck(),
      insert: this.db.prepare<[number, number, string, string, string, string, Buffer | string]>(
        'INSERT INTO message_batches (seq, first_seq, topic, timestamp, keys, lengths, vals) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      batchesAfter: this.db.prepare<[string, number, number], BatchPosition>(
        'SELECT seq, first_seq FROM message_batches WHERE topic = ? AND seq > ? ORDER BY seq LIMIT ?',
      ),
      batchBody: this.db.prepare<[number], BatchBody>(
        'SELECT timestamp, keys, lengths, vals FROM message_batches WHERE seq = ?',
      ),
      lastOffset: this.db.prepare<[string], { s: number | null }>(
        'SELECT MAX(seq) AS s FROM message_batches WHERE topic = ?',
      ),
      ensureGroup: this.db.prepare<[string, string]>(
        'INSERT OR IGNORE INTO consumer_groups (topic, group_id) VALUES (?, ?)',
      ),
      getGroup: this.db.prepare<[string, string], GroupRow>(
        'SELECT committed, lease_owner, lease_until FROM consumer_groups WHERE topic = ? AND group_id = ?',
      ),
      setLease: this.db.prepare<[string, number, string, string]>(
        'UPDATE consumer_groups SET lease_owner = ?, lease_until = ? WHERE topic = ? AND group_id = ?',
      ),
      renewLease: this.db.prepare<[number, string, string, string]>(
        'UPDATE consumer_groups SET lease_until = ? WHERE topic = ? AND group_id = ? AND lease_owner = ?',
      ),
      releaseLease: this.db.prepare<[string, string, string]>(
        'UPDATE consumer_groups SET lease_owner = NULL, lease_until = 0 WHERE topic = ? AND group_id = ? AND lease_owner = ?',
      ),
      commit: this.db.prepare<[number, string, string, string, number]>(
        'UPDATE consumer_groups SET committed = ? WHERE topic = ? AND group_id = ? AND lease_owner = ? AND committed = ?',
      ),
      resetGroup: this.db.prepare<[string, string]>(
        'UPDATE consumer_groups SET committed = 0 WHERE topic = ? AND group_id = ?',
      ),
      slowestGroup: this.db.prepare<[string], { c: number | null }>(
        'SELECT MIN(committed) AS c FROM consumer_groups WHERE topic = ?',
      ),
      slowestLiveGroup: this.db.prepare<[string, number], { c: number | null }>(
        'SELECT MIN(committed) AS c FROM consumer_groups WHERE topic = ? AND lease_until >= ?',
      ),
      floor: this.db.prepare<[string], { t: number }>(
        'SELECT trimmed_through AS t FROM topic_floors WHERE topic = ?',
      ),
      setFloor: this.db.prepare<[string, number]>(
        'INSERT INTO topic_floors (topic, trimmed_through) VALUES (?, ?) ' +
          'ON CONFLICT (topic) DO UPDATE SET trimmed_through = MAX(trimmed_through, excluded.trimmed_through)',
      ),
      lastWholeBatch: this.db.prepare<[string, number], { s: number | null }>(
        'SELECT MAX(seq) AS s FROM message_batches WHERE topic = ? AND seq <= ?',
      ),
      trim: this.db.prepare<[string, number]>('DELETE FROM message_batches WHERE topic = ? AND seq <= ?'),
    };
    this.trimTransaction = this.db.transaction((topic: string): number => {
      const consumed = this.statements.slowestGroup.get(topic)?.c ?? null;
      if (consumed === null) return 0;
      // whole batches only: one the slowest group is half-way through stays until it has passed it
      const through = this.statements.lastWholeBatch.get(topic, consumed)?.s ?? null;
      if (through === null || through <= this.floorOf(topic)) return 0;
      const removed = this.statements.trim.run(topic, through).changes;
      this.statements.setFloor.run(topic, through);
      return removed;
    });
    const checkFence = sqliteFenceCheck(this.db);
    this.publishTransaction = this.db.transaction(
      (topic: string, messages: MessageToPublish[], fence: Fence | undefined) => {
        if (fence) checkFence(fence);
        if (messages.length === 0) return;
        const batch = encodeBatch(
          messages.map((m) => ('bytes' in m ? m : { key: m.key, json: messageJson(m) })),
        );
        const first = (this.statements.lastIssued.get() ?? 0) + 1;
        const last = first + messages.length - 1;
        const timestamp = new Date().toISOString();
        this.statements.insert.run(last, first, topic, timestamp, batch.keys, batch.lengths, batch.values);
      },
    );
    /** Returns the committed offset if `owner` now holds the group's lease, else null. */
    this.acquireLeaseTransaction = this.db.transaction(
      (topic: string, groupId: string, owner: string, leaseMs: number): number | null => {
        this.statements.ensureGroup.run(topic, groupId);
        const group = this.statements.getGroup.get(topic, groupId);
        if (!group) return null;
        const now = Date.now();
        const free =
          group.lease_owner === null ||
          group.lease_owner === owner ||
          group.lease_until < now ||
          ownerIsDeadHere(group.lease_owner);
        if (!free) return null;
        this.statements.setLease.run(owner, now + leaseMs, topic, groupId);
        return group.committed;
      },
    );
  }

  async publish(topic: string, messages: MessageToPublish[], options: PublishOptions = {}): Promise<void> {
    this.assertOpen();
    if (typeof topic !== 'string' || topic.length === 0)
      throw new TypeError('Topic must be a non-empty string');
    for (const message of messages) {
      if (typeof message.key !== 'string')
        throw new TypeError(`Every message of ${topic} needs a string key`);
    }
    // no message: nothing to write, but a fence is still raised (a new holder shutting its predecessor out)
    if (messages.length === 0 && !options.fence) return;
    if (messages.length > 0) await this.backlogBelowBound(topic);
    this.publishTransaction.immediate(topic, messages, options.fence);
    for (const consumer of this.consumers) if (consumer.topic === topic) consumer.wake();
  }

  /** Messages of `topic` its slowest live consumer has not consumed yet (0 without a live consumer). */
  backlog(topic: string): number {
    const slowest = this.statements.slowestLiveGroup.get(topic, Date.now())?.c ?? null;
    if (slowest === null) return 0;
    const last = this.statements.lastOffset.get(topic)?.s ?? 0;
    return Math.max(0, last - slowest);
  }

  /** Waits while the topic's backlog is over the bound (said every 30 s, so a stuck consumer shows). */
  private async backlogBelowBound(topic: string): Promise<void> {
    const bound = this.options.maxBacklog ?? 200_000;
    let since: number | null = null;
    let said = 0;
    while (!this.closed && this.backlog(topic) > bound) {
      since ??= Date.now();
      if (Date.now() - since >= (said + 1) * 30_000) {
        said += 1;
        adapterLog.warn(
          { topic, backlog: this.backlog(topic), bound, waitedMs: Date.now() - since },
          'publishing waits for the consumers to catch up',
        );
      }
      for (const consumer of this.consumers) if (consumer.topic === topic) consumer.wake();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  consume(options: ConsumeOptions): Consumer {
    this.assertOpen();
    const consumer = new PollingConsumer(this, {
      topic: options.topic,
      groupId: options.groupId,
      handler: options.handler,
      batchSize: options.batchSize ?? 500,
      owner: newOwnerId(),
      pollIntervalMs: this.options.pollIntervalMs ?? 150,
      leaseMs: this.options.leaseMs ?? 30_000,
      retry: this.options.retry ?? defaultRetryPolicy,
      onHandlerError: this.options.onHandlerError ?? reportHandlerError,
      onGap: options.onGap ?? reportGap,
      onStopped: (c) => this.consumers.delete(c),
    });
    this.consumers.add(consumer);
    return consumer;
  }

  async resetGroup(topic: string, groupId: string): Promise<void> {
    this.assertOpen();
    this.statements.resetGroup.run(topic, groupId);
    for (const consumer of this.consumers) if (consumer.topic === topic) consumer.wake();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.all([...this.consumers].map((c) => c.stop()));
    this.closed = true;
    this.db.close();
  }

  // ---- used by the consumers ----
  acquireLease(topic: string, groupId: string, owner: string, leaseMs: number): number | null {
    return this.acquireLeaseTransaction.immediate(topic, groupId, owner, leaseMs);
  }

  renewLease(topic: string, groupId: string, owner: string, leaseMs: number): void {
    this.statements.renewLease.run(Date.now() + leaseMs, topic, groupId, owner);
  }

  releaseLease(topic: string, groupId: string, owner: string): void {
    this.statements.releaseLease.run(topic, groupId, owner);
  }

  /** Up to `limit` messages of `topic` after offset `after`, in order. */
  fetch(topic: string, after: number, limit: number): ConsumedMessage[] {
    const messages: ConsumedMessage[] = [];
    let cursor = after;
    while (messages.length < limit) {
      const positions = this.statements.batchesAfter.all(topic, cursor, FETCHED_BATCHES);
      for (const position of positions) {
        const read = this.readBatch(position.seq);
        cursor = position.seq;
        if (read === null) continue; // trimmed since: a group behind the floor is told by its gap
        const { batch, timestamp } = read;
        for (let i = Math.max(0, after + 1 - position.first_seq); i < batch.count; i++) {
          if (messages.length === limit) return messages;
          const offset = position.first_seq + i;
          messages.push(new StoredMessage(topic, offset, batch.key(i), batch, i, timestamp));
        }
      }
      if (positions.length < FETCHED_BATCHES) break;
    }
    return messages;
  }

  /**
   * A batch's texts, decoded once: a consumer reading fewer messages at a time than a publish wrote
   * (or two groups reading the same batch in turn) reads it again from here.
   */
  private readBatch(seq: number): ReadBatch | null {
    if (this.lastRead?.seq === seq) return this.lastRead;
    const body = this.statements.batchBody.get(seq);
    if (!body) return null;
    const batch = new DecodedBatch({ keys: body.keys, lengths: body.lengths, values: body.vals });
    this.lastRead = { seq, batch, timestamp: body.timestamp };
    return this.lastRead;
  }

  /** Exactly one commit wins: the row must still hold the offset the batch was read after. */
  commit(topic: string, groupId: string, owner: string, expected: number, next: number): boolean {
    return this.statements.commit.run(next, topic, groupId, owner, expected).changes === 1;
  }

  committedOffset(topic: string, groupId: string): number {
    return this.statements.getGroup.get(topic, groupId)?.committed ?? 0;
  }

  lastOffset(topic: string): number {
    return this.statements.lastOffset.get(topic)?.s ?? 0;
  }

  /** The last offset deleted after every group consumed it (0: nothing was). */
  floorOf(topic: string): number {
    return this.statements.floor.get(topic)?.t ?? 0;
  }

  /** After a commit: deletes what every group of the topic has consumed, at most once a second. */
  trimConsumed(topic: string): void {
    if (this.options.trimConsumed === false) return;
    const now = Date.now();
    // once every group has read all there is, the file is given back at once, whenever the last trim was
    const drained = (this.statements.slowestGroup.get(topic)?.c ?? 0) >= this.lastOffset(topic);
    if (!drained && now - (this.lastTrim.get(topic) ?? 0) < (this.options.trimIntervalMs ?? 1000)) return;
    this.lastTrim.set(topic, now);
    try {
      // While messages flow, the pages freed are left for the next publishes to fill: giving them back
      // then (incremental_vacuum moves the file's last pages into the holes) took 5 % of the main
      // thread's time in a profile of a whole-register sync (the pages freed by ~8,000 aids a second,
      // ~2,000). The file is at most the backlog bound meanwhile, and shrinks when the consumers have
      // caught up.
      if (this.trimTransaction.immediate(topic) > 0 && drained) this.db.pragma('incremental_vacuum');
    } catch (error) {
      // another process trimming or writing: the next commit tries again
      adapterLog.warn({ topic, error: errorMessage(error) }, 'trim of consumed messages postponed');
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Message log is closed');
  }
}

const reportHandlerError = logRetriedHandler(adapterLog, 'consumer failed, retrying');

const reportGap = async (gap: MessageGap): Promise<void> => {
  adapterLog.error({ ...gap }, 'messages deleted before this group consumed them');
};

interface ConsumerSettings {
  topic: string;
  groupId: string;
  handler: BatchHandler;
  batchSize: number;
  owner: string;
  pollIntervalMs: number;
  leaseMs: number;
  retry: RetryPolicy;
  onHandlerError: NonNullable<SqliteMessageLogOptions['onHandlerError']>;
  onGap: (gap: MessageGap) => Promise<void>;
  onStopped: (consumer: PollingConsumer) => void;
}

interface LeasedBatch {
  /** The group's offset the batch was read after: the commit succeeds only if it is still that. */
  committed: number;
  messages: ConsumedMessage[];
  /** Messages deleted before the group read them (it was behind the topic's floor). */
  gap: MessageGap | null;
  /** Where the group's offset goes once the batch is handled. */
  next: number;
}

/** Takes the group's lease, fetches after its offset, hands over a batch, commits (PollingLoop). */
class PollingConsumer implements Consumer, PollingRound<LeasedBatch> {
  private readonly loop: PollingLoop<LeasedBatch>;
  readonly topic: string;
  private failed = false;
  private stopRequested = false;

  constructor(
    private readonly log: SqliteMessageLog,
    private readonly settings: ConsumerSettings,
  ) {
    this.topic = settings.topic;
    const { topic, groupId } = settings;
    this.loop = new PollingLoop(this, {
      name: `consumer ${groupId} on ${topic}`,
      retry: settings.retry,
      onHandlerError: (attempt, retryInMs, error) =>
        settings.onHandlerError({ topic, groupId, attempt, retryInMs, error }),
      onFailure: (error) => {
        this.failed = true;
        adapterLog.error({ topic, groupId, error: errorMessage(error) }, 'consumer stopped');
      },
      onBusy: (attempt, retryInMs, error) =>
        adapterLog.warn(
          { topic, groupId, attempt, retryInMs, error: errorMessage(error) },
          'message log locked by another process: trying again',
        ),
      onStopped: () => settings.onStopped(this),
    });
  }

  wake(): void {
    this.loop.wake();
  }

  caughtUp(): Promise<void> {
    const { topic, groupId } = this.settings;
    return this.loop.caughtUp(
      // a group behind the floor has caught up once it has been told of the gap and passed it
      () => Math.max(this.log.lastOffset(topic), this.log.floorOf(topic)),
      (target) => this.log.committedOffset(topic, groupId) >= target,
    );
  }

  stop(): Promise<void> {
    this.stopRequested = true;
    return this.loop.stop();
  }

  running(): boolean {
    return !this.failed && !this.stopRequested;
  }

  next(): LeasedBatch | null {
    const { topic, groupId, owner, leaseMs, batchSize } = this.settings;
    const committed = this.log.acquireLease(topic, groupId, owner, leaseMs);
    if (committed === null) return null;
    const floor = this.log.floorOf(topic);
    const gap: MessageGap | null =
      committed < floor
        ? {
            topic,
            partition: 0,
            fromOffset: String(committed + 1),
            toOffset: String(floor + 1),
            missing: floor - committed,
          }
        : null;
    const messages = this.log.fetch(topic, Math.max(committed, floor), batchSize);
    if (messages.length === 0 && !gap) return null;
    const last = messages[messages.length - 1];
    return { committed, messages, gap, next: last ? Number(last.offset) : floor };
  }

  async handle(batch: LeasedBatch): Promise<void> {
    const { topic, groupId, owner, leaseMs } = this.settings;
    // A renewal runs on a timer, outside the loop's try: a busy or closing file must not crash the
    // process. A missed renewal is safe, as the commit only succeeds while the lease is ours.
    const renewal = setInterval(() => {
      try {
        this.log.renewLease(topic, groupId, owner, leaseMs);
      } catch (error) {
        adapterLog.warn({ topic, groupId, error: errorMessage(error) }, 'lease renewal failed');
      }
    }, leaseMs / 3);
    try {
      // told first (and again if the handler fails and the batch is retried), as with Kafka
      if (batch.gap) await this.settings.onGap(batch.gap);
      if (batch.messages.length > 0) await this.settings.handler(batch.messages);
    } finally {
      clearInterval(renewal);
    }
  }

  advance(batch: LeasedBatch): void {
    const { topic, groupId, owner } = this.settings;
    // A lost commit means the lease moved on or the group was reset: the batch is not ours to commit.
    if (this.log.commit(topic, groupId, owner, batch.committed, batch.next)) this.log.trimConsumed(topic);
    this.settleWaiters();
  }

  idle(): number {
    // Another consumer of the group may be the one making progress: follow the stored offset.
    this.settleWaiters();
    return this.settings.pollIntervalMs;
  }

  finish(): void {
    const { topic, groupId, owner } = this.settings;
    this.log.releaseLease(topic, groupId, owner);
  }

  private settleWaiters(): void {
    this.loop.waiters.settle(this.log.committedOffset(this.settings.topic, this.settings.groupId));
  }
}

export function openSqliteMessageLog(file: string, options?: SqliteMessageLogOptions): SqliteMessageLog {
  return new SqliteMessageLog(file, options);
}
