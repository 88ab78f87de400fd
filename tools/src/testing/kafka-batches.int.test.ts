/**
 * Produce requests a real broker accepts: a sync publishes thousands of aids at once, and a broker
 * refuses any request over its message.max.bytes (1,048,588 by default; kafkajs does not retry that).
 * Measured on the wire against librdkafka's mock cluster, which itself accepts any size.
 */
import { encodeAidRecorded } from '@rna/domain';
import { messageJson, type MessageToPublish } from '@rna/infra';
import { batchesByBytes, DEFAULT_MAX_REQUEST_BYTES, openKafkaMessageLog } from '@rna/infra/engines';
import { syntheticAids } from '../bench/suites/storage';
import { kcatAvailable, startKafkaMock, type KafkaMock } from './kafka-mock';

jest.setTimeout(90_000);

/** 2,000 aids as a sync publishes them (AidRecorded, keyed by tax code), ~1 KB of JSON each. */
function realisticPublish(): MessageToPublish[] {
  return syntheticAids(0, 2_000, 400).map((aid) => ({
    key: aid.codiceFiscaleBeneficiario,
    json: encodeAidRecorded(JSON.stringify(aid)),
  }));
}

describe('batches by bytes', () => {
  it('splits in order at the budget and refuses a message that alone exceeds it', () => {
    const messages = ['a'.repeat(300), 'b'.repeat(300), 'c'.repeat(300), 'd'.repeat(10)].map((value, i) => ({
      key: `k${i}`,
      value,
    }));
    const batches = batchesByBytes(messages, 800);
    expect(batches.map((batch) => batch.map((m) => m.key))).toEqual([
      ['k0', 'k1'],
      ['k2', 'k3'],
    ]);
    expect(() => batchesByBytes([{ key: 'k', value: 'x'.repeat(2_000) }], 800)).toThrow(
      /exceeds the request budget/,
    );
  });
});

(kcatAvailable() ? describe : describe.skip)('Produce requests on the wire (librdkafka mock cluster)', () => {
  let mock: KafkaMock;
  beforeEach(async () => {
    mock = await startKafkaMock();
  });
  afterEach(() => mock.stop());

  async function publishAndMeasure(maxRequestBytes?: number) {
    const produce: number[] = [];
    const log = openKafkaMessageLog({
      // librdkafka's mock names no controller for kafkajs' InitProducerId: no idempotent producer there
      idempotent: false,
      brokers: mock.brokers,
      createTopics: false,
      maxRequestBytes,
      onRequest: ({ apiName, size }) => {
        if (apiName === 'Produce') produce.push(size);
      },
    });
    try {
      const messages = realisticPublish();
      await log.publish('aids', messages);
      const uncompressed = messages.reduce((sum, m) => sum + m.key.length + messageJson(m).length, 0);
      return { produce, uncompressed };
    } finally {
      await log.close();
    }
  }

  it('sends a realistic 2,000-aid publish in requests under the default budget, gzip-compressed', async () => {
    const { produce, uncompressed } = await publishAndMeasure();
    expect(uncompressed).toBeGreaterThan(DEFAULT_MAX_REQUEST_BYTES); // one request would not do
    expect(produce.length).toBeGreaterThan(0);
    expect(Math.max(...produce)).toBeLessThanOrEqual(DEFAULT_MAX_REQUEST_BYTES);
    // compressed: the requests carry far fewer bytes than the JSON
    expect(produce.reduce((a, b) => a + b, 0)).toBeLessThan(uncompressed / 2);
  });

  it('keeps every request within a smaller budget by splitting the publish', async () => {
    const { produce, uncompressed } = await publishAndMeasure(200_000);
    expect(produce.length).toBeGreaterThanOrEqual(Math.ceil(uncompressed / 200_000));
    expect(Math.max(...produce)).toBeLessThanOrEqual(200_000);
  });
});
