/**
 * Which text keys (textKey) may be in the dictionary: a Bloom filter, so that a text met for the
 * first time is known to be new without a query. The index writer looks a text up in text_keys
 * whenever its memo misses, and most of those texts are new (a company or a title never met). The
 * writer alone on 3 million generated aids made 2.72 million such queries, 15 % of its CPU at 7 µs
 * each, 1.6 million of them for texts not stored; with the filter 1.13 million were left (9,100 of
 * them false "may have"), and 6.4 s less time in them. The queries cost more as the dictionary
 * outgrows the page cache.
 *
 * "May have" can be wrong (a few per cent of new texts are then looked up as before), "has not"
 * never is. Pure: the caller adds every key it stores or reads, and rebuilds the filter from all keys
 * when `wantsRebuild` says it is too full to answer well.
 */

/** Bits per key below which the filter asks to be rebuilt larger: ~1.7 % false "may have" at 3 probes. */
const MIN_BITS_PER_KEY = 10;
/** Bits of the smallest filter (128 KB): a test's index or a new register's first months. */
export const MIN_FILTER_BITS = 2 ** 20;
/**
 * Bits of the largest (8 MB): ~10 million texts, a whole register's, at 6.7 bits a key (~5 % false
 * "may have", still 95 % of the queries saved); a larger one would add to a peak memory already
 * near the sync's budget.
 */
export const MAX_FILTER_BITS = 2 ** 26;

export class TextKeyFilter {
  private readonly words: Uint32Array;
  private readonly mask: number;
  /** Keys added (one added twice counts twice). */
  private keys = 0;

  /** A filter sized for `expectedKeys` (a power of two of bits, between the bounds; `minBits` for tests). */
  constructor(expectedKeys = 0, minBits = MIN_FILTER_BITS) {
    let bits = minBits;
    while (bits < MAX_FILTER_BITS && bits < expectedKeys * MIN_BITS_PER_KEY * 2) bits *= 2;
    this.words = new Uint32Array(bits / 32);
    this.mask = bits - 1;
  }

  get bits(): number {
    return this.mask + 1;
  }

  add(key: number): void {
    this.keys++;
    let h = firstProbe(key);
    const step = probeStep(key);
    for (let probe = 0; probe < PROBES; probe++) {
      const bit = h & this.mask;
      this.words[bit >>> 5]! |= 1 << (bit & 31);
      h = (h + step) | 0;
    }
  }

  /** False only for a key never added. */
  mayHave(key: number): boolean {
    let h = firstProbe(key);
    const step = probeStep(key);
    for (let probe = 0; probe < PROBES; probe++) {
      const bit = h & this.mask;
      if ((this.words[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
      h = (h + step) | 0;
    }
    return true;
  }

  /** Too few bits a key, and room to grow: make a new one sized for every key, and add them all. */
  get wantsRebuild(): boolean {
    return this.bits < MAX_FILTER_BITS && this.keys * MIN_BITS_PER_KEY > this.bits;
  }
}

const PROBES = 3;

// The bits a key sets: double hashing on the key's two halves, mixed (a key's 53 bits hold up to 2^53).
const highHalf = (key: number) => Math.floor(key / 0x100000000);
const firstProbe = (key: number) => Math.imul((key >>> 0) ^ highHalf(key), 0x9e3779b1);
const probeStep = (key: number) => Math.imul(highHalf(key) ^ ((key >>> 0) >>> 15), 0x85ebca6b) | 1;
