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

/** Operations per second for `count` operations that took `ms`. */
export function rate(count: number, ms: number): number {
  return ms > 0 ? (count * 1000) / ms : Number.POSITIVE_INFINITY;
}
