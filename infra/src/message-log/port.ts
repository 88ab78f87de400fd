/** Message log port: topics of keyed messages, consumer groups with committed offsets. */
import type { Fence } from '../fencing';

/**
 * A value to be encoded as JSON, or one already encoded — as a text (`json`) or as that text's
 * UTF-8 bytes (`bytes`, how a sync's parser hands its aids over) — which is stored as is.
 */
export type MessageToPublish =
  { key: string; value: unknown } | { key: string; json: string } | { key: string; bytes: Uint8Array };

const utf8 = new TextDecoder();

/** The JSON text a message is stored as. */
export function messageJson(message: MessageToPublish): string {
  if ('json' in message) return message.json;
  if ('bytes' in message) return utf8.decode(message.bytes);
  return JSON.stringify(message.value ?? null);
}

/** Whether the message carries a value (encoded or not). */
export function hasValue(message: MessageToPublish): boolean {
  return 'json' in message || 'bytes' in message || message.value !== undefined;
}

export interface ConsumedMessage<Value = unknown> {
  topic: string;
  partition: number;
  /** Monotonic per partition; opaque string so that Kafka offsets fit. */
  offset: string;
  key: string;
  value: Value;
  /**
   * The value's JSON text, where the adapter has it: a consumer can hand it on (to an index that
   * stores JSON) without decoding and encoding it again. Adapters that have it decode `value` lazily,
   * through an accessor: copy a message field by field, not with a spread.
   */
  json?: string;
  /** The same text as UTF-8 bytes, where the adapter keeps them so (a view: copy what you keep). */
  bytes?: Uint8Array;
  timestamp: string;
}

export type BatchHandler = (batch: ConsumedMessage[]) => Promise<void>;

/**
 * Messages a consumer will never see: the group's position was behind the oldest message the log
 * still keeps (retention, a consumer down too long, a rebuild after deletion), so the log moved it on.
 * `fromOffset` is the first lost offset, `toOffset` the first one delivered again (exclusive end).
 */
export interface MessageGap {
  topic: string;
  partition: number;
  fromOffset: string;
  toOffset: string;
  missing: number;
}

export interface ConsumeOptions {
  topic: string;
  groupId: string;
  handler: BatchHandler;
  batchSize?: number;
  /**
   * Told of a gap before the first batch after it is handled (and retried like the handler until it
   * resolves), so that a loss is recorded rather than skipped silently. Adapters that keep every
   * message never report one.
   */
  onGap?: (gap: MessageGap) => Promise<void>;
}

export interface Consumer {
  /** Stops after the batch being handled (its offsets committed); resolves when stopped. */
  stop(): Promise<void>;
  /** Resolves once every message published before this call has been handled and committed. */
  caughtUp(): Promise<void>;
  /**
   * True while the consumer is connected to its log and consuming; false before it could start (a
   * broker unreachable: it keeps trying), after it failed for good, and once stopped. Health checks
   * read it: a process whose consumer is not running is not healthy.
   */
  running(): boolean;
}

export interface PublishOptions {
  /**
   * The lease holder's fencing token (fencing/): once a later holder of the lease has written to this
   * log (a publish without messages is enough: it raises the fence), no message of an older token is
   * ever delivered. The embedded log refuses the write (FencedError); the Kafka adapter takes it and
   * its consumers drop it (the fence is checked where messages are read: kafka-fencing.ts).
   */
  fence?: Fence;
}

export interface MessageLog {
  publish(topic: string, messages: MessageToPublish[], options?: PublishOptions): Promise<void>;
  /**
   * Consumes from the group's committed offsets (from the beginning for a new group).
   * Offsets are committed only after the handler resolves; a failing handler's batch is retried.
   */
  consume(options: ConsumeOptions): Consumer;
  /** Forgets a group's offsets, so that it consumes from the beginning again (projection rebuilds). */
  resetGroup(topic: string, groupId: string): Promise<void>;
  close(): Promise<void>;
}
