/**
 * The services as separate Node processes for the scale-out tests: each runs its compiled main
 * (`services/<x>/dist/main.js`) with a clean environment on the test's pinned date, and keeps what it
 * printed so that a failure can show it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PINNED_TEST_INSTANT, TEST_NOW_ENV } from '@rna/infra/config';

export const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The engine variables `npm run test:engines` sets; without them the scenarios run embedded. */
export const ENGINE_VARIABLES = [
  'EVENTSTORE_URL',
  'KAFKA_BROKERS',
  'ELASTICSEARCH_URL',
  'MONGODB_URI',
] as const;

/** The engines this test run was given (none in `npm test`), for the services it starts. */
export function scenarioEngineEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ENGINE_VARIABLES) {
    const value = process.env[name]?.trim();
    if (value) env[name] = value;
  }
  return env;
}

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/** Brings dist up to date (incremental, quick when it is): the processes run the compiled mains. */
export function buildMains(): void {
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-b'], {
    cwd: ROOT,
    stdio: 'pipe',
    timeout: 200_000,
  });
}

export function startService(
  running: ServiceProcess[],
  name: string,
  service: 'api' | 'sync' | 'projector',
  env: Record<string, string>,
): ServiceProcess {
  const child = spawn(process.execPath, [path.join(ROOT, 'services', service, 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      // Every process reads the same pinned date: fixed test data stays inside the date windows
      // whatever day the suite runs.
      NODE_ENV: 'test',
      [TEST_NOW_ENV]: PINNED_TEST_INSTANT,
      // single work (projections, the sync worker) moves to another process within 2 s of a death
      LEASE_TTL_MS: '2000',
      ...scenarioEngineEnv(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = { name, child, output, exited };
  running.push(started);
  return started;
}

/** Polls `probe` until it answers non-null; on time-out the error shows what every process printed. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | null>,
  running: readonly ServiceProcess[],
  timeoutMs = 120_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value !== null) return value;
    if (Date.now() > deadline) {
      const logs = running.map((s) => `--- ${s.name}\n${s.output.join('').slice(-2000)}`).join('\n');
      throw new Error(`Timed out waiting for ${what}\n${logs}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
