/**
 * The message log contract against a real Kafka-protocol broker: librdkafka's mock cluster (via kcat)
 * by default, or the cluster in KAFKA_BROKERS when set (npm run test:engines).
 */
import { kcatAvailable, startKafkaMock } from './kafka-mock';
import { openKafkaMessageLog } from '@rna/infra/engines';
import { describeMessageLogContract } from '@rna/infra/message-log';

// Group joins on a Kafka coordinator wait for the rebalance delay (about 3 s on the mock cluster).
jest.setTimeout(90_000);

const configuredBrokers = process.env.KAFKA_BROKERS?.split(',').filter(Boolean);
const quietOptions = {
  sessionTimeoutMs: 10_000,
  heartbeatIntervalMs: 500,
  caughtUpPollMs: 50,
  retry: { initialDelayMs: 10, maxDelayMs: 100 },
  onHandlerError: () => undefined,
};

if (configuredBrokers && configuredBrokers.length > 0) {
  let run = 0;
  describeMessageLogContract(`Kafka (${configuredBrokers.join(',')})`, async () => {
    // A real cluster is shared: fresh storage per test = a namespace of its own for topics and groups.
    run += 1;
    const namespace = `contract-${process.pid}-${Date.now()}-${run}.`;
    return {
      open: async () => openKafkaMessageLog({ brokers: configuredBrokers, namespace, ...quietOptions }),
      dispose: async () => undefined,
    };
  });
} else if (kcatAvailable()) {
  describeMessageLogContract('Kafka (librdkafka mock cluster via kcat)', async () => {
    // Fresh storage per test = a fresh mock cluster.
    const mock = await startKafkaMock();
    return {
      open: async () =>
        openKafkaMessageLog({
          brokers: mock.brokers,
          createTopics: false,
          // librdkafka's mock names no controller for kafkajs' InitProducerId: no idempotent producer there
          idempotent: false,
          ...quietOptions,
        }),
      dispose: () => mock.stop(),
    };
  });
} else {
  describe('MessageLog contract: Kafka', () => {
    it.skip('SKIPPED: kcat (librdkafka mock cluster) is not installed and KAFKA_BROKERS is not set', () =>
      undefined);
  });
}
