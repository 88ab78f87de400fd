/**
 * Latency at a stated load: requests at a fixed rate over N keep-alive connections (open model),
 * generated on a worker thread so the generator does not share the measured server's event loop.
 * autocannon measures the other thing, a closed loop at saturation, where latency is only the queue
 * (connections ÷ throughput); both are reported.
 */
import { Worker } from 'node:worker_threads';
import { workerScript } from '@rna/infra/embedded';
import { percentile } from './bench-suite';

export interface PacedLoadOptions {
  url: string;
  /** Requests go to these in turn instead (e.g. a different tax code each, so none is a free repeat). */
  urls?: readonly string[];
  headers: Record<string, string>;
  /** With `urls`: request i also sends headerSets[i mod length] (e.g. the token of one of many users). */
  headerSets?: readonly Record<string, string>[];
  connections: number;
  ratePerSecond: number;
  durationSeconds: number;
}

export interface PacedLoadSamples {
  latenciesMs: number[];
  failures: number;
  sent: number;
  elapsedMs: number;
}

export interface PacedLoadResult {
  p50: number;
  p99: number;
  max: number;
  /** Answers per second actually completed (below the offered rate when the server fell behind). */
  achievedRate: number;
  failures: number;
}

export function summarisePacedLoad(samples: PacedLoadSamples): PacedLoadResult {
  const sorted = [...samples.latenciesMs].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    achievedRate: (sorted.length * 1000) / samples.elapsedMs,
    failures: samples.failures,
  };
}

export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const script = workerScript(__dirname, 'paced-load.worker');
  if (!script) throw new Error('paced-load.worker not found next to paced-load');
  const worker = new Worker(script.code, { eval: script.eval, workerData: options });
  try {
    const samples = await new Promise<PacedLoadSamples>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`paced load generator exited (${code})`)));
    });
    return summarisePacedLoad(samples);
  } finally {
    await worker.terminate();
  }
}
