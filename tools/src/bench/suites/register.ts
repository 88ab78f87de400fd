/**
 * Register suite (`npm run bench register`): the whole-register rehearsal (bench/register) at
 * BENCH_REGISTER_SCALE × 25 million aids (default 1; 0.01 for a quick run): the ten years of
 * monthly files synced end to end on the embedded default, a month republished and the oldest
 * gone, then the final index measured — disk per aid at rest (the kept register zips apart),
 * search latency for a Zipf mix of companies, the look-ups of a 5,000-code bulk job, and a
 * rebuild of the index from the kept files. Refuses to start when the disk cannot hold the run.
 */
import { rm, statfs } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import {
  alternating,
  describeSpread,
  percentile,
  SAMPLES,
  spread,
  type BenchRow,
  type BenchSuite,
} from '../bench-suite';
import { seededRandom } from '../../generator/random';
import { directoryBytes, rehearseRegister } from '../register/rehearsal';
import { runRebuildProcess } from '../register/rebuild-process';
import { disposeHarness } from '../../rna-mirror/sync-harness';

const WHOLE_REGISTER = 25_000_000;
/** Disk a rehearsal needs per aid: generated zips, their kept copies, the index, the transient log. */
const BYTES_PER_AID_NEEDED = 1_200;
const SEARCHES = 5_000;
const BULK_CODES = 5_000;
/** Companies searched: those with at most this many aids (the issue's latency target). */
const SEARCHED_AIDS_MAX = 100;
/** Companies whose aids are counted for the search mix: enough for any mix, bounded in memory. */
const TRACKED_CODES = 200_000;

function scaleOf(env: NodeJS.ProcessEnv): number {
  const raw = env.BENCH_REGISTER_SCALE ?? '1';
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 2)
    throw new Error(`BENCH_REGISTER_SCALE must be a number in (0, 2], got ${JSON.stringify(raw)}`);
  return scale;
}

/**
 * Aids per tax code in the truth files, for the first TRACKED_CODES codes met (streamed: no record
 * kept). A new key is copied out of its line: a regex match is a slice that would keep the whole
 * 64 KB chunk readline cut the line from alive (273 MB of them for half a million aids).
 */
async function aidsPerTaxCode(files: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const file of files) {
    const lines = readline.createInterface({ input: createReadStream(file) });
    for await (const line of lines) {
      const code = /"codiceFiscaleBeneficiario":"([^"]*)"/.exec(line)?.[1];
      if (code === undefined) continue;
      const count = counts.get(code);
      if (count !== undefined) counts.set(code, count + 1);
      else if (counts.size < TRACKED_CODES) counts.set(Buffer.from(code).toString(), 1);
    }
  }
  return counts;
}

/** A code chosen with popularity ∝ 1/rank (the search suite's mix): a few companies are asked often. */
function zipfPicker(codes: readonly string[], random: () => number): () => string {
  const weights = codes.map((_, i) => 1 / (i + 1));
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) cumulative.push((sum += w));
  return () => {
    const target = random() * sum;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return codes[low]!;
  };
}

export const registerSuite: BenchSuite = {
  name: 'register',
  description: 'whole register: ten years of monthly files synced, stored, searched and rebuilt',
  async run(ctx): Promise<BenchRow[]> {
    const scale = scaleOf(ctx.env);
    const aids = Math.round(WHOLE_REGISTER * scale);
    const needed = aids * BYTES_PER_AID_NEEDED;
    const disk = await statfs(ctx.tmpDir);
    const free = disk.bavail * disk.bsize;
    if (free < needed)
      throw new Error(
        `register rehearsal of ${aids} aids needs ~${Math.ceil(needed / 1e9)} GB free, ${Math.floor(free / 1e9)} GB available: set BENCH_REGISTER_SCALE lower`,
      );
    const rehearsal = await rehearseRegister(aids, ctx.log);
    const { harness, first, second } = rehearsal;
    const rows: BenchRow[] = [];
    let closed = false;
    try {
      const indexed = await harness.aidIndex.count();
      rows.push(
        {
          metric: `first sync of ${rehearsal.files.length} files (${Math.round(rehearsal.zipBytes / 1e6)} MB of zip)`,
          value: Math.round(first.seconds),
          unit: 's',
          note: `${Math.round(first.aids / first.seconds)} aids/s, ${first.aids} aids`,
        },
        { metric: 'peak RSS during the first sync', value: first.peakRssMb, unit: 'MB' },
        {
          metric:
            'first search after the first sync (waits for the search index, sorted once the fill is complete)',
          value: Number(rehearsal.searchIndexSeconds.toFixed(1)),
          unit: 's',
        },
        {
          metric: 'second sync (a month republished, the oldest gone, the rest unchanged)',
          value: Math.round(second.seconds),
          unit: 's',
          note: `${second.aids} aids published again`,
        },
      );

      // The target is for companies of up to 100 aids; the few giants (a generated register, like the
      // real one, has codes with hundreds of thousands) would each load that many records at once.
      const counts = await aidsPerTaxCode(rehearsal.truthFiles);
      const codes = [...counts].filter(([, n]) => n <= SEARCHED_AIDS_MAX).map(([code]) => code);
      const giants = [...counts.values()].filter((n) => n > SEARCHED_AIDS_MAX);
      const pick = zipfPicker(codes, seededRandom(7));
      const picks = Array.from({ length: SEARCHES }, pick);
      const timeSearches = async () => {
        const times: number[] = [];
        for (const code of picks) {
          const started = performance.now();
          await harness.aidIndex.search({ taxCodes: [code] });
          times.push(performance.now() - started);
        }
        return times.sort((a, b) => a - b);
      };
      const times = await timeSearches();
      // the same look-ups again: their pages are now in memory, so what the first pass spent more
      // is reading the index file (the companies asked once, met cold after a sync)
      const again = await timeSearches();
      rows.push(
        {
          metric: `search of one company, Zipf mix (${SEARCHES} look-ups), p50`,
          value: percentile(times, 50),
          unit: 'ms',
          note: `companies of up to ${SEARCHED_AIDS_MAX} aids (${codes.length}); ${giants.length} have more, the largest ${Math.max(0, ...giants)}`,
        },
        { metric: 'search of one company, Zipf mix, p99', value: percentile(times, 99), unit: 'ms' },
        {
          metric: 'the same look-ups again, their pages read once already: p99',
          value: percentile(again, 99),
          unit: 'ms',
          note: `p50 ${percentile(again, 50).toFixed(2)} ms`,
        },
      );
      const bulkCodes = codes.slice(0, BULK_CODES);
      const bulkStarted = performance.now();
      for (let i = 0; i < bulkCodes.length; i += 100)
        await harness.aidIndex.search({ taxCodes: bulkCodes.slice(i, i + 100) });
      rows.push({
        metric: `look-ups of a ${bulkCodes.length}-code bulk job (100 codes a query, companies of ≤ ${SEARCHED_AIDS_MAX} aids)`,
        value: Math.round(performance.now() - bulkStarted),
        unit: 'ms',
      });

      await harness.worker.stop();
      await harness.consumer.stop();
      await harness.projections.stop();
      // the rebuild runs as the operator runs it: `npm run rebuild-projections` in its own process on
      // the closed data directory, so its time and memory are the command's, not the bench's
      const dataDir = harness.stores.dir;
      await harness.stores.close();
      closed = true;
      // BENCH_REGISTER_REBUILD_BASELINE=1: the rebuild is also timed parsing one file at a time (as
      // it did before), SAMPLES of each, alternating which goes first, for the ratio
      const { baseline, subject } =
        ctx.env.BENCH_REGISTER_REBUILD_BASELINE === '1'
          ? await alternating(
              SAMPLES,
              () => runRebuildProcess(dataDir, { parallelFiles: 1 }),
              () => runRebuildProcess(dataDir),
            )
          : { baseline: [], subject: [await runRebuildProcess(dataDir)] };
      const rebuilt = subject[subject.length - 1]!;
      const seconds = (runs: typeof subject) => spread(runs.map((run) => run.seconds));
      // null where the kernel's mark could not be read (not Linux): no row rather than a zero
      const peakRssMb = (runs: typeof subject) => {
        const peaks = runs.map((run) => run.peakRssMb);
        return peaks.includes(null) ? null : Math.max(...(peaks as number[]));
      };
      const compared = baseline.length > 0;
      rows.push({
        metric: `rebuild of the index from ${rebuilt.files} kept register files (two files parsed at once)`,
        value: Math.round(seconds(subject).median),
        unit: 's',
        ...(compared ? { baseline: Math.round(seconds(baseline).median) } : {}),
        note:
          (rebuilt.aids === indexed
            ? `${rebuilt.aids} aids, as before`
            : `${rebuilt.aids} aids, ${indexed} before`) +
          (compared
            ? `; ${describeSpread(seconds(subject), 0)} s against one file at a time ${describeSpread(seconds(baseline), 0)} s`
            : ''),
      });
      const subjectPeak = peakRssMb(subject);
      const baselinePeak = compared ? peakRssMb(baseline) : null;
      if (subjectPeak !== null)
        rows.push({
          metric: 'peak RSS of the rebuild process (npm run rebuild-projections)',
          value: subjectPeak,
          unit: 'MB',
          ...(baselinePeak !== null ? { baseline: baselinePeak, note: 'baseline: one file at a time' } : {}),
        });

      // at rest: every store closed (WAL checkpointed into the files), then measured
      const kept = await directoryBytes(path.join(dataDir, 'blobs'));
      const total = await directoryBytes(dataDir);
      rows.push(
        {
          metric: 'DATA_DIR at rest per aid, kept register zips apart',
          value: Math.round((total - kept) / indexed),
          unit: 'B',
          note: `${(total - kept) / 1e9 < 1 ? `${Math.round((total - kept) / 1e6)} MB` : `${((total - kept) / 1e9).toFixed(2)} GB`} for ${indexed} aids; target ≤ 400 B`,
        },
        { metric: 'kept register zips', value: Math.round(kept / 1e6), unit: 'MB' },
      );
    } finally {
      if (closed) {
        await harness.mirror.close();
        await rm(harness.stores.dir, { recursive: true, force: true });
        await rm(harness.dir, { recursive: true, force: true });
      } else await disposeHarness(harness);
    }
    return rows;
  },
};
