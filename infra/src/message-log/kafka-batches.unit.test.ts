import { randomBytes } from 'node:crypto';
import { batchesByBytes, partitionForKey, topicConfigEntries } from './kafka-message-log';

/** What the broker counts of a record, uncompressed: its key and value bytes and the framing. */
const FRAMING = 64;
const wireBytes = (message: { key: string; value: string }) =>
  Buffer.byteLength(message.key) + Buffer.byteLength(message.value) + FRAMING;

/** Values that no compression shrinks (random bytes), of varied sizes. */
function incompressibleMessages(count: number, maxValueBytes: number) {
  return Array.from({ length: count }, (_, i) => ({
    key: `RSSMRA80A01H501${i % 10}`,
    value: randomBytes(1 + ((i * 7919) % maxValueBytes)).toString('base64'),
    seq: i,
  }));
}

describe('Kafka request batches', () => {
  it('keep every request within the budget counted in uncompressed bytes, in order, losing nothing', () => {
    const budget = 50_000;
    const messages = incompressibleMessages(2_000, 9_000);
    const batches = batchesByBytes(messages, budget);
    expect(batches.flat().map((m) => m.seq)).toEqual(messages.map((m) => m.seq));
    for (const batch of batches) {
      expect(batch.reduce((sum, m) => sum + wireBytes(m), 0)).toBeLessThanOrEqual(budget);
    }
    // each request is as full as it can be: the next message would not have fitted in it
    for (let i = 0; i < batches.length - 1; i++) {
      const bytes = batches[i]!.reduce((sum, m) => sum + wireBytes(m), 0);
      expect(bytes + wireBytes(batches[i + 1]![0]!)).toBeGreaterThan(budget);
    }
    expect(batches.length).toBeGreaterThan(1);
  });

  it('counts bytes, not characters, of accented and non-Latin text', () => {
    const value = 'è'.repeat(400); // 800 bytes in UTF-8
    const messages = Array.from({ length: 10 }, (_, i) => ({ key: `K${i}`, value }));
    const budget = 3 * (800 + 2 + FRAMING);
    const batches = batchesByBytes(messages, budget);
    expect(batches.map((b) => b.length)).toEqual([3, 3, 3, 1]);
  });

  it('refuses a single message larger than the budget, naming its size', () => {
    const big = { key: 'K', value: 'x'.repeat(1_000) };
    expect(() => batchesByBytes([{ key: 'A', value: 'a' }, big], 1_000)).toThrow(
      /1065 bytes \(key K\) exceeds the request budget of 1000 bytes/,
    );
  });

  it('sends a message that fills the budget exactly, alone', () => {
    const exact = { key: 'K', value: 'x'.repeat(1_000 - 1 - FRAMING) };
    expect(batchesByBytes([exact, exact], 1_000)).toEqual([[exact], [exact]]);
    expect(batchesByBytes([], 1_000)).toEqual([]);
  });
});

describe('Kafka partitions', () => {
  it('put a tax code always on the same partition, and spread codes over all of them', () => {
    const codes = Array.from({ length: 1_000 }, (_, i) => `CODE${i}`);
    const first = codes.map((code) => partitionForKey(code, 6));
    expect(codes.map((code) => partitionForKey(code, 6))).toEqual(first);
    expect(new Set(first)).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    expect(codes.every((code) => partitionForKey(code, 1) === 0)).toBe(true);
  });
});

describe('Kafka topic settings', () => {
  it('keep every message, and with N copies acknowledge a write only once N − 1 hold it', () => {
    expect(topicConfigEntries(3)).toEqual([
      { name: 'retention.ms', value: '-1' },
      { name: 'retention.bytes', value: '-1' },
      { name: 'min.insync.replicas', value: '2' },
    ]);
    expect(topicConfigEntries(2)).toContainEqual({ name: 'min.insync.replicas', value: '1' });
    // one copy, or the broker's default replication: the broker's own setting applies
    for (const copies of [1, undefined])
      expect(topicConfigEntries(copies).map((entry) => entry.name)).toEqual([
        'retention.ms',
        'retention.bytes',
      ]);
  });
});
