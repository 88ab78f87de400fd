/**
 * Message log on Kafka (kafkajs). Messages are keyed by tax code; consumer groups are Kafka groups.
 *
 * Delivery: eachBatch with autoCommit off. A fetched batch is cut into chunks of `batchSize`; each
 * chunk goes to the handler, and only after it resolves are its offsets resolved and committed
 * (resolveOffset + commitOffsetsIfNecessary with the explicit offsets). A failing handler is retried
 * with back-off inside the batch, heartbeating meanwhile so that a long retry does not cost the
 * partition assignment. Connection loss is handled by kafkajs' retry config (exponential back-off)
 * and restartOnFailure.
 *
 * Ordering: the port promises one order for a topic (the contract reads offsets as increasing across
 * keys), so by default every key goes to partition 0. `partitions` > 1 spreads keys over partitions
 * (order then holds per tax code only) — allowed by Kafka, but not by today's port contract.
 */
import {
  CompressionTypes,
  ConfigResourceTypes,
  Kafka,
  logLevel as KafkaLogLevel,
  type Admin,
  type Consumer as KafkaConsumer,
  type EachBatchPayload,
  type Producer,
} from 'kafkajs';
import { backoffDelay, defaultRetryPolicy, errorMessage, type RetryPolicy } from '../embedded/polling';
import {
  hasValue,
  messageJson,
  type ConsumedMessage,
  type ConsumeOptions,
  type Consumer,
  type MessageGap,
  type MessageLog,
  type MessageToPublish,
  type PublishOptions,
} from './port';
import { adapterLogger, logRetriedHandler } from '../logging';
import {
  decodeFenceState,
  encodeFenceState,
  fenceHeaders,
  sortOutFenced,
  type FenceState,
} from './kafka-fencing';
import type { Fence } from '../fencing';

const adapterLog = adapterLogger('message-log');

export interface KafkaMessageLogOptions {
  brokers: string[];
  clientId?: string;
  /** Partitions used per topic (default 1: one total order per topic, as the port's contract needs). */
  partitions?: number;
  /** Copies of each partition the topic is created with (default: the broker's default.replication.factor). */
  replicationFactor?: number;
  /** Try admin.createTopics on first use (ignored when the cluster refuses; auto-creation then applies). */
  createTopics?: boolean;
  /**
   * Idempotent producer (default true): a send retried after a lost acknowledgement is not written
   * twice. Off only for clusters that cannot serve InitProducerId (librdkafka's mock, in the tests).
   */
  idempotent?: boolean;
  /** Consumer group session timeout (default 30 s) and heartbeat interval (default 3 s). */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** How long a fetch waits for new messages (default 5 s); a consumer's stop waits for the fetch in flight. */
  fetchMaxWaitMs?: number;
  /** How often caughtUp() compares the group's committed offsets with the high watermarks. */
  caughtUpPollMs?: number;
  /** Back-off between attempts of a failing handler. */
  retry?: RetryPolicy;
  /** Reconnection back-off of the client (kafkajs retry config). */
  connectionRetry?: { initialRetryTime: number; maxRetryTime: number; retries: number };
  onHandlerError?: (info: {
    topic: string;
    groupId: string;
    attempt: number;
    retryInMs: number;
    error: unknown;
  }) => void;
  /** Prefix for topic names and group ids, so that environments (or test runs) can share a cluster. */
  namespace?: string;
  /** kafkajs log level (default: errors only). */
  logLevel?: KafkaLogLevel;
  /**
   * The most bytes of messages one Produce request may carry, before compression (default 900 KB):
   * a broker refuses a request over its message.max.bytes (1,048,588 by default) and kafkajs does not
   * retry that, so a publish is split into requests of at most this size.
   */
  maxRequestBytes?: number;
  /** Sees every request the client sends (instrumentation: tests, metrics). */
  onRequest?: (request: { apiName: string; size: number }) => void;
}

export const DEFAULT_MAX_REQUEST_BYTES = 900_000;
/** Topic settings that keep every message: no deletion by age or by size. */
export const KEEP_FOREVER = [
  { name: 'retention.ms', value: '-1' },
  { name: 'retention.bytes', value: '-1' },
];
/** A record's framing besides its key and value (lengths, offsets, timestamp, headers), generously. */
const RECORD_OVERHEAD_BYTES = 64;
/** After a failed topic set-up (create, keep-forever), the next publish tries again after this long. */
export const TOPIC_SETUP_RETRY_MS = 60_000;

/**
 * The settings a topic is created with: every message kept, and with N copies an acknowledged write
 * (acks=all) needs N − 1 of them in sync — one broker may be down, but a write is never acknowledged
 * by a single copy that the next failure loses. With the broker's default replication (unknown here)
 * the broker's own min.insync.replicas applies.
 */
export function topicConfigEntries(replicationFactor: number | undefined): { name: string; value: string }[] {
  const entries = [...KEEP_FOREVER];
  if (replicationFactor !== undefined && replicationFactor >= 2)
    entries.push({ name: 'min.insync.replicas', value: String(replicationFactor - 1) });
  return entries;
}

/**
 * Splits encoded messages, in order, into batches whose keys and values add up to at most
 * `maxBytes`; a single message larger than that cannot be sent and is refused with its size.
 */
export function batchesByBytes<M extends { key: string; value: string; headers?: Record<string, string> }>(
  messages: M[],
  maxBytes: number,
): M[][] {
  const batches: M[][] = [];
  let batch: M[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size =
      Buffer.byteLength(message.key) +
      Buffer.byteLength(message.value) +
      headerBytes(message.headers) +
      RECORD_OVERHEAD_BYTES;
    if (size > maxBytes)
      throw new Error(
        `A message of ${size} bytes (key ${message.key}) exceeds the request budget of ${maxBytes} bytes`,
      );
    // (an empty batch holds 0 bytes, and a message over the budget alone was refused above)
    if (bytes + size > maxBytes) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(message);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

function headerBytes(headers: Record<string, string> | undefined): number {
  let bytes = 0;
  for (const [name, value] of Object.entries(headers ?? {}))
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
  return bytes;
}

/** Stable 32-bit FNV-1a: the same tax code always lands on the same partition. */
export function partitionForKey(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return partitions <= 1 ? 0 : hash % partitions;
}

export function encodeMessages(messages: MessageToPublish[]): { key: string; value: string }[] {
  // Validate the whole batch first, so that an invalid message rejects it as a whole.
  messages.forEach((message, index) => {
    if (typeof message.key !== 'string' || message.key.length === 0) {
      throw new Error(`Message ${index} has no key (a tax code is required)`);
    }
    if (!hasValue(message)) throw new Error(`Message ${index} has no value`);
  });
  return messages.map((message) => ({ key: message.key, value: messageJson(message) }));
}

export function decodeMessage(
  topic: string,
  partition: number,
  message: { offset: string; key: Buffer | null; value: Buffer | null; timestamp: string },
): ConsumedMessage {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString('utf8') ?? '',
    value: message.value === null ? null : (JSON.parse(message.value.toString('utf8')) as unknown),
    timestamp: new Date(Number(message.timestamp)).toISOString(),
  };
}

/**
 * The messages lost before a batch: Kafka resets a group whose committed offset is no longer kept
 * (or that never committed, after the oldest messages were deleted) to the oldest one it has, without
 * telling the consumer. `committed` is the next offset the group should read ('-1': none committed,
 * so offset 0). Topics here are neither compacted nor transactional, so offsets have no other holes.
 */
export function gapBefore(
  topic: string,
  partition: number,
  committed: string,
  firstDelivered: string,
): MessageGap | null {
  const expected = committed === '-1' ? 0n : BigInt(committed);
  const first = BigInt(firstDelivered);
  if (first <= expected) return null;
  return {
    topic,
    partition,
    fromOffset: expected.toString(),
    toOffset: first.toString(),
    missing: Number(first - expected),
  };
}

/**
 * Runs `work`, sending a heartbeat every `everyMs` meanwhile: a member busy with one long call is
 * otherwise taken for dead once its session times out, and its partitions (and the chunk in hand)
 * go to another member while it keeps writing.
 */
export async function beatingWhile<T>(
  heartbeat: () => Promise<void>,
  everyMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const timer = setInterval(() => void heartbeat().catch(() => undefined), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** Kafka commits the NEXT offset to read; '-1' means nothing committed (then the low watermark applies). */
export function isCaughtUp(
  watermarks: { partition: number; high: string; low: string }[],
  committed: { partition: number; offset: string }[],
): boolean {
  return watermarks.every((mark) => {
    const commit = committed.find((c) => c.partition === mark.partition)?.offset ?? '-1';
    const position = commit === '-1' ? BigInt(mark.low) : BigInt(commit);
    return position >= BigInt(mark.high);
  });
}

function chunk<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class KafkaMessageLog implements MessageLog {
  private readonly kafka: Kafka;
  private producer: Promise<Producer> | null = null;
  private admin: Promise<Admin> | null = null;
  /** Per topic, its set-up (or the failed one, tried again after TOPIC_SETUP_RETRY_MS). */
  private readonly knownTopics = new Map<string, { ready: Promise<void>; retryAfter: number | null }>();
  private readonly consumers = new Set<KafkaGroupConsumer>();
  private closed = false;
  /** Publishes of this instance are sent one after another, so that each call keeps its place in the order. */
  private publishQueue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: KafkaMessageLogOptions) {
    this.kafka = new Kafka({
      clientId: options.clientId ?? 'rna-portal',
      brokers: options.brokers,
      logLevel: options.logLevel ?? KafkaLogLevel.ERROR,
      retry: options.connectionRetry ?? { initialRetryTime: 300, maxRetryTime: 30_000, retries: 10 },
    });
  }

  /**
   * With a fence, each message carries the holder's token in its headers, and a publish without
   * messages writes a fence marker to every partition of the topic (a new holder shutting its
   * predecessors out): consumers drop a former holder's messages that come after it (kafka-fencing.ts).
   */
  async publish(topic: string, messages: MessageToPublish[], options: PublishOptions = {}): Promise<void> {
    this.assertOpen();
    const { fence } = options;
    const headers = fence ? fenceHeaders(fence) : undefined;
    const encoded = encodeMessages(messages).map((message) => (headers ? { ...message, headers } : message));
    if (encoded.length === 0 && !fence) return;
    const send = this.publishQueue.then(async () => {
      await this.ensureTopic(topic);
      const producer = await this.getProducer();
      if (encoded.length === 0 && fence) return this.raiseFence(producer, topic, fence);
      // In order, one request after the other, each within the budget and gzip-compressed.
      for (const batch of batchesByBytes(encoded, this.options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES))
        await producer.send({
          topic: this.topicName(topic),
          acks: -1,
          compression: CompressionTypes.GZIP,
          messages: batch,
        });
    });
    this.publishQueue = send.catch(() => undefined);
    await send;
  }

  /**
   * A fence marker on every partition of the topic. The first one goes to partition 0 alone, which
   * creates a topic not there yet (auto-creation); its partitions are then asked of the cluster.
   */
  private async raiseFence(producer: Producer, topic: string, fence: Fence): Promise<void> {
    const name = this.topicName(topic);
    const marker = (partition: number) => ({
      key: null,
      value: null,
      partition,
      headers: fenceHeaders(fence, true),
    });
    await producer.send({ topic: name, acks: -1, messages: [marker(0)] });
    const admin = await this.getAdmin();
    const partitions = (await admin.fetchTopicOffsets(name))
      .map((mark) => mark.partition)
      .filter((p) => p !== 0);
    if (partitions.length > 0)
      await producer.send({ topic: name, acks: -1, messages: partitions.map(marker) });
  }

  private topicName(topic: string): string {
    return `${this.options.namespace ?? ''}${topic}`;
  }

  consume(options: ConsumeOptions): Consumer {
    this.assertOpen();
    const named = {
      ...options,
      topic: this.topicName(options.topic),
      groupId: this.topicName(options.groupId),
    };
    const consumer = new KafkaGroupConsumer(
      this.kafka,
      this.options,
      named,
      () => this.getAdmin(),
      () => this.ensureTopic(options.topic),
    );
    this.consumers.add(consumer);
    consumer.start();
    return {
      stop: async () => {
        await consumer.stop();
        this.consumers.delete(consumer);
      },
      caughtUp: () => consumer.caughtUp(),
      running: () => consumer.running(),
    };
  }

  /**
   * Sets the group's offsets back to the low watermarks. The offset-reset admin APIs need
   * DescribeGroups; instead a short-lived member joins the group and commits the offsets itself.
   */
  async resetGroup(topic: string, groupId: string): Promise<void> {
    this.assertOpen();
    await this.ensureTopic(topic);
    const admin = await this.getAdmin();
    topic = this.topicName(topic);
    const watermarks = await admin.fetchTopicOffsets(topic);
    const resetter = this.kafka.consumer({
      groupId: this.topicName(groupId),
      sessionTimeout: this.options.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: this.options.heartbeatIntervalMs ?? 3_000,
    });
    await resetter.connect();
    try {
      await resetter.subscribe({ topic, fromBeginning: true });
      const joined = new Promise<void>((resolve) => resetter.on(resetter.events.GROUP_JOIN, () => resolve()));
      await resetter.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: async () => undefined,
      });
      await joined;
      await resetter.commitOffsets(
        watermarks.map((mark) => ({ topic, partition: mark.partition, offset: mark.low })),
      );
    } finally {
      await resetter.disconnect();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.consumers].map((consumer) => consumer.stop()));
    this.consumers.clear();
    const producer = this.producer;
    const admin = this.admin;
    await Promise.all([
      producer?.then((p) => p.disconnect()).catch(() => undefined),
      admin?.then((a) => a.disconnect()).catch(() => undefined),
    ]);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Message log is closed');
  }

  private getProducer(): Promise<Producer> {
    if (!this.producer) {
      const partitions = this.options.partitions ?? 1;
      const producer = this.kafka.producer({
        allowAutoTopicCreation: true,
        // One send keeps its order: no reordering retries in flight; and a send retried after a lost
        // acknowledgement is not written twice (the broker drops the producer's repeated sequence).
        maxInFlightRequests: 1,
        idempotent: this.options.idempotent ?? true,
        createPartitioner:
          () =>
          ({ partitionMetadata, message }) =>
            // a fence marker names its partition; a message goes by its tax code
            typeof message.partition === 'number'
              ? message.partition
              : partitionForKey(String(message.key), Math.min(partitions, partitionMetadata.length)),
      });
      const onRequest = this.options.onRequest;
      if (onRequest)
        producer.on(producer.events.REQUEST, (event) =>
          onRequest({ apiName: event.payload.apiName, size: event.payload.size }),
        );
      this.producer = producer.connect().then(() => producer);
      this.producer.catch(() => (this.producer = null));
    }
    return this.producer;
  }

  private getAdmin(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      this.admin = admin.connect().then(() => admin);
      this.admin.catch(() => (this.admin = null));
    }
    return this.admin;
  }

  /**
   * Creates the topic with the configured partitions and replicas, keeping every message for ever:
   * the aids topic is the only copy of what the syncs imported, and a projection rebuilt from it must
   * find it whole. A topic that exists already (auto-created, or by an older version) is set to keep
   * everything too. Where the cluster refuses (the mock, missing ACLs), auto-creation applies and the
   * consumers report any gap.
   */
  private ensureTopic(topic: string): Promise<void> {
    const known = this.knownTopics.get(topic);
    if (known && (known.retryAfter === null || Date.now() < known.retryAfter)) return known.ready;
    const state: { ready: Promise<void>; retryAfter: number | null } = {
      ready: Promise.resolve(),
      retryAfter: null,
    };
    // A set-up that failed is not forgotten for ever (a topic left auto-created with the broker's
    // retention): it is said, the publish goes on, and a later publish tries again.
    state.ready = this.setUpTopic(topic).catch((error: unknown) => {
      state.retryAfter = Date.now() + TOPIC_SETUP_RETRY_MS;
      adapterLog.warn(
        { topic: this.topicName(topic), error: errorMessage(error), retryInMs: TOPIC_SETUP_RETRY_MS },
        'topic set-up failed (created or kept for ever): tried again on a later publish',
      );
    });
    this.knownTopics.set(topic, state);
    return state.ready;
  }

  private async setUpTopic(topic: string): Promise<void> {
    if (this.options.createTopics === false) return;
    const admin = await this.getAdmin();
    const name = this.topicName(topic);
    // resolves false when the topic exists already; throws when the cluster refuses
    await admin.createTopics({
      topics: [
        {
          topic: name,
          numPartitions: this.options.partitions ?? 1,
          replicationFactor: this.options.replicationFactor ?? -1,
          configEntries: topicConfigEntries(this.options.replicationFactor),
        },
      ],
      waitForLeaders: true,
    });
    await keepForever(admin, name);
  }
}

/**
 * Sets an existing topic to keep every message. AlterConfigs replaces the topic's whole set of
 * overrides, so the ones it has are sent again with the retention changed.
 */
export async function keepForever(admin: Admin, topic: string): Promise<void> {
  const described = await admin.describeConfigs({
    includeSynonyms: false,
    resources: [{ type: ConfigResourceTypes.TOPIC, name: topic }],
  });
  const entries = described.resources[0]?.configEntries ?? [];
  const overrides = new Map(
    entries.filter((e) => !e.isDefault && !e.readOnly).map((e) => [e.configName, e.configValue]),
  );
  if (KEEP_FOREVER.every(({ name, value }) => overrides.get(name) === value)) return;
  for (const { name, value } of KEEP_FOREVER) overrides.set(name, value);
  await admin.alterConfigs({
    validateOnly: false,
    resources: [
      {
        type: ConfigResourceTypes.TOPIC,
        name: topic,
        configEntries: [...overrides].map(([name, value]) => ({ name, value })),
      },
    ],
  });
}

class KafkaGroupConsumer {
  private readonly consumer: KafkaConsumer;
  private stopping = false;
  private stopped: Promise<void> | null = null;
  private started: Promise<void> | null = null;
  /** Per partition, the next offset this member expects to be delivered. */
  private readonly nextOffsets = new Map<number, string>();
  /** Per partition, the fences read up to there (kafka-fencing.ts), as committed with the offset. */
  private readonly fenceStates = new Map<number, FenceState>();
  private positions: Promise<void> = Promise.resolve();

  constructor(
    kafka: Kafka,
    private readonly options: KafkaMessageLogOptions,
    private readonly settings: ConsumeOptions,
    private readonly admin: () => Promise<Admin>,
    private readonly ensureTopic: () => Promise<void>,
  ) {
    this.consumer = kafka.consumer({
      groupId: settings.groupId,
      sessionTimeout: options.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: options.heartbeatIntervalMs ?? 3_000,
      maxWaitTimeInMs: options.fetchMaxWaitMs ?? 5_000,
      retry: {
        ...(options.connectionRetry ?? { initialRetryTime: 300, maxRetryTime: 30_000, retries: 10 }),
        restartOnFailure: async () => true,
      },
    });
  }

  /** Connected and consuming (kafkajs restarts a crashed consumer by itself, rejoining the group). */
  private up = false;

  running(): boolean {
    return this.up && !this.stopping;
  }

  /**
   * Starts the consumer, and keeps trying with back-off while the cluster cannot be reached (a
   * projector started during a Kafka outage consumes once Kafka is back, instead of idling for ever).
   */
  start(): void {
    this.consumer.on(this.consumer.events.CRASH, () => (this.up = false));
    this.consumer.on(this.consumer.events.GROUP_JOIN, () => {
      this.up = true;
      // Where the group stood before kafkajs may move it (see gapBeforeBatch): again after each
      // rebalance, since another member may have gone on meanwhile.
      this.positions = this.readPositions();
    });
    const retry = this.options.retry ?? defaultRetryPolicy;
    this.started = (async () => {
      for (let attempt = 1; !this.stopping; attempt++) {
        try {
          await this.startOnce();
          return;
        } catch (error) {
          const retryInMs = backoffDelay(retry, attempt);
          adapterLog.error(
            {
              topic: this.settings.topic,
              groupId: this.settings.groupId,
              attempt,
              retryInMs,
              error: errorMessage(error),
            },
            'consumer failed to start: trying again',
          );
          await this.consumer.disconnect().catch(() => undefined);
          await sleep(retryInMs);
        }
      }
    })();
  }

  private async startOnce(): Promise<void> {
    await this.ensureTopic();
    await this.consumer.connect();
    this.positions = this.readPositions();
    await this.positions;
    await this.consumer.subscribe({ topic: this.settings.topic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.handleBatch(payload),
    });
  }

  private async handleBatch(payload: EachBatchPayload): Promise<void> {
    const { batch, resolveOffset, commitOffsetsIfNecessary, heartbeat, isRunning, isStale } = payload;
    const { topic, groupId, handler } = this.settings;
    const retry = this.options.retry ?? defaultRetryPolicy;
    let gap = await this.gapBeforeBatch(batch.topic, batch.partition, batch.messages[0]?.offset);
    for (const messages of chunk(batch.messages, this.settings.batchSize ?? 100)) {
      if (this.stopping || !isRunning() || isStale()) return;
      const fenced = sortOutFenced(messages, this.fenceStates.get(batch.partition) ?? new Map());
      if (fenced.shutOut.length > 0) reportShutOut(batch.topic, batch.partition, groupId, fenced.shutOut);
      const consumed = fenced.deliver.map((message) => decodeMessage(batch.topic, batch.partition, message));
      for (let attempt = 1; ; attempt++) {
        try {
          if (gap) {
            await (this.settings.onGap ?? reportGap)(gap);
            gap = null;
          }
          // a chunk the index takes long over (a slow bulk write, back-offs inside it) must not outlive
          // the member's session: kafkajs heartbeats only between calls, so beat while it runs
          if (consumed.length > 0)
            await beatingWhile(heartbeat, this.options.heartbeatIntervalMs ?? 3_000, () => handler(consumed));
          break;
        } catch (error) {
          const retryInMs = backoffDelay(retry, attempt);
          (this.options.onHandlerError ?? reportHandlerError)({ topic, groupId, attempt, retryInMs, error });
          await sleep(retryInMs);
          // Uncommitted: the next owner of the partition (or this one after a restart) gets the chunk again.
          if (this.stopping || !isRunning() || isStale()) return;
          await heartbeat();
        }
      }
      const last = messages[messages.length - 1]!;
      const next = (BigInt(last.offset) + 1n).toString();
      this.nextOffsets.set(batch.partition, next);
      resolveOffset(last.offset);
      // the fences read travel with the offset (its metadata, which kafkajs passes on but does not
      // declare), so that a consumer resuming here still knows them
      const committed = {
        partition: batch.partition,
        offset: next,
        metadata: encodeFenceState(fenced.state),
      };
      await commitOffsetsIfNecessary({ topics: [{ topic: batch.topic, partitions: [committed] }] });
      this.fenceStates.set(batch.partition, fenced.state);
      await heartbeat();
    }
  }

  /**
   * The group's committed positions. When kafkajs finds a committed offset the broker no longer
   * keeps, it commits its default (-2, "earliest") over it and fetches from the oldest message; a
   * position read as -2 therefore says nothing, and the one known before is kept.
   */
  private async readPositions(): Promise<void> {
    const admin = await this.admin();
    const [offsets] = await admin.fetchOffsets({
      groupId: this.settings.groupId,
      topics: [this.settings.topic],
    });
    for (const { partition, offset, metadata } of offsets?.partitions ?? []) {
      if (offset === '-1') {
        this.nextOffsets.set(partition, '0');
        this.fenceStates.set(partition, new Map());
      } else if (BigInt(offset) >= 0n) {
        this.nextOffsets.set(partition, offset);
        this.fenceStates.set(partition, decodeFenceState(metadata));
      }
    }
  }

  /** The gap before a batch's first message, against where the group stood. */
  private async gapBeforeBatch(
    topic: string,
    partition: number,
    firstOffset: string | undefined,
  ): Promise<MessageGap | null> {
    if (firstOffset === undefined) return null;
    await this.positions.catch(() => undefined);
    // Unknown only when the group was reset before this member ever read its position: all of
    // the partition before the first message delivered is then counted as possibly lost.
    return gapBefore(topic, partition, this.nextOffsets.get(partition) ?? '0', firstOffset);
  }

  async caughtUp(): Promise<void> {
    const { topic, groupId } = this.settings;
    const admin = await this.admin();
    await this.ensureTopic();
    const watermarks = await admin.fetchTopicOffsets(topic);
    for (;;) {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      if (isCaughtUp(watermarks, offsets?.partitions ?? [])) return;
      if (this.stopping) throw new Error(`Consumer ${groupId} on ${topic} stopped before catching up`);
      await sleep(this.options.caughtUpPollMs ?? 100);
    }
  }

  stop(): Promise<void> {
    if (!this.stopped) {
      this.stopping = true;
      // disconnect() waits for the batch in progress (and its commit), then leaves the group.
      this.stopped = (this.started ?? Promise.resolve())
        .catch(() => undefined)
        .then(() => this.consumer.disconnect());
    }
    return this.stopped;
  }
}

const reportHandlerError = logRetriedHandler(adapterLog, 'consumer failed, retrying');

function reportShutOut(
  topic: string,
  partition: number,
  groupId: string,
  shutOut: { fence: Fence; laterToken: number }[],
) {
  const { fence, laterToken } = shutOut[0]!;
  adapterLog.warn(
    {
      topic,
      partition,
      groupId,
      messages: shutOut.length,
      lease: fence.name,
      token: fence.token,
      laterToken,
    },
    "a former lease holder's messages after a later holder's fence: not delivered",
  );
}

function reportGap(gap: MessageGap) {
  adapterLog.error({ ...gap }, 'messages were gone before they were consumed');
  return Promise.resolve();
}

export function openKafkaMessageLog(options: KafkaMessageLogOptions): KafkaMessageLog {
  return new KafkaMessageLog(options);
}
