/** Pure mapping of the Kafka message log (the contract suite against a broker runs in tools/src/testing). */
import type { Admin } from 'kafkajs';
import { decodeMessage, encodeMessages, isCaughtUp, keepForever, partitionForKey } from './kafka-message-log';

describe('Kafka message log: mapping', () => {
  it('keeps a tax code on one partition and spreads keys when several partitions are configured', () => {
    expect(partitionForKey('RSSMRA80A01H501U', 1)).toBe(0);
    const spread = new Set(
      ['RSSMRA80A01H501U', '01234567890', 'BNCGNN70B02F205X', '12345678901'].map((k) =>
        partitionForKey(k, 8),
      ),
    );
    expect(spread.size).toBeGreaterThan(1);
    expect(partitionForKey('01234567890', 8)).toBe(partitionForKey('01234567890', 8));
  });

  it('rejects a batch with a message without key before sending anything', () => {
    expect(() =>
      encodeMessages([
        { key: 'a', value: 1 },
        { key: '', value: 2 },
      ]),
    ).toThrow(/Message 1 has no key/);
    expect(encodeMessages([{ key: 'a', value: { n: 1 } }])).toEqual([{ key: 'a', value: '{"n":1}' }]);
  });

  it('decodes key, JSON value and the millisecond timestamp', () => {
    const decoded = decodeMessage('aids', 2, {
      offset: '41',
      key: Buffer.from('01234567890'),
      value: Buffer.from('{"id":7}'),
      timestamp: String(Date.UTC(2024, 0, 2, 3, 4, 5)),
    });
    expect(decoded).toEqual({
      topic: 'aids',
      partition: 2,
      offset: '41',
      key: '01234567890',
      value: { id: 7 },
      timestamp: '2024-01-02T03:04:05.000Z',
    });
  });

  it('is caught up only when every partition has committed its high watermark', () => {
    const marks = [
      { partition: 0, high: '5', low: '0' },
      { partition: 1, high: '0', low: '0' },
    ];
    expect(
      isCaughtUp(marks, [
        { partition: 0, offset: '5' },
        { partition: 1, offset: '-1' },
      ]),
    ).toBe(true);
    expect(isCaughtUp(marks, [{ partition: 0, offset: '4' }])).toBe(false);
    expect(isCaughtUp(marks, [{ partition: 0, offset: '-1' }])).toBe(false);
  });

  describe('a topic that exists already is set to keep every message', () => {
    function fakeAdmin(entries: { configName: string; configValue: string; isDefault: boolean }[]) {
      const altered: unknown[] = [];
      const admin = {
        describeConfigs: async () => ({
          resources: [{ configEntries: entries.map((e) => ({ ...e, readOnly: false })) }],
        }),
        alterConfigs: async (request: unknown) => {
          altered.push(request);
        },
      } as unknown as Admin;
      return { admin, altered };
    }

    it('keeps its other overrides when it changes the retention', async () => {
      const { admin, altered } = fakeAdmin([
        { configName: 'retention.ms', configValue: '604800000', isDefault: true },
        { configName: 'min.insync.replicas', configValue: '2', isDefault: false },
      ]);
      await keepForever(admin, 'aids');
      expect(altered).toEqual([
        {
          validateOnly: false,
          resources: [
            {
              type: expect.any(Number),
              name: 'aids',
              configEntries: [
                { name: 'min.insync.replicas', value: '2' },
                { name: 'retention.ms', value: '-1' },
                { name: 'retention.bytes', value: '-1' },
              ],
            },
          ],
        },
      ]);
    });

    it('changes nothing on a topic that keeps everything already', async () => {
      const { admin, altered } = fakeAdmin([
        { configName: 'retention.ms', configValue: '-1', isDefault: false },
        { configName: 'retention.bytes', configValue: '-1', isDefault: false },
      ]);
      await keepForever(admin, 'aids');
      expect(altered).toEqual([]);
    });
  });
});
