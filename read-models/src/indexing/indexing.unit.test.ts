import { importMayHaveLostAids, missingMessages, runIndexing, unhealedGaps } from '.';

describe('indexing of a run', () => {
  it('counts the aids of published files, and of those the index applied whole', () => {
    const files = [
      { importId: 'run:2024_01:a', records: 1_200 },
      { importId: 'run:2024_02:b', records: 800 },
      { importId: null, records: 0 }, // skipped as unchanged: nothing published
      { records: 5 }, // not published yet
    ];
    expect(runIndexing(files, (id) => id === 'run:2024_01:a')).toEqual({ published: 2_000, indexed: 1_200 });
    expect(runIndexing(files, () => true)).toEqual({ published: 2_000, indexed: 2_000 });
    expect(runIndexing([], () => false)).toEqual({ published: 0, indexed: 0 });
  });

  it('adds up the messages lost over every gap', () => {
    expect(missingMessages([{ missing: 21_868 }, { missing: 5 }])).toBe(21_873);
    expect(missingMessages([])).toBe(0);
  });
});

describe('healing a gap', () => {
  const gap = { detectedAt: 5_000, missing: 600 };

  it('asks again for every file imported before the gap was found', () => {
    expect(importMayHaveLostAids([gap], 4_000)).toBe(true);
    expect(importMayHaveLostAids([gap], 5_000)).toBe(true);
    expect(importMayHaveLostAids([gap], 6_000)).toBe(false);
    expect(importMayHaveLostAids([], 1)).toBe(false);
  });

  it('is healed once each of those files has been imported again', () => {
    const before = { lastUpdate: 4_000 };
    const never = { lastUpdate: null };
    expect(unhealedGaps([gap], [before, never])).toEqual([gap]);
    expect(unhealedGaps([gap], [{ lastUpdate: 7_000 }, never])).toEqual([]);
    expect(unhealedGaps([gap], [{ lastUpdate: 7_000 }, before])).toEqual([gap]);
  });
});
