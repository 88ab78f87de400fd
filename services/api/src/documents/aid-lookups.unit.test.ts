import type { AidRecord } from '@rna/domain';
import { aidChangeBucket } from '@rna/read-models';
import { aidLookups, type AidChangeNotes } from './aid-lookups';
import { anAid } from './testing/test-fixtures';

const A = '01234567897';
const B = '09876543210';
const C = '11111111111';

/** The projector's notes: a revision per bucket of tax codes, raised by each change it applies. */
function changeNotes() {
  const revisions = new Map<string, number>();
  const documents: AidChangeNotes = {
    collection: () => ({
      getWithRevision: async (id: string) => {
        const revision = revisions.get(id);
        return revision === undefined ? null : { doc: { id, changedAt: 0 }, revision };
      },
    }),
  };
  return {
    documents,
    changed: (code: string) => {
      const bucket = aidChangeBucket(code);
      revisions.set(bucket, (revisions.get(bucket) ?? 0) + 1);
    },
  };
}

/** Another 11-digit code that falls in the same bucket as `code`. */
function bucketNeighbour(code: string): string {
  for (let n = 0; ; n++) {
    const other = String(n).padStart(11, '0');
    if (other !== code && aidChangeBucket(other) === aidChangeBucket(code)) return other;
  }
}

/** An index holding `aidsPerCode` aids for each code, counting the look-ups it answers. */
function countingIndex(aidsPerCode: Record<string, number>) {
  const calls: string[][] = [];
  let generation = 0;
  return {
    calls,
    /** Later look-ups answer other aids (as after a sync). */
    changeContent: () => (generation += 1),
    lookUp: async (codes: string[]): Promise<AidRecord[]> => {
      calls.push(codes);
      return codes.flatMap((code) =>
        Array.from({ length: aidsPerCode[code] ?? 0 }, (_, i) =>
          anAid({ idComponenteAiuto: `${code}-${generation}-${i}`, codiceFiscaleBeneficiario: code }),
        ),
      );
    },
  };
}

describe('aidLookups', () => {
  it('answers the same codes again without a look-up, in any order and spelling', async () => {
    const index = countingIndex({ [A]: 3, [B]: 2 });
    const cache = aidLookups({ documents: changeNotes().documents });
    const first = await cache.archiveAids([A, B], index.lookUp);
    const again = await cache.archiveAids([` ${B.toLowerCase()} `, A, A], index.lookUp);
    expect(index.calls).toEqual([[A, B]]);
    expect(again.map((aid) => aid.idComponenteAiuto)).toEqual(first.map((aid) => aid.idComponenteAiuto));
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, entries: 1, aids: 5 });
  });

  it('looks up another set of codes, even one that shares a code', async () => {
    const index = countingIndex({ [A]: 3, [B]: 2 });
    const cache = aidLookups({ documents: changeNotes().documents });
    await cache.archiveAids([A, B], index.lookUp);
    const onlyA = await cache.archiveAids([A], index.lookUp);
    expect(index.calls).toEqual([[A, B], [A]]);
    expect(onlyA).toHaveLength(3);
  });

  it('looks up again once one of the codes changed in the index, and keeps the new aids', async () => {
    const notes = changeNotes();
    const index = countingIndex({ [A]: 1, [B]: 1 });
    const cache = aidLookups({ documents: notes.documents });
    await cache.archiveAids([A, B], index.lookUp);
    index.changeContent();
    notes.changed(B);
    const after = await cache.archiveAids([A, B], index.lookUp);
    expect(after.map((aid) => aid.idComponenteAiuto).sort()).toEqual([`${A}-1-0`, `${B}-1-0`]);
    await cache.archiveAids([A, B], index.lookUp);
    expect(index.calls).toHaveLength(2);
  });

  it('keeps answering codes whose neighbours changed', async () => {
    const notes = changeNotes();
    const index = countingIndex({ [A]: 1, [B]: 1 });
    const cache = aidLookups({ documents: notes.documents });
    await cache.archiveAids([A], index.lookUp);
    expect(aidChangeBucket(B)).not.toBe(aidChangeBucket(A));
    notes.changed(B);
    await cache.archiveAids([A], index.lookUp);
    expect(index.calls).toEqual([[A]]);
  });

  it('looks up again when a code of the same bucket changed: never a stale answer, at worst a look-up', async () => {
    const notes = changeNotes();
    const index = countingIndex({ [A]: 1 });
    const cache = aidLookups({ documents: notes.documents });
    await cache.archiveAids([A], index.lookUp);
    notes.changed(bucketNeighbour(A));
    await cache.archiveAids([A], index.lookUp);
    expect(index.calls).toEqual([[A], [A]]);
  });

  it('drops a look-up made while its code was changing: the change lands after the revision read', async () => {
    const notes = changeNotes();
    const index = countingIndex({ [A]: 1 });
    const cache = aidLookups({ documents: notes.documents });
    // the projector writes the index, the look-up reads it, then the projector notes the change
    await cache.archiveAids([A], async (codes) => {
      const aids = await index.lookUp(codes);
      notes.changed(A);
      return aids;
    });
    await cache.archiveAids([A], index.lookUp);
    expect(index.calls).toHaveLength(2);
  });

  it('looks up again after the time to live', async () => {
    let now = 1_000_000;
    const index = countingIndex({ [A]: 1 });
    const cache = aidLookups({ documents: changeNotes().documents, ttlMs: 60_000, now: () => now });
    await cache.archiveAids([A], index.lookUp);
    now += 59_999;
    await cache.archiveAids([A], index.lookUp);
    expect(index.calls).toHaveLength(1);
    now += 1;
    await cache.archiveAids([A], index.lookUp);
    expect(index.calls).toHaveLength(2);
  });

  it('holds at most maxAids aids, dropping the least recently used look-ups first', async () => {
    const index = countingIndex({ [A]: 10, [B]: 10, [C]: 10 });
    const cache = aidLookups({ documents: changeNotes().documents, maxAids: 35, maxAidsPerLookUp: 35 });
    await cache.archiveAids([A], index.lookUp);
    await cache.archiveAids([B], index.lookUp);
    await cache.archiveAids([C], index.lookUp);
    await cache.archiveAids([A], index.lookUp); // A is now the most recent, B the least
    await cache.archiveAids([A, B], index.lookUp); // 20 more: 50 > 35, B then C go
    expect(cache.stats()).toMatchObject({ entries: 2, aids: 30 });
    index.calls.length = 0;
    await cache.archiveAids([A], index.lookUp);
    await cache.archiveAids([A, B], index.lookUp);
    expect(index.calls).toEqual([]);
    await cache.archiveAids([B], index.lookUp);
    await cache.archiveAids([C], index.lookUp);
    expect(index.calls).toEqual([[B], [C]]);
  });

  it('does not keep a look-up larger than a quarter of the bound by default', async () => {
    const index = countingIndex({ [A]: 11 });
    const cache = aidLookups({ documents: changeNotes().documents, maxAids: 40 });
    expect(await cache.archiveAids([A], index.lookUp)).toHaveLength(11);
    await cache.archiveAids([A], index.lookUp);
    expect(index.calls).toHaveLength(2);
    expect(cache.stats()).toMatchObject({ entries: 0, aids: 0 });
  });

  it('shares one look-up between requests that arrive while it runs, and keeps no failure', async () => {
    const index = countingIndex({ [A]: 2 });
    const cache = aidLookups({ documents: changeNotes().documents });
    const both = await Promise.all([
      cache.archiveAids([A], index.lookUp),
      cache.archiveAids([A], index.lookUp),
    ]);
    expect(index.calls).toHaveLength(1);
    expect(both[0]).toHaveLength(2);
    expect(both[1]).toHaveLength(2);

    const failing = async (): Promise<AidRecord[]> => {
      throw new Error('index down');
    };
    await expect(cache.archiveAids([B], failing)).rejects.toThrow('index down');
    await cache.archiveAids([B], index.lookUp);
    expect(index.calls).toEqual([[A], [B]]);
  });

  it('gives each caller its own list: a caller that reorders it changes no other answer', async () => {
    const index = countingIndex({ [A]: 3 });
    const cache = aidLookups({ documents: changeNotes().documents });
    const first = await cache.archiveAids([A], index.lookUp);
    const ids = first.map((aid) => aid.idComponenteAiuto);
    first.reverse();
    expect((await cache.archiveAids([A], index.lookUp)).map((aid) => aid.idComponenteAiuto)).toEqual(ids);
  });
});
