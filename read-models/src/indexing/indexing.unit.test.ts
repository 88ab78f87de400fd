import { orderedImportId } from '@rna/domain';
import { importHadAidsSetAside, importMayHaveLostAids, missingMessages, runIndexing, unhealedGaps } from '.';

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

describe('aids set aside by the index', () => {
  const first = orderedImportId(7, 'r1', '2024_01');
  const second = orderedImportId(9, 'r2', '2024_01');
  const last = { sourceFile: '2024_01', importId: first, importedAt: 5_000 };

  it('ask again for the file whose last import lost them, even when the index set them aside before the import ended', () => {
    expect(importHadAidsSetAside([{ sourceFile: '2024_01', importId: first, at: 4_000 }], last)).toBe(true);
    // set aside from an import begun after (still under way or failed)
    expect(importHadAidsSetAside([{ sourceFile: '2024_01', importId: second, at: 4_000 }], last)).toBe(true);
  });

  it('not for a file imported again since, nor for another file, nor for a message without its file', () => {
    const healed = { ...last, importId: second, importedAt: 9_000 };
    expect(importHadAidsSetAside([{ sourceFile: '2024_01', importId: first, at: 8_000 }], healed)).toBe(
      false,
    );
    expect(importHadAidsSetAside([{ sourceFile: '2024_02', importId: first, at: 4_000 }], last)).toBe(false);
    expect(importHadAidsSetAside([{ at: 9_000 }], last)).toBe(false);
  });

  it('compare by time imports named before they were ordered', () => {
    const old = { sourceFile: '2024_01', importId: 'r0:2024_01:x', importedAt: 5_000 };
    expect(importHadAidsSetAside([{ sourceFile: '2024_01', importId: 'r0:2024_01:x', at: 6_000 }], old)).toBe(
      true,
    );
    expect(importHadAidsSetAside([{ sourceFile: '2024_01', at: 4_000 }], old)).toBe(false);
  });
});
