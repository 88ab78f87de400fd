import { parseRates, sweepRates } from './rate-sweep';

/** A server whose p99 grows with the load: 5 ms at 200 req/s, 10 at 500, 30 at 1,000… */
const p99At: Record<number, number> = { 200: 5, 500: 10, 1_000: 30, 2_000: 80 };
const measured: number[] = [];
const measure = async (rate: number) => {
  measured.push(rate);
  return { p50: 1, p99: p99At[rate] ?? 1_000, failures: 0 };
};

beforeEach(() => measured.splice(0));

describe('sweepRates', () => {
  it('reports the highest rate within the target and stops at the first that misses it', async () => {
    const result = await sweepRates({
      rates: [1_000, 200, 2_000, 500],
      targetP99Ms: 25,
      maxRate: 10_000,
      measure,
    });
    expect(result.highestWithinTarget).toBe(500);
    expect(measured).toEqual([200, 500, 1_000]);
    expect(result.steps.map((s) => s.p99)).toEqual([5, 10, 30]);
  });

  it('does not try rates above what the server can sustain', async () => {
    const result = await sweepRates({ rates: [200, 500, 1_000], targetP99Ms: 50, maxRate: 600, measure });
    expect(measured).toEqual([200, 500]);
    expect(result.highestWithinTarget).toBe(500);
  });

  it('counts a step with failed requests as missing the target', async () => {
    const failing = async () => ({ p50: 1, p99: 2, failures: 3 });
    const result = await sweepRates({
      rates: [200, 500],
      targetP99Ms: 25,
      maxRate: 10_000,
      measure: failing,
    });
    expect(result.highestWithinTarget).toBe(0);
    expect(result.steps).toHaveLength(1);
  });
});

describe('parseRates', () => {
  it('reads a comma-separated list, or gives the default', () => {
    expect(parseRates('200, 1_000', [1])).toEqual([200, 1_000]);
    expect(parseRates(undefined, [200, 500])).toEqual([200, 500]);
    expect(() => parseRates('200,fast', [1])).toThrow('positive integers');
  });
});
