/**
 * The search bench's "real traffic": many distinct tax codes whose sizes follow a Zipf-like law (most
 * companies have a handful of aids, a few hundred have 100 or more, a handful thousands), searched
 * with a Zipf-like popularity (a few codes are asked for often, most rarely).
 */

/**
 * `codes` sizes (aids per code, largest first) distributed as P(size = k) ∝ k^-exponent for k in
 * 1…maxSize: each size gets its expected share of the codes, rounded on the running total, so the
 * law is followed exactly instead of sampled (and the largest sizes appear when their share adds up
 * to a code).
 */
export function zipfSizes(codes: number, exponent: number, maxSize: number): number[] {
  const weights = Array.from({ length: maxSize }, (_, i) => (i + 1) ** -exponent);
  const total = weights.reduce((sum, w) => sum + w, 0);
  const sizes: number[] = [];
  let cumulative = 0;
  // from the largest size down, so that the rare large codes are not all rounded away
  for (let size = maxSize; size >= 1; size--) {
    cumulative += (weights[size - 1]! / total) * codes;
    const upTo = Math.min(codes, Math.round(cumulative));
    while (sizes.length < upTo) sizes.push(size);
  }
  while (sizes.length < codes) sizes.push(1);
  return sizes;
}

/** Draws ranks 0…n-1 with P(rank r) ∝ (r + 1)^-exponent (Zipf's popularity law). */
export function zipfSampler(n: number, exponent: number, random: () => number): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) {
    sum += (r + 1) ** -exponent;
    cdf[r] = sum;
  }
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** A seeded permutation of 0…n-1 (Fisher–Yates). */
export function shuffled(n: number, random: () => number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

export const SIZE_BUCKETS = [
  { label: '1', min: 1, max: 1 },
  { label: '2–5', min: 2, max: 5 },
  { label: '6–20', min: 6, max: 20 },
  { label: '21–99', min: 21, max: 99 },
  { label: '100–999', min: 100, max: 999 },
  { label: '1,000+', min: 1_000, max: Number.POSITIVE_INFINITY },
] as const;

/** How many of `sizes` fall in each bucket, and how many aids they hold. */
export function sizeDistribution(sizes: readonly number[]): { label: string; codes: number; aids: number }[] {
  return SIZE_BUCKETS.map((bucket) => {
    const inBucket = sizes.filter((size) => size >= bucket.min && size <= bucket.max);
    return { label: bucket.label, codes: inBucket.length, aids: inBucket.reduce((sum, s) => sum + s, 0) };
  });
}

/** "1: 6,123 codes (6,123 aids); 2–5: …", one line of a distribution. */
export function describeDistribution(rows: { label: string; codes: number; aids: number }[]): string {
  const f = (n: number) => n.toLocaleString('en-US');
  return rows.map((row) => `${row.label}: ${f(row.codes)} (${f(row.aids)} aids)`).join('; ');
}
