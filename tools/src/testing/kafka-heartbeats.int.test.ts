/**
 * A member busy with one long handler call (a slow index write, back-offs inside it) stays a member:
 * kafkajs heartbeats only between calls, so without beats during the call the broker takes it for
 * dead once its session times out and hands its chunk to the group again — applied twice, while the
 * first member is still writing. Checked on librdkafka's mock cluster, which keeps sessions.
 */
import { openKafkaMessageLog, type KafkaMessageLog } from '@rna/infra/engines';
import { kcatAvailable, startKafkaMock, type KafkaMock } from './kafka-mock';

jest.setTimeout(120_000);

const SESSION_MS = 6_000;

(kcatAvailable() ? describe : describe.skip)(
  'a handler call longer than the session (librdkafka mock)',
  () => {
    let mock: KafkaMock;
    let log: KafkaMessageLog;
    beforeEach(async () => {
      mock = await startKafkaMock();
      log = openKafkaMessageLog({
        idempotent: false, // the mock serves no InitProducerId
        brokers: mock.brokers,
        createTopics: false,
        caughtUpPollMs: 50,
        sessionTimeoutMs: SESSION_MS,
        heartbeatIntervalMs: 500,
        fetchMaxWaitMs: 500,
      });
    });
    afterEach(async () => {
      await log.close();
      await mock.stop();
    });

    it('is handled once: the member beats while the call runs and keeps its partition', async () => {
      await log.publish('aids', [
        { key: 'k', value: { n: 1 } },
        { key: 'k', value: { n: 2 } },
      ]);
      const handled: number[] = [];
      const consumer = log.consume({
        topic: 'aids',
        groupId: 'slow-index',
        batchSize: 1,
        handler: async (batch) => {
          const n = (batch[0]!.value as { n: number }).n;
          // the first call outlasts the session by half of it: a slow bulk write
          if (handled.length === 0) await new Promise((resolve) => setTimeout(resolve, SESSION_MS * 1.5));
          handled.push(n);
        },
      });
      await consumer.caughtUp();
      await consumer.stop();
      expect(handled).toEqual([1, 2]);
    });
  },
);
