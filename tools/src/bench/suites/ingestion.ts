/**
 * Ingestion bench: zipped register files over HTTP from the mirror → sync worker → `aids` topic →
 * searchable aid index (embedded SQLite adapters), next to parse-only throughput of the same
 * files in the same run. Size: BENCH_INGEST_AIDS components (default 1,000,000).
 * Targets: end to end ≥ 70 % of parse-only records/s; peak RSS < 400 MB.
 * Each side runs SAMPLES times, alternating which goes first; the figures are medians with their
 * spread. A figure counts only when every record arrived: records in the files = records parsed =
 * aids indexed, else the row says INCOMPLETE.
 * Standalone: node tools/dist/bench/suites/ingestion.js
 */
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import unzipper from 'unzipper';
import { openSqliteAidIndex } from '@rna/infra/aid-index';
import { openSqliteDocumentStore } from '@rna/infra/documents';
import { openSqliteEventStore } from '@rna/infra/event-store';
import { openSqliteMessageLog } from '@rna/infra/message-log';
import { HttpRegisterClient, parseAidStream } from '@rna/infra/register';
import { startAidIndexProjection } from '@rna/projector/aids';
import { requestSync } from '@rna/api';
import { startSyncWorker } from '@rna/sync';
import {
  alternating,
  describeSpread,
  envInt,
  SAMPLES,
  spread,
  type BenchRow,
  type BenchSuite,
  type Spread,
} from '../bench-suite';
import { generateArchive } from '../../generator/generate';
import { startMirror } from '../../rna-mirror/server';

export interface IngestionMeasure {
  label: string;
  records: number;
  seconds: number;
  recordsPerSecond: number;
  xmlMegabytesPerSecond: number;
  peakRssMb: number;
  /** Share of the time the main thread was busy (the rest it waited: I/O, the parser thread, timers). */
  mainThreadBusy: number;
}

export interface IngestionResult {
  aids: number;
  /** Aid components the generator wrote into the files: what every run must find. */
  expectedRecords: number;
  zipMegabytes: number;
  xmlMegabytes: number;
  /** The median sample of each side (by records/s), and every sample. */
  parseOnly: IngestionMeasure;
  endToEnd: IngestionMeasure;
  parseOnlySamples: IngestionMeasure[];
  endToEndSamples: IngestionMeasure[];
  ratio: number;
  /** Samples whose record count differs from the files': their speed is not a figure. */
  incomplete: string[];
  targets: { ratio: boolean; rss: boolean };
}

const MONTHS = ['2024_01', '2024_02', '2024_03', '2024_04'];

/** Samples the process's resident memory; returns the peak in MB when stopped. */
function rssSampler(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return () => {
    clearInterval(timer);
    return Math.round(Math.max(peak, process.memoryUsage().rss) / 1e6);
  };
}

function measure(
  label: string,
  records: number,
  xmlBytes: number,
  ms: number,
  peakRssMb: number,
  mainThreadBusy: number,
): IngestionMeasure {
  const seconds = ms / 1000;
  return {
    label,
    records,
    seconds: Math.round(seconds * 10) / 10,
    recordsPerSecond: Math.round(records / seconds),
    xmlMegabytesPerSecond: Math.round((xmlBytes / 1e6 / seconds) * 10) / 10,
    peakRssMb,
    mainThreadBusy: Math.round(mainThreadBusy * 100) / 100,
  };
}

/** Generates the files once per size (kept under .bench/, which git ignores). */
async function prepareFiles(
  aids: number,
): Promise<{ dir: string; xmlBytes: number; zipBytes: number; components: number; files: string[] }> {
  // v2: the manifest also counts the components written (completeness check).
  const dir = path.resolve('.bench', `ingestion-${aids}-v2`);
  const manifest = path.join(dir, 'manifest.json');
  if (!existsSync(manifest)) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    console.log(`genero ${aids} componenti in ${dir}…`);
    const result = await generateArchive({
      outDir: dir,
      months: MONTHS,
      aids,
      zip: true,
      seed: 2024,
      truthFile: null,
    });
    const { stat } = await import('node:fs/promises');
    let zipBytes = 0;
    for (const file of result.files) zipBytes += (await stat(file.path)).size;
    await writeFile(
      manifest,
      JSON.stringify({
        xmlBytes: result.files.reduce((sum, f) => sum + f.xmlBytes, 0),
        zipBytes,
        components: result.components,
        files: result.files.map((f) => f.path),
      }),
    );
  }
  return {
    dir,
    ...(JSON.parse(await readFile(manifest, 'utf8')) as {
      xmlBytes: number;
      zipBytes: number;
      components: number;
      files: string[];
    }),
  };
}

async function parseOnly(files: string[], xmlBytes: number): Promise<IngestionMeasure> {
  const stopSampling = rssSampler();
  const loop = performance.eventLoopUtilization();
  const started = performance.now();
  let records = 0;
  for (const file of files) {
    const xml = createReadStream(file).pipe(unzipper.ParseOne(/\.xml$/i));
    const report = await parseAidStream(xml, {
      sourceFile: path.basename(file),
      importId: 'bench',
      onBatch: async () => undefined,
    });
    records += report.records;
  }
  return measure(
    'parse only (unzip + parse)',
    records,
    xmlBytes,
    performance.now() - started,
    stopSampling(),
    performance.eventLoopUtilization(loop).utilization,
  );
}

async function endToEnd(dir: string, xmlBytes: number): Promise<IngestionMeasure> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-ingestion-'));
  const eventStore = openSqliteEventStore(path.join(dataDir, 'events.db'));
  const messageLog = openSqliteMessageLog(path.join(dataDir, 'messages.db'));
  const aidIndex = openSqliteAidIndex(path.join(dataDir, 'aids.db'));
  const documents = openSqliteDocumentStore(path.join(dataDir, 'documents.db'));
  const mirror = await startMirror({ dir });
  const register = new HttpRegisterClient({ baseUrl: mirror.url });
  const clock = { now: () => new Date('2024-06-15T00:00:00Z') };
  const worker = startSyncWorker({ eventStore, messageLog, aidIndex, documents, register, clock });
  const consumer = startAidIndexProjection({ messageLog, aidIndex, documents });
  try {
    const stopSampling = rssSampler();
    const loop = performance.eventLoopUtilization();
    const started = performance.now();
    await requestSync(eventStore, {
      scope: 'LAST_YEAR',
      by: { userId: 'bench', email: 'bench@localhost', role: 'SYSTEM' },
      now: clock.now(),
    });
    await worker.runPending();
    await consumer.caughtUp();
    const elapsed = performance.now() - started;
    const busy = performance.eventLoopUtilization(loop).utilization;
    // Sampling stops before the check: counting scans a whole index into the reader's page
    // cache, which is search memory, not ingestion's.
    const peakRssMb = stopSampling();
    const records = await aidIndex.count();
    return measure('end to end (HTTP zip → index)', records, xmlBytes, elapsed, peakRssMb, busy);
  } finally {
    await worker.stop();
    await consumer.stop();
    await mirror.close();
    await Promise.all([eventStore.close(), messageLog.close(), aidIndex.close(), documents.close()]);
    await rm(dataDir, { recursive: true, force: true });
  }
}

const medianSample = (samples: IngestionMeasure[]): IngestionMeasure =>
  [...samples].sort((a, b) => a.recordsPerSecond - b.recordsPerSecond)[Math.floor(samples.length / 2)]!;

export async function runIngestionBench(
  aids = Number(process.env.BENCH_INGEST_AIDS ?? 1_000_000),
  samples = SAMPLES,
): Promise<IngestionResult> {
  const prepared = await prepareFiles(aids);
  // The process carries the code `npm start` runs (API, reports, every engine's client), so the
  // peak RSS measured is the standalone portal's during a sync, not a slimmer process's.
  await import('@rna/standalone');
  const runs = await alternating(
    samples,
    () => parseOnly(prepared.files, prepared.xmlBytes),
    () => endToEnd(prepared.dir, prepared.xmlBytes),
  );
  const incomplete = [...runs.baseline, ...runs.subject]
    .filter((m) => m.records !== prepared.components)
    .map((m) => `${m.label}: ${m.records} of ${prepared.components} records`);
  const parse = medianSample(runs.baseline);
  const e2e = medianSample(runs.subject);
  const ratio = Math.round((e2e.recordsPerSecond / parse.recordsPerSecond) * 100) / 100;
  const peakRss = Math.max(...[...runs.baseline, ...runs.subject].map((m) => m.peakRssMb));
  return {
    aids,
    expectedRecords: prepared.components,
    zipMegabytes: Math.round(prepared.zipBytes / 1e6),
    xmlMegabytes: Math.round(prepared.xmlBytes / 1e6),
    parseOnly: parse,
    endToEnd: e2e,
    parseOnlySamples: runs.baseline,
    endToEndSamples: runs.subject,
    ratio,
    incomplete,
    targets: { ratio: incomplete.length === 0 && ratio >= 0.7, rss: peakRss < 400 },
  };
}

const spreadOf = (samples: IngestionMeasure[], pick: (m: IngestionMeasure) => number): Spread =>
  spread(samples.map(pick));

export function formatIngestionTable(result: IngestionResult): string {
  const rows = [...result.parseOnlySamples, ...result.endToEndSamples].map(
    (m) =>
      `| ${m.label} | ${m.records} | ${m.seconds} | ${m.recordsPerSecond} | ${m.xmlMegabytesPerSecond} | ${m.peakRssMb} | ${Math.round(m.mainThreadBusy * 100)} % |`,
  );
  return [
    `Ingestion: ${result.aids} components (${result.expectedRecords} in the files), ${result.xmlMegabytes} MB XML (${result.zipMegabytes} MB zipped)`,
    '| measure | records | s | records/s | MB/s XML | peak RSS MB | main thread busy |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    ...result.incomplete.map((what) => `INCOMPLETE: ${what}`),
    `e2e / parse-only (medians): ${Math.round(result.ratio * 100)} % (target ≥ 70 %: ${result.targets.ratio ? 'met' : 'MISSED'}); ` +
      `peak RSS target < 400 MB: ${result.targets.rss ? 'met' : 'MISSED'}`,
  ].join('\n');
}

/** The bench rows of a result: medians with their spread, or no figure when a sample was incomplete. */
export function ingestionRows(result: IngestionResult): BenchRow[] {
  const { parseOnlySamples: parse, endToEndSamples: e2e } = result;
  const complete = result.incomplete.length === 0;
  // An incomplete run's speed is no figure: the row keeps its name, loses its value, and says why.
  const figure = (value: number) => (complete ? value : Number.NaN);
  const status = complete
    ? `${result.expectedRecords} records in the files, parsed and indexed`
    : `INCOMPLETE: ${result.incomplete.join('; ')}`;
  const recordsPerSecond = spreadOf(e2e, (m) => m.recordsPerSecond);
  const parsePerSecond = spreadOf(parse, (m) => m.recordsPerSecond);
  const rss = spreadOf(e2e, (m) => m.peakRssMb);
  return [
    {
      metric: 'ingestion end to end (zip over HTTP → index)',
      value: figure(recordsPerSecond.median),
      unit: 'records/s',
      baseline: figure(parsePerSecond.median),
      note: `${describeSpread(recordsPerSecond, 0)}; baseline ${describeSpread(parsePerSecond, 0)}; ${status}`,
    },
    {
      metric: 'ingestion end to end, XML throughput',
      value: figure(spreadOf(e2e, (m) => m.xmlMegabytesPerSecond).median),
      unit: 'MB/s',
      baseline: figure(spreadOf(parse, (m) => m.xmlMegabytesPerSecond).median),
      note: `${Math.round(result.xmlMegabytes)} MB XML`,
    },
    {
      metric: 'ingestion end to end, peak RSS',
      value: rss.max,
      unit: 'MB',
      note: `target < 400 MB; ${describeSpread(rss, 0)}`,
    },
    {
      metric: 'parse only (unzip + parse), peak RSS',
      value: spreadOf(parse, (m) => m.peakRssMb).max,
      unit: 'MB',
    },
  ];
}

/** The suite for `npm run bench`: end to end against parse-only (the ceiling), in the same run. */
export const ingestionSuite: BenchSuite = {
  name: 'ingestion',
  description: 'register zip over HTTP → searchable index, vs parse-only (the ceiling)',
  run: async (ctx) => {
    const result = await runIngestionBench(envInt(ctx.env, 'BENCH_INGEST_AIDS', 1_000_000));
    ctx.log(formatIngestionTable(result));
    return ingestionRows(result);
  },
};

if (require.main === module) {
  runIngestionBench()
    .then((result) => console.log(formatIngestionTable(result)))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
