/** What a benchmark suite is: a name and a function that measures and returns rows. Figures are printed, never asserted. */

export interface BenchContext {
  /** A fresh directory for this suite, removed after it ran. */
  tmpDir: string;
  /** Progress messages (stderr), so the table on stdout stays clean. */
  log(message: string): void;
  env: NodeJS.ProcessEnv;
}

export interface BenchRow {
  metric: string;
  value: number;
  unit: string;
  /** The same work done the simplest possible way (e.g. raw SQLite), for a ratio. */
  baseline?: number;
  note?: string;
}

export interface BenchSuite {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<BenchRow[]>;
}

/** Reads a positive integer from the environment, with a default. */
export function envInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

export function percentile(sortedValues: number[], p: number): number {
  if (sortedValues.length === 0) return Number.NaN;
  const index = Math.min(
    sortedValues.length - 1,
    Math.max(0, Math.ceil((p / 100) * sortedValues.length) - 1),
  );
  return sortedValues[index]!;
}

/** Samples the process's resident memory; returns the peak in MB when stopped. */
export function rssSampler(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return () => {
    clearInterval(timer);
    return Math.round(Math.max(peak, process.memoryUsage().rss) / 1e6);
  };
}

/** Operations per second for `count` operations that took `ms`. */
export function rate(count: number, ms: number): number {
  return ms > 0 ? (count * 1000) / ms : Number.POSITIVE_INFINITY;
}

/** Samples per measured figure: one sample is an anecdote on a shared VM. */
export const SAMPLES = 3;

export interface Spread {
  min: number;
  median: number;
  max: number;
  count: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    min: sorted[0] ?? Number.NaN,
    median: percentile(sorted, 50),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    count: sorted.length,
  };
}

/** "min 1.2 / median 1.4 / max 1.9 (3 samples)", the note that goes with a row's median. */
export function describeSpread(s: Spread, digits = 1): string {
  const f = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: digits });
  return `min ${f(s.min)} / median ${f(s.median)} / max ${f(s.max)} (${s.count} samples)`;
}

/**
 * Runs the baseline and the subject `samples` times each, alternating which goes first (warm caches,
 * a page cache filled by the one before, thermal state), so that neither always has the advantage.
 */
export async function alternating<B, S>(
  samples: number,
  baseline: (sample: number) => Promise<B>,
  subject: (sample: number) => Promise<S>,
): Promise<{ baseline: B[]; subject: S[] }> {
  const result = { baseline: [] as B[], subject: [] as S[] };
  for (let i = 0; i < samples; i++) {
    if (i % 2 === 0) {
      result.baseline.push(await baseline(i));
      result.subject.push(await subject(i));
    } else {
      result.subject.push(await subject(i));
      result.baseline.push(await baseline(i));
    }
  }
  return result;
}

/**
 * Runs each side `samples` times; sample i starts with side i (mod the number of sides) and goes
 * round from there, so that no side always runs first or always right after the same other one.
 */
export async function rotating<T>(
  samples: number,
  sides: readonly ((sample: number) => Promise<T>)[],
): Promise<T[][]> {
  const result = sides.map(() => [] as T[]);
  for (let i = 0; i < samples; i++) {
    for (let k = 0; k < sides.length; k++) {
      const side = (i + k) % sides.length;
      result[side]!.push(await sides[side]!(i));
    }
  }
  return result;
}

/**
 * The load under which a suite's figures were taken: the 1-minute load average before it started
 * (what else ran) and when it ended (the suite's own work included), beside the number of cores.
 */
export function loadLine(suite: string, load: { start: number; end: number }, cores: number): string {
  const verdict =
    load.start < cores * 0.25
      ? 'idle'
      : load.start < cores
        ? 'partly busy'
        : 'busy: figures slower than idle';
  return (
    `${suite}: machine load ${load.start.toFixed(2)} before (${verdict}), ${load.end.toFixed(2)} at the end ` +
    `(1-minute average, ${cores} cores)`
  );
}
