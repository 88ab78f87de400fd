import {
  formatDuration,
  formatIngestionTable,
  ingestionRows,
  type IngestionMeasure,
  type IngestionResult,
} from './ingestion';

const sample = (label: string, records: number, recordsPerSecond: number): IngestionMeasure => ({
  label,
  records,
  seconds: records / recordsPerSecond,
  recordsPerSecond,
  xmlMegabytesPerSecond: recordsPerSecond / 1000,
  peakRssMb: 300,
  mainThreadBusy: 0.4,
  coresUsed: 1.5,
});

function result(e2eRecords: number[]): IngestionResult {
  const parseOnlySamples = [18_000, 20_000, 19_000].map((r) => sample('parse only', 1_000, r));
  const endToEndSamples = e2eRecords.map((records, i) => sample('end to end', records, 10_000 + i * 1_000));
  const endToEndAllSamples = [17_000, 16_000, 18_000].map((r) => sample('end to end, 2 threads', 1_000, r));
  return {
    aids: 1_000,
    threads: 2,
    expectedRecords: 1_000,
    zipMegabytes: 1,
    xmlMegabytes: 2,
    parseOnly: parseOnlySamples[2]!,
    endToEnd: endToEndSamples[1]!,
    endToEndAll: endToEndAllSamples[0]!,
    parseOnlySamples,
    endToEndSamples,
    endToEndAllSamples,
    ratio: 0.58,
    speedup: 1.55,
    twentyMillionSeconds: { one: 1818, all: 1176 },
    incomplete: endToEndSamples
      .filter((m) => m.records !== 1_000)
      .map((m) => `${m.label}: ${m.records} of 1000 records`),
    targets: { ratio: false, speedup: false, rss: true },
  };
}

describe('ingestion bench rows', () => {
  it('reports all threads against one thread, as medians with their spread, when every record arrived', () => {
    const [all, one, twentyMillion] = ingestionRows(result([1_000, 1_000, 1_000]));
    expect(all).toMatchObject({ value: 17_000, baseline: 11_000 });
    expect(all?.metric).toContain('2 parser threads');
    expect(all?.note).toContain('min 16,000 / median 17,000 / max 18,000 (3 samples)');
    expect(all?.note).toContain('1000 records in the files, parsed and indexed');
    expect(one).toMatchObject({ value: 11_000, baseline: 19_000 });
    expect(twentyMillion).toMatchObject({ value: 1176 / 60, baseline: 1818 / 60, unit: 'min' });
  });

  it('gives no figure and says INCOMPLETE when a sample indexed fewer records than the files hold', () => {
    const [all, one, twentyMillion, xml] = ingestionRows(result([1_000, 740, 1_000]));
    for (const row of [all, one, twentyMillion, xml]) expect(row?.value).toBeNaN();
    expect(all?.note).toContain('INCOMPLETE: end to end: 740 of 1000 records');
  });

  it('prints the ratio of all threads to one, whether the target is met, and the time for 20 million aids', () => {
    const table = formatIngestionTable(result([1_000, 1_000, 1_000]));
    expect(table).toContain(
      '1 parser thread 11000 records/s, 2 parser threads 17000 records/s: 1.55× (target ≥ 1.6×: MISSED)',
    );
    expect(table).toContain('20 million aids at these rates: 30 min with 1 parser thread, 20 min with 2');
  });

  it('writes durations in hours and minutes', () => {
    expect(formatDuration(4_560)).toBe('1 h 16 min');
    expect(formatDuration(1_176)).toBe('20 min');
  });
});
