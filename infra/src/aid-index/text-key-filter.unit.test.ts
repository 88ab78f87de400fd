import { MAX_FILTER_BITS, MIN_FILTER_BITS, TextKeyFilter } from './text-key-filter';
import { textKey } from './compact-aid-rows';

/** Keys as the dictionary makes them: textKey of distinct texts. */
const keysOf = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => textKey(`${prefix} ${i} S.r.l.`));

describe('the filter of text keys', () => {
  it('never says "not stored" of a key it was given, and seldom "may be" of one it was not', () => {
    const stored = keysOf('Impresa', 100_000);
    const filter = new TextKeyFilter(stored.length);
    for (const key of stored) filter.add(key);
    expect(stored.every((key) => filter.mayHave(key))).toBe(true);
    const others = keysOf('Società', 100_000);
    const wrong = others.filter((key) => filter.mayHave(key)).length;
    // sized for its keys: ~20 bits a key, three probes (~0.3 % expected)
    expect(wrong / others.length).toBeLessThan(0.01);
  });

  it('asks to be rebuilt larger once it holds too many keys for its size, up to its largest size', () => {
    const filter = new TextKeyFilter();
    expect(filter.bits).toBe(MIN_FILTER_BITS);
    const keys = keysOf('Titolo', Math.floor(MIN_FILTER_BITS / 10) + 1);
    const last = keys.pop()!;
    for (const key of keys) filter.add(key);
    expect(filter.wantsRebuild).toBe(false);
    filter.add(last);
    expect(filter.wantsRebuild).toBe(true);
    keys.push(last);
    // full, it still answers right for what it holds, only less often right about the rest
    expect(keys.every((key) => filter.mayHave(key))).toBe(true);
    const rebuilt = new TextKeyFilter(keys.length);
    expect(rebuilt.bits).toBeGreaterThan(filter.bits);
    expect(rebuilt.wantsRebuild).toBe(false);
    // a whole register's texts and more: the largest size, which never asks again
    expect(new TextKeyFilter(50_000_000).bits).toBe(MAX_FILTER_BITS);
  });

  it('holds keys of every size textKey makes, the largest and the smallest', () => {
    const filter = new TextKeyFilter();
    const edges = [0, 1, 2 ** 21 - 1, 2 ** 21, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 53 - 2 ** 21];
    for (const key of edges) filter.add(key);
    expect(edges.every((key) => filter.mayHave(key))).toBe(true);
  });
});
