/**
 * A whole-register rehearsal: the register's real layout — one file a month for the ten years a
 * full sync covers, monthly volumes that grow over the years with the 2020–2021 peak, extra parts
 * (`_002`…) for the heavy months, stray control bytes in some — zipped, served by the register
 * mirror and synced end to end on the embedded stores. Then the register moves on as its page does:
 * one month is republished with changed content and the oldest month leaves the listing, and a
 * second sync must follow. Used at small scale by the tests (correctness) and at full scale by
 * `npm run bench register` (time, memory, disk).
 */
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { notifyVariations } from '@rna/api/alerts';
import { defaultParserThreads } from '@rna/infra/config';
import { rssSampler } from '../bench-suite';
import type { TruthRecord } from '../../generator/generate';
import { clock, readTruth, startHarness, type Harness } from '../../rna-mirror/sync-harness';
import { generateMonthsInChild } from './generate-months';

/** The months of a full sync at the harness's clock (2024-03-15): 2014_04 … 2024_03. */
export function registerMonths(): string[] {
  const now = clock.now();
  const months: string[] = [];
  for (let back = 119; back >= 0; back--) {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    months.push(`${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return months;
}

/** Relative volume of a month: three times more aids ten years on, and twice as many in 2020–2021. */
function monthWeight(month: string, index: number, count: number): number {
  const year = Number(month.slice(0, 4));
  return (1 + (2 * index) / (count - 1)) * (year === 2020 || year === 2021 ? 2 : 1);
}

export interface RegisterPlan {
  months: { month: string; aids: number }[];
  /** Components per file part: the heaviest fifth of the months get extra parts. */
  partSize: number;
  /** Republished with changed content before the second sync. */
  republished: string;
  /** Leaves the listing before the second sync (the oldest: the page is a sliding window). */
  leaving: string;
  /** Months whose files carry stray control bytes. */
  withDefects: string[];
}

export function registerPlan(totalAids: number): RegisterPlan {
  const months = registerMonths();
  const weights = months.map((month, i) => monthWeight(month, i, months.length));
  const sum = weights.reduce((a, b) => a + b, 0);
  const planned = months.map((month, i) => ({
    month,
    aids: Math.max(1, Math.round((totalAids * weights[i]!) / sum)),
  }));
  const sorted = planned.map((m) => m.aids).sort((a, b) => a - b);
  return {
    months: planned,
    partSize: Math.max(1, sorted[Math.floor(sorted.length * 0.8)]!),
    republished: months[100]!,
    leaving: months[0]!,
    withDefects: months.filter((_, i) => i % 17 === 5),
  };
}

export interface RegisterRun {
  seconds: number;
  aids: number;
  peakRssMb: number;
}

export interface Rehearsal {
  plan: RegisterPlan;
  harness: Harness;
  /** From the end of the first sync to the first search answered: the search index sorted once the fill is complete. */
  searchIndexSeconds: number;
  /** Register files served by the mirror before the first sync. */
  files: string[];
  first: RegisterRun;
  second: RegisterRun;
  /** Ground-truth files (JSON lines) of what the index must hold after the second sync. */
  truthFiles: string[];
  zipBytes: number;
}

const SEED = 2024;

/** Months of the plan generated (in a process of their own) into `dir`, at `revision`. */
function generatePlanMonths(dir: string, plan: RegisterPlan, months: readonly string[], revision: number) {
  return generateMonthsInChild({
    dir,
    months: plan.months.filter((m) => months.includes(m.month)),
    totalAids: plan.months.reduce((sum, m) => sum + m.aids, 0),
    partSize: plan.partSize,
    withDefects: plan.withDefects,
    revision,
    seed: SEED,
  });
}

async function timedSync(harness: Harness): Promise<RegisterRun> {
  const stop = rssSampler();
  const started = performance.now();
  const runId = await harness.sync('ALL');
  const seconds = (performance.now() - started) / 1000;
  const peakRssMb = stop();
  await notifyCompletedSync(harness, runId);
  return { seconds, aids: harness.published(), peakRssMb };
}

/**
 * What the portal's variation-alert notifier does once a sync completed — here no alert is set, so it
 * only forgets the changes the projection noted, which the disk at rest must not keep. The harness's
 * worker runs on a fixed 2024 clock and the projection notes on the real one: the completion is taken
 * as now, as the portal's one clock would say (after the harness settled, every note is older).
 */
async function notifyCompletedSync(harness: Harness, runId: string): Promise<void> {
  await notifyVariations(
    {
      eventStore: harness.eventStore,
      documents: harness.documents,
      mailer: { send: () => Promise.reject(new Error('a rehearsal sets no alert')) },
      clock: () => new Date(),
      publicUrl: 'http://localhost',
      onError: (error) => {
        throw error;
      },
    },
    { runId, at: new Date().toISOString() },
  );
}

/** Bytes of the files under `dir`, recursively. */
export async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? await directoryBytes(full) : (await stat(full)).size;
  }
  return total;
}

/**
 * Generates the register, syncs it, republishes a month and lets the oldest leave, syncs again.
 * The harness is left running for the caller's checks (disposeHarness when done).
 */
export async function rehearseRegister(
  totalAids: number,
  log: (message: string) => void = () => undefined,
): Promise<Rehearsal> {
  const plan = registerPlan(totalAids);
  // the portal's own settings: the batch and the parser threads it runs with on this machine
  const harness = await startHarness({ batchSize: 2_000, parserThreads: defaultParserThreads() });
  // the mirror serves the harness's directory (the register files in it; other files are ignored)
  const mirrorDir = harness.dir;
  const truthByMonth = new Map<string, string>();
  const files: string[] = [];
  const generated = await generatePlanMonths(
    mirrorDir,
    plan,
    plan.months.map((m) => m.month),
    0,
  );
  for (const { month, files: parts, truthFile } of generated) {
    truthByMonth.set(month, truthFile);
    files.push(...parts);
  }
  const zipBytes = (
    await Promise.all(files.map((f) => stat(path.join(mirrorDir, `OpenData_Aiuti_${f}.zip`))))
  ).reduce((sum, s) => sum + s.size, 0);
  log(`registro generato: ${files.length} file, ${totalAids} aiuti, ${Math.round(zipBytes / 1e6)} MB di zip`);
  const first = await timedSync(harness);
  log(`prima sincronizzazione: ${first.seconds.toFixed(1)} s`);
  // an index filled from empty gets its search index in one sort when the writes stop: the first
  // search waits for it (a code no company has: only the wait is timed)
  const indexStarted = performance.now();
  await harness.aidIndex.search({ taxCodes: ['ZZZZZZ00Z00Z000Z'] });
  const searchIndexSeconds = (performance.now() - indexStarted) / 1000;
  log(`indice di ricerca pronto dopo ${searchIndexSeconds.toFixed(1)} s`);

  // the register moves on: a month republished with changes, the oldest month gone from the page
  for (const name of await readdir(mirrorDir))
    if (name.startsWith(`OpenData_Aiuti_${plan.republished}`)) await rm(path.join(mirrorDir, name));
  const [republished] = await generatePlanMonths(mirrorDir, plan, [plan.republished], 1);
  truthByMonth.set(plan.republished, republished!.truthFile);
  for (const name of await readdir(mirrorDir))
    if (name.startsWith(`OpenData_Aiuti_${plan.leaving}`)) await rm(path.join(mirrorDir, name));
  truthByMonth.delete(plan.leaving);
  const published = harness.published();
  const second = await timedSync(harness);
  second.aids = harness.published() - published;
  log(`seconda sincronizzazione: ${second.seconds.toFixed(1)} s`);
  return {
    plan,
    harness,
    files,
    first,
    searchIndexSeconds,
    second,
    truthFiles: [...truthByMonth.values()],
    zipBytes,
  };
}

/** Every record of the truth files (small rehearsals only: a whole register does not fit in memory). */
export async function readAllTruth(files: readonly string[]): Promise<TruthRecord[]> {
  return (await Promise.all(files.map(readTruth))).flat();
}
