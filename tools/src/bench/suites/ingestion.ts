/**
 * Ingestion bench: zipped register files over HTTP from the mirror → sync worker → `aids` topic →
 * searchable aid index (embedded SQLite adapters), with one parser thread (files one after
 * another) and with BENCH_INGEST_THREADS of them (default: the available cores), next to
 * parse-only throughput of the same files in the same run. Size: BENCH_INGEST_AIDS components
 * (default 1,000,000).
 * Targets: all threads ≥ 1.6 × one thread; one thread ≥ 70 % of parse-only; peak RSS < 400 MB.
 * Each side runs SAMPLES times, rotating which goes first, each sample in a fresh process; the
 * figures are medians with their spread. A figure counts only when every record arrived: records in the files = records parsed =
 * aids indexed, else the row says INCOMPLETE.
 * Standalone: node tools/dist/bench/suites/ingestion.js
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openSqliteAidIndex } from '@rna/infra/aid-index';
import { openSqliteDocumentStore } from '@rna/infra/documents';
import { openSqliteEventStore } from '@rna/infra/event-store';
import { openSqliteMessageLog } from '@rna/infra/message-log';
import { HttpRegisterClient, parseAidStream, unzippedXml } from '@rna/infra/register';
import { startAidIndexProjection } from '@rna/projector/aids';
import { requestSync } from '@rna/api';
import { startSyncWorker } from '@rna/sync';
import {
  describeSpread,
  envInt,
  rotating,
  rssSampler,
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
  /** CPU time of the whole process (every thread) over the wall time: how many cores it kept busy. */
  coresUsed: number;
}

export interface IngestionResult {
  aids: number;
  /** Parser threads of the "all threads" side. */
  threads: number;
  /** Aid components the generator wrote into the files: what every run must find. */
  expectedRecords: number;
  zipMegabytes: number;
  xmlMegabytes: number;
  /** The median sample of each side (by records/s), and every sample. */
  parseOnly: IngestionMeasure;
  endToEnd: IngestionMeasure;
  endToEndAll: IngestionMeasure;
  parseOnlySamples: IngestionMeasure[];
  endToEndSamples: IngestionMeasure[];
  endToEndAllSamples: IngestionMeasure[];
  /** One thread end to end / parse-only (medians). */
  ratio: number;
  /** All threads / one thread, end to end (medians). */
  speedup: number;
  /** Seconds 20 million aids would take at the median rate of one thread and of all threads. */
  twentyMillionSeconds: { one: number; all: number };
  /** Samples whose record count differs from the files': their speed is not a figure. */
  incomplete: string[];
  targets: { ratio: boolean; speedup: boolean; rss: boolean };
}

export const SPEEDUP_TARGET = 1.6;
const TWENTY_MILLION = 20_000_000;

const MONTHS = ['2024_01', '2024_02', '2024_03', '2024_04'];

function measure(
  label: string,
  records: number,
  xmlBytes: number,
  ms: number,
  peakRssMb: number,
  mainThreadBusy: number,
  cpu: NodeJS.CpuUsage,
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
    coresUsed: Math.round(((cpu.user + cpu.system) / 1000 / ms) * 100) / 100,
  };
}

/** Generates the files once per size (kept under .bench/, which git ignores, unless `root` says). */
export async function prepareFiles(
  aids: number,
  root = '.bench',
): Promise<{ dir: string; xmlBytes: number; zipBytes: number; components: number; files: string[] }> {
  // v2: the manifest also counts the components written (completeness check).
  const dir = path.resolve(root, `ingestion-${aids}-v2`);
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
  const cpu = process.cpuUsage();
  const started = performance.now();
  let records = 0;
  for (const file of files) {
    // unzipped as the sync and the archive unzip (the parser's buffer included)
    const xml = unzippedXml(createReadStream(file));
    const report = await parseAidStream(xml, {
      sourceFile: path.basename(file),
      importId: 'bench',
      now: Date.now(),
      // as the sync asks for them: encoded on the parser's thread, the text the log stores
      onEncodedBatch: async () => undefined,
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
    process.cpuUsage(cpu),
  );
}

async function endToEnd(dir: string, xmlBytes: number, parserThreads: number): Promise<IngestionMeasure> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-ingestion-'));
  const eventStore = openSqliteEventStore(path.join(dataDir, 'events.db'));
  const messageLog = openSqliteMessageLog(path.join(dataDir, 'messages.db'));
  const aidIndex = openSqliteAidIndex(path.join(dataDir, 'aids.db'));
  const documents = openSqliteDocumentStore(path.join(dataDir, 'documents.db'));
  const mirror = await startMirror({ dir });
  const register = new HttpRegisterClient({ baseUrl: mirror.url });
  const clock = { now: () => new Date('2024-06-15T00:00:00Z') };
  const worker = startSyncWorker({
    eventStore,
    messageLog,
    aidIndex,
    documents,
    register,
    clock,
    parserThreads,
  });
  const consumer = startAidIndexProjection({ messageLog, aidIndex, documents });
  try {
    const stopSampling = rssSampler();
    const loop = performance.eventLoopUtilization();
    const cpu = process.cpuUsage();
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
    const cpuUsed = process.cpuUsage(cpu);
    // Sampling stops before the check: counting scans a whole index into the reader's page
    // cache, which is search memory, not ingestion's.
    const peakRssMb = stopSampling();
    const records = await aidIndex.count();
    const label = `end to end (HTTP zip → index), ${parserThreads} parser thread${parserThreads === 1 ? '' : 's'}`;
    return measure(label, records, xmlBytes, elapsed, peakRssMb, busy, cpuUsed);
  } finally {
    await worker.stop();
    await consumer.stop();
    await mirror.close();
    await Promise.all([eventStore.close(), messageLog.close(), aidIndex.close(), documents.close()]);
    await rm(dataDir, { recursive: true, force: true });
  }
}

export type SampleRequest =
  | { kind: 'parse'; files: string[]; xmlBytes: number }
  | { kind: 'e2e'; dir: string; xmlBytes: number; threads: number };

const SAMPLE_FLAG = '--ingestion-sample';

/**
 * One sample in a process of its own: its peak RSS is that run's, not the highest of every run
 * before it in one process (memory a run took is seldom given back to the system).
 */
async function sampleInChild(request: SampleRequest): Promise<IngestionMeasure> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, __filename, SAMPLE_FLAG, JSON.stringify(request)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  const [code] = (await once(child, 'exit')) as [number | null];
  const last = output.trim().split('\n').pop() ?? '';
  if (code !== 0 || !last.startsWith('{'))
    throw new Error(`ingestion sample ${request.kind} exited with ${code}`);
  return JSON.parse(last) as IngestionMeasure;
}

export async function runSample(request: SampleRequest): Promise<IngestionMeasure> {
  // The process carries the code `npm start` runs (API, reports, every engine's client), so the
  // peak RSS measured is the standalone portal's during a sync, not a slimmer process's.
  await import('@rna/standalone');
  return request.kind === 'parse'
    ? parseOnly(request.files, request.xmlBytes)
    : endToEnd(request.dir, request.xmlBytes, request.threads);
}

/** The samples that did not parse (or index) every record the files hold, said for the table. */
export function incompleteSamples(samples: readonly IngestionMeasure[], expected: number): string[] {
  return samples
    .filter((m) => m.records !== expected)
    .map((m) => `${m.label}: ${m.records} of ${expected} records`);
}

const medianSample = (samples: IngestionMeasure[]): IngestionMeasure =>
  [...samples].sort((a, b) => a.recordsPerSecond - b.recordsPerSecond)[Math.floor(samples.length / 2)]!;

export async function runIngestionBench(
  aids = Number(process.env.BENCH_INGEST_AIDS ?? 1_000_000),
  threads = Number(process.env.BENCH_INGEST_THREADS ?? os.availableParallelism()),
  samples = SAMPLES,
): Promise<IngestionResult> {
  const prepared = await prepareFiles(aids);
  const [parseRuns, oneRuns, allRuns] = await rotating(samples, [
    () => sampleInChild({ kind: 'parse', files: prepared.files, xmlBytes: prepared.xmlBytes }),
    () => sampleInChild({ kind: 'e2e', dir: prepared.dir, xmlBytes: prepared.xmlBytes, threads: 1 }),
    () => sampleInChild({ kind: 'e2e', dir: prepared.dir, xmlBytes: prepared.xmlBytes, threads }),
  ]);
  const every = [...parseRuns!, ...oneRuns!, ...allRuns!];
  const incomplete = incompleteSamples(every, prepared.components);
  const parse = medianSample(parseRuns!);
  const one = medianSample(oneRuns!);
  const all = medianSample(allRuns!);
  const ratio = Math.round((one.recordsPerSecond / parse.recordsPerSecond) * 100) / 100;
  const speedup = Math.round((all.recordsPerSecond / one.recordsPerSecond) * 100) / 100;
  const peakRss = Math.max(...every.map((m) => m.peakRssMb));
  const complete = incomplete.length === 0;
  return {
    aids,
    threads,
    expectedRecords: prepared.components,
    zipMegabytes: Math.round(prepared.zipBytes / 1e6),
    xmlMegabytes: Math.round(prepared.xmlBytes / 1e6),
    parseOnly: parse,
    endToEnd: one,
    endToEndAll: all,
    parseOnlySamples: parseRuns!,
    endToEndSamples: oneRuns!,
    endToEndAllSamples: allRuns!,
    ratio,
    speedup,
    twentyMillionSeconds: {
      one: Math.round(TWENTY_MILLION / one.recordsPerSecond),
      all: Math.round(TWENTY_MILLION / all.recordsPerSecond),
    },
    incomplete,
    targets: {
      ratio: complete && ratio >= 0.7,
      speedup: complete && speedup >= SPEEDUP_TARGET,
      rss: peakRss < 400,
    },
  };
}

/** 4,560 s → "1 h 16 min". */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
}

const spreadOf = (samples: IngestionMeasure[], pick: (m: IngestionMeasure) => number): Spread =>
  spread(samples.map(pick));

export function formatIngestionTable(result: IngestionResult): string {
  const samples = [...result.parseOnlySamples, ...result.endToEndSamples, ...result.endToEndAllSamples];
  const rows = samples.map(
    (m) =>
      `| ${m.label} | ${m.records} | ${m.seconds} | ${m.recordsPerSecond} | ${m.xmlMegabytesPerSecond} | ${m.peakRssMb} | ${Math.round(m.mainThreadBusy * 100)} % | ${m.coresUsed} |`,
  );
  const { one, all } = result.twentyMillionSeconds;
  return [
    `Ingestion: ${result.aids} components (${result.expectedRecords} in the files), ${result.xmlMegabytes} MB XML (${result.zipMegabytes} MB zipped), ${os.availableParallelism()} cores`,
    '| measure | records | s | records/s | MB/s XML | peak RSS MB | main thread busy | cores used |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    ...result.incomplete.map((what) => `INCOMPLETE: ${what}`),
    `end to end (medians): 1 parser thread ${result.endToEnd.recordsPerSecond} records/s, ` +
      `${result.threads} parser threads ${result.endToEndAll.recordsPerSecond} records/s: ` +
      `${result.speedup.toFixed(2)}× (target ≥ ${SPEEDUP_TARGET}×: ${result.targets.speedup ? 'met' : 'MISSED'})`,
    `20 million aids at these rates: ${formatDuration(one)} with 1 parser thread, ${formatDuration(all)} with ${result.threads}`,
    `1 thread e2e / parse-only (medians): ${Math.round(result.ratio * 100)} % (target ≥ 70 %: ${result.targets.ratio ? 'met' : 'MISSED'}); ` +
      `peak RSS target < 400 MB: ${result.targets.rss ? 'met' : 'MISSED'}`,
  ].join('\n');
}

/** The bench rows of a result: medians with their spread, or no figure when a sample was incomplete. */
export function ingestionRows(result: IngestionResult): BenchRow[] {
  const { parseOnlySamples: parse, endToEndSamples: one, endToEndAllSamples: all } = result;
  const complete = result.incomplete.length === 0;
  // An incomplete run's speed is no figure: the row keeps its name, loses its value, and says why.
  const figure = (value: number) => (complete ? value : Number.NaN);
  const status = complete
    ? `${result.expectedRecords} records in the files, parsed and indexed`
    : `INCOMPLETE: ${result.incomplete.join('; ')}`;
  const onePerSecond = spreadOf(one, (m) => m.recordsPerSecond);
  const allPerSecond = spreadOf(all, (m) => m.recordsPerSecond);
  const parsePerSecond = spreadOf(parse, (m) => m.recordsPerSecond);
  const rss = spreadOf([...one, ...all], (m) => m.peakRssMb);
  const threads = `${result.threads} parser threads`;
  return [
    {
      metric: `ingestion end to end, ${threads} (zip over HTTP → index)`,
      value: figure(allPerSecond.median),
      unit: 'records/s',
      baseline: figure(onePerSecond.median),
      note: `baseline: 1 parser thread; target ≥ ${SPEEDUP_TARGET}×; ${describeSpread(allPerSecond, 0)}; baseline ${describeSpread(onePerSecond, 0)}; ${status}`,
    },
    {
      metric: 'ingestion end to end, 1 parser thread (zip over HTTP → index)',
      value: figure(onePerSecond.median),
      unit: 'records/s',
      baseline: figure(parsePerSecond.median),
      note: `baseline: parse only; baseline ${describeSpread(parsePerSecond, 0)}`,
    },
    {
      metric: `ingestion of 20 million aids, ${threads}`,
      value: figure(result.twentyMillionSeconds.all / 60),
      unit: 'min',
      baseline: figure(result.twentyMillionSeconds.one / 60),
      note: 'at the median rates; baseline: 1 parser thread',
    },
    {
      metric: `ingestion end to end, ${threads}, XML throughput`,
      value: figure(spreadOf(all, (m) => m.xmlMegabytesPerSecond).median),
      unit: 'MB/s',
      baseline: figure(spreadOf(one, (m) => m.xmlMegabytesPerSecond).median),
      note: `${Math.round(result.xmlMegabytes)} MB XML; baseline: 1 parser thread`,
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
  description: 'register zip over HTTP → searchable index, 1 vs all parser threads, vs parse-only',
  run: async (ctx) => {
    const result = await runIngestionBench(
      envInt(ctx.env, 'BENCH_INGEST_AIDS', 1_000_000),
      envInt(ctx.env, 'BENCH_INGEST_THREADS', os.availableParallelism()),
    );
    ctx.log(formatIngestionTable(result));
    return ingestionRows(result);
  },
};

const sampleArg = process.argv.indexOf(SAMPLE_FLAG);
if (require.main === module && sampleArg > 0) {
  runSample(JSON.parse(process.argv[sampleArg + 1] ?? '{}') as SampleRequest)
    .then((measured) => {
      console.log(JSON.stringify(measured));
      process.exit(0); // the stores' and the mirror's timers are closed; do not wait for stray handles
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
} else if (require.main === module) {
  runIngestionBench()
    .then((result) => console.log(formatIngestionTable(result)))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
