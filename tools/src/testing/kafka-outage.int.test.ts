/**
 * A consumer started while Kafka cannot be reached (a projector started during an outage): it is not
 * running (its health check says so), keeps trying, and consumes once the cluster answers. The cluster
 * is reached through a port that refuses connections until the test opens it to librdkafka's mock.
 */
import net from 'node:net';
import { openKafkaMessageLog } from '@rna/infra/engines';
import { until } from '../e2e/harness/ui';
import { kcatAvailable, startKafkaMock, type KafkaMock } from './kafka-mock';

jest.setTimeout(120_000);

/** A TCP port that refuses connections until open() forwards it to `target` (host:port). */
async function gate(): Promise<{
  address: string;
  refused(): number;
  open(target: string): void;
  close(): Promise<void>;
}> {
  let target: string | null = null;
  let refused = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (!target) {
      refused += 1;
      return void client.destroy(); // refused: the cluster is down
    }
    const [host, port] = target.split(':');
    const upstream = net.connect(Number(port), host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    refused: () => refused,
    open: (to) => void (target = to),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

(kcatAvailable() ? describe : describe.skip)(
  'a consumer started during a Kafka outage (librdkafka mock)',
  () => {
    let mock: KafkaMock;
    beforeEach(async () => {
      mock = await startKafkaMock();
    });
    afterEach(async () => {
      await mock.stop();
    });

    it('is not running while the cluster cannot be reached, keeps trying, and consumes once it can', async () => {
      const door = await gate();
      const quiet = {
        idempotent: false, // librdkafka's mock names no controller for kafkajs' InitProducerId
        createTopics: false,
        caughtUpPollMs: 50,
        sessionTimeoutMs: 6_000,
        heartbeatIntervalMs: 500,
        fetchMaxWaitMs: 500,
        retry: { initialDelayMs: 100, maxDelayMs: 500 },
        connectionRetry: { initialRetryTime: 100, maxRetryTime: 300, retries: 1 },
      };
      const publisher = openKafkaMessageLog({ brokers: mock.brokers, ...quiet });
      const consumerLog = openKafkaMessageLog({ brokers: [door.address], ...quiet });
      const seen: string[] = [];
      const consumer = consumerLog.consume({
        topic: 'aids',
        groupId: 'projection:aid-index',
        handler: async (batch) => void seen.push(...batch.map((m) => m.key)),
      });
      try {
        await publisher.publish('aids', [{ key: 'A', value: 1 }]);
        // several attempts refused while the cluster is down (counted at the door): not running,
        // nothing consumed
        await until(async () => door.refused() >= 4, 'four refused connections', 60_000);
        expect(consumer.running()).toBe(false);
        expect(seen).toEqual([]);
        // the cluster is back: the consumer starts by itself and consumes what was published
        door.open(mock.brokers[0]!);
        await until(async () => consumer.running(), 'the consumer running', 60_000);
        await publisher.publish('aids', [{ key: 'B', value: 2 }]);
        await until(async () => seen.length === 2, 'both messages consumed', 60_000);
        expect(seen).toEqual(['A', 'B']);
      } finally {
        await consumer.stop();
        expect(consumer.running()).toBe(false);
        await consumerLog.close();
        await publisher.close();
        await door.close();
      }
    });
  },
);
