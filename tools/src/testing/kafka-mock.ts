/**
 * A real Kafka-protocol broker for tests: librdkafka's mock cluster, started through Debian's kcat.
 * kcat keeps the cluster alive while its stdin stays open; the bootstrap address is printed on stderr.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

export interface KafkaMock {
  /** host:port of the mock cluster's bootstrap broker. */
  brokers: string[];
  stop(): Promise<void>;
}

const BOOTSTRAP_LINE = /bootstrap\.servers=([\d.]+:\d+)/;

/** True when kcat is on the PATH (tests skip the real-broker suite, with a message, when it is not). */
export function kcatAvailable(): boolean {
  const probe = spawnSync('kcat', ['-V'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

export function startKafkaMock(
  options: { brokers?: number; startTimeoutMs?: number } = {},
): Promise<KafkaMock> {
  const brokerCount = options.brokers ?? 1;
  const child = spawn(
    'kcat',
    [
      '-P',
      '-t',
      'mock-keepalive',
      '-X',
      `test.mock.num.brokers=${brokerCount}`,
      '-b',
      'localhost:1',
      '-d',
      'mock',
    ],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  return new Promise<KafkaMock>((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kcat mock cluster did not print its bootstrap address: ${stderr.slice(0, 500)}`));
    }, options.startTimeoutMs ?? 10_000);
    const onData = (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = BOOTSTRAP_LINE.exec(stderr);
      if (!match?.[1]) return;
      clearTimeout(timer);
      // Keep draining stderr (debug logs) so the pipe never fills and blocks the cluster.
      stderr = '';
      resolve({ brokers: [match[1]], stop: () => stopChild(child) });
    };
    child.stderr?.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new Error(`kcat exited (${String(code)}) before the mock cluster was ready: ${stderr.slice(0, 500)}`),
      );
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    // Closing stdin ends kcat's producer loop, which tears the mock cluster down.
    child.stdin?.end();
    setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
  });
}
