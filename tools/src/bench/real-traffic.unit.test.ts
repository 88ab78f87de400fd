import { seededRandom } from '../generator/random';
import { describeDistribution, shuffled, sizeDistribution, zipfSampler, zipfSizes } from './real-traffic';

describe('real traffic of the search bench', () => {
  it('gives 10,000 codes sizes where most have a handful of aids, a few hundred 100+ and a handful thousands', () => {
    const sizes = zipfSizes(10_000, 1.8, 5_000);
    expect(sizes).toHaveLength(10_000);
    const byBucket = Object.fromEntries(sizeDistribution(sizes).map((row) => [row.label, row.codes]));
    expect(byBucket['1']! + byBucket['2–5']!).toBeGreaterThan(8_000);
    expect(byBucket['100–999']! + byBucket['1,000+']!).toBeGreaterThan(100);
    expect(byBucket['100–999']! + byBucket['1,000+']!).toBeLessThan(400);
    expect(byBucket['1,000+']).toBeGreaterThanOrEqual(5);
    expect(byBucket['1,000+']).toBeLessThan(40);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(5_000);
  });

  it('draws popular codes far more often than rare ones, the same way each run', () => {
    const draw = (seed: number) => {
      const next = zipfSampler(10_000, 1, seededRandom(seed));
      return Array.from({ length: 20_000 }, next);
    };
    const ranks = draw(7);
    expect(draw(7)).toEqual(ranks);
    const count = (rank: number) => ranks.filter((r) => r === rank).length;
    // P(rank 0) = 1 / H(10,000) ≈ 10 %, P(rank 9) ≈ 1 %
    expect(count(0) / ranks.length).toBeGreaterThan(0.08);
    expect(count(0) / ranks.length).toBeLessThan(0.12);
    expect(count(9)).toBeLessThan(count(0) / 5);
    expect(Math.max(...ranks)).toBeLessThan(10_000);
    expect(new Set(ranks).size).toBeGreaterThan(3_000);
  });

  it('shuffles every index exactly once', () => {
    const order = shuffled(1_000, seededRandom(3));
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 1_000 }, (_, i) => i));
    expect(order.slice(0, 10)).not.toEqual(Array.from({ length: 10 }, (_, i) => i));
  });

  it('describes a distribution with its codes and aids per bucket', () => {
    expect(describeDistribution(sizeDistribution([1, 1, 3, 1_200]))).toBe(
      '1: 2 (2 aids); 2–5: 1 (3 aids); 6–20: 0 (0 aids); 21–99: 0 (0 aids); 100–999: 0 (0 aids); 1,000+: 1 (1,200 aids)',
    );
  });
});
