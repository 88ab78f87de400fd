/**
 * Fencing on Kafka with keys spread over several partitions: the later holder's fence must reach every
 * partition, since a former holder's late message lands on whichever partition its tax code maps to.
 * Against librdkafka's mock cluster, which auto-creates topics with several partitions.
 */
import { execFileSync } from 'node:child_process';
import type { ConsumedMessage } from '@rna/infra';
import { openKafkaMessageLog, partitionForKey, type KafkaMessageLog } from '@rna/infra/engines';
import { kcatAvailable, startKafkaMock, type KafkaMock } from './kafka-mock';

jest.setTimeout(120_000);

const PARTITIONS = 3;

/** A tax code-like key for each partition, found by the adapter's own key mapping. */
function keyPerPartition(): string[] {
  const keys: string[] = [];
  for (let i = 0; keys.length < PARTITIONS; i++) {
    const key = `RSSMRA80A01H50${i}`;
    if (keys[partitionForKey(key, PARTITIONS)] === undefined) keys[partitionForKey(key, PARTITIONS)] = key;
    if (i > 1_000) throw new Error('no key found for every partition');
  }
  return keys;
}

(kcatAvailable() ? describe : describe.skip)('Kafka fences over several partitions (librdkafka mock)', () => {
  let mock: KafkaMock;
  const logs: KafkaMessageLog[] = [];
  const open = () => {
    const log = openKafkaMessageLog({
      // librdkafka's mock names no controller for kafkajs' InitProducerId: no idempotent producer there
      idempotent: false,
      brokers: mock.brokers,
      createTopics: false,
      partitions: PARTITIONS,
      caughtUpPollMs: 50,
      sessionTimeoutMs: 6_000,
      heartbeatIntervalMs: 500,
      fetchMaxWaitMs: 500,
    });
    logs.push(log);
    return log;
  };
  beforeEach(async () => {
    mock = await startKafkaMock();
  });
  afterEach(async () => {
    for (const log of logs.splice(0)) await log.close();
    await mock.stop();
  });

  it("drops a former holder's late messages on every partition, and delivers the rest", async () => {
    const former = open();
    const later = open();
    const keys = keyPerPartition();
    const each = (round: string) => keys.map((key) => ({ key, value: { round, key } }));
    const fence = (token: number) => ({ name: 'sync-worker', token });

    await former.publish('aids', each('before'), { fence: fence(1) });
    await later.publish('aids', [], { fence: fence(2) });
    await former.publish('aids', each('late'), { fence: fence(1) });
    await later.publish('aids', each('after'), { fence: fence(2) });

    // the topic really is spread: the broker (asked by another client) holds messages on each partition
    const metadata = execFileSync('kcat', ['-b', mock.brokers.join(','), '-L', '-t', 'aids'], {
      encoding: 'utf8',
    });
    expect((metadata.match(/partition \d+,/g) ?? []).length).toBeGreaterThanOrEqual(PARTITIONS);

    const seen: ConsumedMessage[] = [];
    const consumer = later.consume({
      topic: 'aids',
      groupId: 'index',
      handler: async (batch) => void seen.push(...batch),
    });
    await consumer.caughtUp();
    await consumer.stop();
    const rounds = (partition: number) =>
      seen.filter((m) => m.partition === partition).map((m) => (m.value as { round: string }).round);
    for (let partition = 0; partition < PARTITIONS; partition++)
      expect(rounds(partition)).toEqual(['before', 'after']);
    expect(seen.map((m) => m.key).sort()).toEqual([...keys, ...keys].sort());
  });
});
