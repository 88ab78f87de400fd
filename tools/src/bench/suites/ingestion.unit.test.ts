import { ingestionRows, type IngestionMeasure, type IngestionResult } from './ingestion';

const sample = (label: string, records: number, recordsPerSecond: number): IngestionMeasure => ({
  label,
  records,
  seconds: records / recordsPerSecond,
  recordsPerSecond,
  xmlMegabytesPerSecond: recordsPerSecond / 1000,
  peakRssMb: 300,
  mainThreadBusy: 0.4,
});

function result(e2eRecords: number[]): IngestionResult {
  const parseOnlySamples = [18_000, 20_000, 19_000].map((r) => sample('parse only', 1_000, r));
  const endToEndSamples = e2eRecords.map((records, i) => sample('end to end', records, 10_000 + i * 1_000));
  return {
    aids: 1_000,
    expectedRecords: 1_000,
    zipMegabytes: 1,
    xmlMegabytes: 2,
    parseOnly: parseOnlySamples[2]!,
    endToEnd: endToEndSamples[1]!,
    parseOnlySamples,
    endToEndSamples,
    ratio: 0.58,
    incomplete: endToEndSamples
      .filter((m) => m.records !== 1_000)
      .map((m) => `${m.label}: ${m.records} of 1000 records`),
    targets: { ratio: false, rss: true },
  };
}

describe('ingestion bench rows', () => {
  it('reports the median of the samples with their spread when every record arrived', () => {
    const [throughput] = ingestionRows(result([1_000, 1_000, 1_000]));
    expect(throughput).toMatchObject({ value: 11_000, baseline: 19_000 });
    expect(throughput?.note).toContain('min 10,000 / median 11,000 / max 12,000 (3 samples)');
    expect(throughput?.note).toContain('1000 records in the files, parsed and indexed');
  });

  it('gives no figure and says INCOMPLETE when a sample indexed fewer records than the files hold', () => {
    const [throughput, xml] = ingestionRows(result([1_000, 740, 1_000]));
    expect(throughput?.value).toBeNaN();
    expect(xml?.value).toBeNaN();
    expect(throughput?.note).toContain('INCOMPLETE: end to end: 740 of 1000 records');
  });
});
