/**
 * Latency target as capacity: run a load at rising rates and report the highest rate whose p99 stays
 * within the target. Stops at the first rate that misses it, or at one the server cannot sustain
 * (beyond its saturation throughput the open-model latency only measures a growing queue).
 */
export interface SweepStep {
  rate: number;
  p99: number;
  p50: number;
  failures: number;
}

export interface SweepResult {
  steps: SweepStep[];
  /** The highest rate that met the target, or 0 when none did. */
  highestWithinTarget: number;
}

export async function sweepRates(options: {
  rates: readonly number[];
  targetP99Ms: number;
  /** Rates above this are not tried (e.g. 90 % of the saturation throughput). */
  maxRate: number;
  measure(rate: number): Promise<Omit<SweepStep, 'rate'>>;
}): Promise<SweepResult> {
  const steps: SweepStep[] = [];
  let highestWithinTarget = 0;
  for (const rate of [...options.rates].sort((a, b) => a - b)) {
    if (rate > options.maxRate) break;
    const step = { rate, ...(await options.measure(rate)) };
    steps.push(step);
    if (step.failures > 0 || !(step.p99 < options.targetP99Ms)) break;
    highestWithinTarget = rate;
  }
  return { steps, highestWithinTarget };
}

/** A comma-separated list of positive integers, e.g. BENCH_SEARCH_RATES=200,500,1000. */
export function parseRates(raw: string | undefined, fallback: readonly number[]): number[] {
  if (raw === undefined || raw.trim() === '') return [...fallback];
  const rates = raw.split(',').map((part) => Number(part.trim().replace(/_/g, '')));
  if (rates.some((rate) => !Number.isInteger(rate) || rate <= 0))
    throw new Error(`Rates must be positive integers separated by commas, got ${JSON.stringify(raw)}`);
  return rates;
}
