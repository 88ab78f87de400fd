/**
 * The archive's aids of a search, kept briefly so that the same search's Excel and PDF (and the same
 * codes searched again, by anyone, with any display filter: the filters apply after the look-up) do
 * not look them up again. Only the look-up is kept: every search and report still goes through the
 * quota decision, its refusals and its audit event (performSearch), exactly as without the cache.
 *
 * Versioned by the aid-index projection's own note of what it changed: whenever the projector indexes,
 * changes or withdraws an aid it raises the revision of the code's bucket (read-models' aid-changes:
 * 1,024 buckets of tax codes), after the index write and in the same batch. A bucket shared with a
 * changed code only costs a look-up again, never a stale answer. The revisions are read BEFORE the
 * look-up and an entry is served only while they are unchanged, so an entry can never hide a change
 * the index has applied: a change that lands between the revision read and the look-up raises the
 * revision afterwards and the entry is dropped at its next use. (The archive's "last update" is no
 * such signal: it moves when a file's import ends, before the projector has indexed its aids, and not
 * at all for a run that only withdraws.)
 *
 * Per process: the scale-out runs several API processes and each keeps its own entries; correctness
 * never depends on sharing them, only on the revisions every process reads from the one document store.
 *
 * Bounded by the aids held (least recently used entries go first) and by age (an entry is looked up
 * again after `ttlMs`, whatever the revisions say, which also bounds the life of an entry in the one
 * case the revisions cannot see: an index write whose batch failed before its note was written).
 * The aid records are shared between the answers that use them: nobody may change them (the search
 * path only filters and maps them into new rows).
 */
import { normalizeTaxCode, type AidRecord } from '@rna/domain';
import type { Collection } from '@rna/infra';
import { AID_CHANGE_BUCKETS_COLLECTION, aidChangeBucket, type AidChangeBucketDoc } from '@rna/read-models';

/**
 * Default bound on the aids held. Measured: ~530 bytes of heap per synthetic aid, so ~25–50 MB with
 * the register's longer texts; a search of 5 codes × 10 aids takes 50.
 */
export const DEFAULT_CACHED_AIDS = 50_000;
/** A search's Excel and PDF come within minutes of it. */
export const DEFAULT_CACHE_TTL_MS = 10 * 60_000;

/** The part of the document store the cache reads: the revisions of the changed codes' buckets. */
export interface AidChangeNotes {
  collection(
    name: typeof AID_CHANGE_BUCKETS_COLLECTION,
  ): Pick<Collection<AidChangeBucketDoc>, 'getWithRevision'>;
}

export interface AidLookupsOptions {
  documents: AidChangeNotes;
  /** Aids held at most over all entries (default 50,000). */
  maxAids?: number;
  /** The largest look-up kept (default a quarter of maxAids), so that one company does not empty the cache. */
  maxAidsPerLookUp?: number;
  /** How long an entry may be served (ms, default 10 minutes). */
  ttlMs?: number;
  now?: () => number;
}

export interface AidLookupStats {
  entries: number;
  aids: number;
  hits: number;
  misses: number;
}

export interface AidLookups {
  /**
   * The archive's aids of `taxCodes` (newest first, as the index answers): from an entry when none
   * of the codes changed in the index since it was looked up, else from `lookUp` (given the codes
   * normalised, sorted and without repeats), kept for the next time.
   */
  archiveAids(
    taxCodes: readonly string[],
    lookUp: (taxCodes: string[]) => Promise<AidRecord[]>,
  ): Promise<AidRecord[]>;
  stats(): AidLookupStats;
}

interface Entry {
  /** The revisions of the codes' buckets when the look-up started. */
  versions: string;
  storedAt: number;
  /** Pending while the look-up runs: requests for the same codes meanwhile share it. */
  aids: Promise<readonly AidRecord[]>;
  /** 0 until the look-up answered. */
  size: number;
}

export function aidLookups(options: AidLookupsOptions): AidLookups {
  const maxAids = options.maxAids ?? DEFAULT_CACHED_AIDS;
  const maxAidsPerLookUp = options.maxAidsPerLookUp ?? Math.floor(maxAids / 4);
  const ttlMs = options.ttlMs ?? DEFAULT_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const buckets = options.documents.collection(AID_CHANGE_BUCKETS_COLLECTION);
  // Map order is the recency order: a hit moves its entry to the end, eviction takes the first.
  const entries = new Map<string, Entry>();
  let held = 0;
  let hits = 0;
  let misses = 0;

  const versionsOf = async (codes: readonly string[]) => {
    const ids = [...new Set(codes.map(aidChangeBucket))];
    const revisions = await Promise.all(
      ids.map(async (id) => (await buckets.getWithRevision(id))?.revision ?? 0),
    );
    return ids.map((id, i) => `${id}:${revisions[i]}`).join(',');
  };

  const remove = (key: string, entry: Entry) => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    held -= entry.size;
  };

  const keep = (key: string, entry: Entry, aids: readonly AidRecord[]) => {
    if (entries.get(key) !== entry) return;
    if (aids.length > maxAidsPerLookUp) {
      remove(key, entry);
      return;
    }
    entry.size = aids.length;
    held += aids.length;
    for (const [oldKey, old] of entries) {
      if (held <= maxAids) break;
      remove(oldKey, old);
    }
  };

  return {
    async archiveAids(taxCodes, lookUp) {
      const codes = [...new Set(taxCodes.map(normalizeTaxCode))].sort();
      const key = codes.join(',');
      const versions = await versionsOf(codes);
      const found = entries.get(key);
      if (found && found.versions === versions && now() - found.storedAt < ttlMs) {
        hits += 1;
        entries.delete(key);
        entries.set(key, found);
        return [...(await found.aids)];
      }
      if (found) remove(key, found);
      misses += 1;
      const entry: Entry = { versions, storedAt: now(), aids: lookUp(codes), size: 0 };
      entries.set(key, entry);
      let aids: readonly AidRecord[];
      try {
        aids = await entry.aids;
      } catch (error) {
        // a failed look-up is not kept: the next request tries again
        remove(key, entry);
        throw error;
      }
      keep(key, entry, aids);
      return [...aids];
    },
    stats: () => ({ entries: entries.size, aids: held, hits, misses }),
  };
}
