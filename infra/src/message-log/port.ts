/** Message log port: topics of keyed messages, consumer groups with committed offsets. */

export interface MessageToPublish {
  key: string;
  value: unknown;
}

export interface ConsumedMessage<Value = unknown> {
  topic: string;
  partition: number;
  /** Monotonic per partition; opaque string so that Kafka offsets fit. */
  offset: string;
  key: string;
  value: Value;
  timestamp: string;
}

export type BatchHandler = (batch: ConsumedMessage[]) => Promise<void>;

export interface Consumer {
  /** Stops after the batch being handled (its offsets committed); resolves when stopped. */
  stop(): Promise<void>;
  /** Resolves once every message published before this call has been handled and committed. */
  caughtUp(): Promise<void>;
}

export interface MessageLog {
  publish(topic: string, messages: MessageToPublish[]): Promise<void>;
  /**
   * Consumes from the group's committed offsets (from the beginning for a new group).
   * Offsets are committed only after the handler resolves; a failing handler's batch is retried.
   */
  consume(options: { topic: string; groupId: string; handler: BatchHandler; batchSize?: number }): Consumer;
  /** Forgets a group's offsets, so that it consumes from the beginning again (projection rebuilds). */
  resetGroup(topic: string, groupId: string): Promise<void>;
  close(): Promise<void>;
}
