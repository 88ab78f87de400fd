/**
 * No silent loss: a consumer whose position is no longer kept by the broker is moved on to the oldest
 * message there is, and Kafka does not say so. librdkafka's mock cluster keeps only the last few MB of
 * a partition, which makes that happen on demand; the adapter must report the gap.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { ConsumedMessage, MessageGap } from '@rna/infra';
import { gapBefore, openKafkaMessageLog, type KafkaMessageLog } from '@rna/infra/engines';
import { kcatAvailable, startKafkaMock, type KafkaMock } from './kafka-mock';

jest.setTimeout(120_000);

describe('gap before a batch', () => {
  it('is the offsets between the group position and the first message delivered', () => {
    expect(gapBefore('aids', 0, '-1', '0')).toBeNull();
    expect(gapBefore('aids', 0, '120', '120')).toBeNull();
    expect(gapBefore('aids', 0, '120', '100')).toBeNull();
    expect(gapBefore('aids', 2, '-1', '5')).toEqual({
      topic: 'aids',
      partition: 2,
      fromOffset: '0',
      toOffset: '5',
      missing: 5,
    });
    expect(gapBefore('aids', 0, '1000', '22868')?.missing).toBe(21_868);
  });
});

/** ~1 KB of incompressible text a message, so that the mock's small log rolls over quickly. */
function bulky(round: number, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    key: `k${i % 50}`,
    value: { round, i, payload: randomBytes(700).toString('base64') },
  }));
}

(kcatAvailable() ? describe : describe.skip)('a consumer behind the retained log (librdkafka mock)', () => {
  let mock: KafkaMock;
  let log: KafkaMessageLog;
  beforeEach(async () => {
    mock = await startKafkaMock();
    log = openKafkaMessageLog({
      // librdkafka's mock names no controller for kafkajs' InitProducerId: no idempotent producer there
      idempotent: false,
      brokers: mock.brokers,
      createTopics: false,
      caughtUpPollMs: 50,
      // The mock waits out a departed member's session before a group is rebalanced.
      sessionTimeoutMs: 6_000,
      heartbeatIntervalMs: 500,
      fetchMaxWaitMs: 500,
    });
  });
  afterEach(async () => {
    await log.close();
    await mock.stop();
  });

  /**
   * The oldest offset the broker still keeps of partition 0, asked of the broker by another client
   * (kcat's offset query for the beginning, -2), not computed by the adapter under test.
   */
  async function lowWatermark(): Promise<bigint> {
    const answer = execFileSync('kcat', ['-b', mock.brokers.join(','), '-Q', '-t', 'aids:0:-2'], {
      encoding: 'utf8',
    });
    const offset = /offset (\d+)/.exec(answer)?.[1];
    if (offset === undefined) throw new Error(`kcat gave no offset: ${answer}`);
    return BigInt(offset);
  }

  async function consumeAll(groupId: string) {
    const gaps: MessageGap[] = [];
    const offsets: bigint[] = [];
    const consumer = log.consume({
      topic: 'aids',
      groupId,
      batchSize: 500,
      handler: async (batch: ConsumedMessage[]) => {
        for (const message of batch) offsets.push(BigInt(message.offset));
      },
      onGap: async (gap) => {
        gaps.push(gap);
      },
    });
    await consumer.caughtUp();
    await consumer.stop();
    return { gaps, offsets };
  }

  it('reports the messages deleted before a group first read them, and those it fell behind on', async () => {
    // A group reads the first thousand messages, then is away while 15 MB more arrive.
    await log.publish('aids', bulky(0, 1_000));
    const early = await consumeAll('projection:early');
    expect(early.gaps).toEqual([]);
    expect(early.offsets).toHaveLength(1_000);
    for (let round = 1; round <= 15; round++) await log.publish('aids', bulky(round, 1_000));

    const low = await lowWatermark();
    expect(low).toBeGreaterThan(1000n); // the broker really dropped what the group had not read
    const late = await consumeAll('projection:early');
    expect(late.gaps).toHaveLength(1);
    const [gap] = late.gaps;
    expect(gap!.fromOffset).toBe('1000');
    // the gap ends where the broker's kept log begins, as the broker says (not as the adapter computes)
    expect(gap!.toOffset).toBe(low.toString());
    expect(gap!.missing).toBe(Number(low - 1000n));
    // What it lost is exactly what it never got: the next offset delivered closes the gap.
    expect(BigInt(gap!.toOffset)).toBe(late.offsets[0]);
    expect(gap!.missing).toBe(Number(late.offsets[0]! - 1000n));
    expect(gap!.missing).toBeGreaterThan(0);
    expect(late.offsets.at(-1)).toBe(15_999n);

    // A new group (a rebuild) starts after the oldest kept message: the beginning is reported lost.
    const fresh = await consumeAll('projection:rebuilt');
    expect(fresh.gaps.map((g) => [g.fromOffset, g.toOffset])).toEqual([
      ['0', (await lowWatermark()).toString()],
    ]);

    // Once past the gap, a group that keeps up loses nothing more.
    await log.publish('aids', bulky(31, 10));
    const after = await consumeAll('projection:early');
    expect(after.gaps).toEqual([]);
    expect(after.offsets).toHaveLength(10);
  });
});
