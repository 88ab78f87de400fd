/**
 * Bulk suite (Ricerca massiva): a job of BENCH_BULK_CODES (default 5,000) tax codes run end to end by
 * the runner — requested over the API (charged), looked up in chunks, workbook and PDF written to the
 * blob store, completed — on an embedded aid index of BENCH_BULK_AIDS (default 2,000,000) synthetic
 * aids. The list is a realistic mix: most codes with a handful of aids, ten with 2,000 each, 2% with
 * none. Baseline, in the same run: the same codes looked up on the bare aid index one at a time, as
 * 5,000 separate searches would, three samples of each alternating which goes first. Building 2 million aids takes minutes on a small machine, so the index
 * is built once into BENCH_DATA_DIR (default <tmp>/rna-bench-data) and reused while its count matches.
 * Then a list of the largest companies only: BENCH_BULK_HEAVY (default 150) codes of 2,000 aids each
 * (300,000 aids), with the memory the process held while it ran — a job must hold one chunk of aids
 * at a time, not all of them (the portal runs with a 512 MB heap).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { AidRecord, BulkJobDto } from '@rna/domain';
import { startBulkSearchRunner } from '@rna/api/bulk-searches';
import { startApiHarness } from '@rna/api/documents/testing';
import { openSqliteAidIndex } from '@rna/infra/aid-index';
import {
  alternating,
  describeSpread,
  envInt,
  rate,
  SAMPLES,
  spread,
  type BenchContext,
  type BenchRow,
  type BenchSuite,
} from '../bench-suite';
import { syntheticAids, taxCodeOf } from './storage';

const BATCH = 5_000;
/** Heavy codes in the realistic list. */
const HEAVY = 10;
const HEAVY_AIDS = 2_000;

const heavyCode = (i: number) => `HEAVY${String(i).padStart(6, '0')}`;

function heavyAids(i: number): AidRecord[] {
  return syntheticAids(90_000_000 + i * HEAVY_AIDS, 90_000_000 + (i + 1) * HEAVY_AIDS, 1).map((aid, k) => ({
    ...aid,
    idComponenteAiuto: String(900_000_000 + i * HEAVY_AIDS + k),
    codiceFiscaleBeneficiario: heavyCode(i),
    denominazioneBeneficiario: `Grande impresa ${i} S.p.A.`,
  }));
}

/** The index file, built once per size and kept for the next runs. */
async function cachedIndex(ctx: BenchContext, total: number, heavy: number) {
  const dir = ctx.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'rna-bench-data');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `bulk-aids-${total}.db`);
  const expected = total + heavy * HEAVY_AIDS;
  let index = openSqliteAidIndex(file);
  if ((await index.count()) === expected) {
    ctx.log(`reusing ${file} (${expected.toLocaleString('en-US')} aids)`);
    return { index, builtMs: null as number | null };
  }
  await index.close();
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
  index = openSqliteAidIndex(file);
  const started = performance.now();
  const beneficiaries = Math.floor(total / 5);
  for (let from = 0; from < total; from += BATCH) {
    await index.upsert(syntheticAids(from, Math.min(total, from + BATCH), beneficiaries));
    if (from % 500_000 === 0)
      ctx.log(`indexed ${from.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`);
  }
  for (let i = 0; i < heavy; i++) await index.upsert(heavyAids(i));
  return { index, builtMs: performance.now() - started };
}

/** The list: codes of random beneficiaries, ten heavy ones and 2% unknown to the register. */
function jobCodes(count: number, beneficiaries: number): string[] {
  const codes = new Set<string>();
  for (let i = 0; i < HEAVY; i++) codes.add(heavyCode(i));
  const missing = Math.floor(count * 0.02);
  for (let i = 0; i < missing; i++) codes.add(String(70_000_000_000 + i));
  let seed = 12345;
  while (codes.size < count) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    codes.add(taxCodeOf(seed % beneficiaries));
  }
  return [...codes];
}

export const bulkSuite: BenchSuite = {
  name: 'bulk',
  description:
    'Ricerca massiva: a 5,000-code job end to end (look-ups, workbook, PDF) vs 5,000 bare look-ups',
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const total = envInt(ctx.env, 'BENCH_BULK_AIDS', 2_000_000);
    const count = envInt(ctx.env, 'BENCH_BULK_CODES', 5_000);
    const heavy = Math.max(HEAVY, envInt(ctx.env, 'BENCH_BULK_HEAVY', 150));
    const rows: BenchRow[] = [];
    const { index, builtMs } = await cachedIndex(ctx, total, heavy);
    if (builtMs !== null)
      rows.push({
        metric: `index built once: ${total.toLocaleString('en-US')} aids`,
        value: rate(total, builtMs),
        unit: 'aids/s',
      });
    const api = await startApiHarness({ aidIndex: index }, { now: new Date() });
    const server = api.app.listen(0, '127.0.0.1');
    try {
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
      const codes = jobCodes(count, Math.floor(total / 5));

      // warm-up of the index's pages, then the baseline: each code as a search of its own on the bare index
      for (const code of codes.slice(0, 100)) await index.search({ taxCodes: [code] });
      const bareLookUps = async () => {
        const started = performance.now();
        let aids = 0;
        for (const code of codes) aids += (await index.search({ taxCodes: [code] })).length;
        return { ms: performance.now() - started, aids };
      };

      /** A job requested over HTTP and followed until it ends, with the memory held meanwhile. */
      const runJob = async (list: string[], sourceName: string) => {
        // a client of its own each time: a repeated list is not a free repeat (B011) nor a fourth open job
        const client = await api.client({ remainingSearches: list.length + 10 });
        const before = process.memoryUsage();
        const peak = { rss: before.rss, held: 0 };
        const sampler = setInterval(() => {
          const now = process.memoryUsage();
          peak.rss = Math.max(peak.rss, now.rss);
          peak.held = Math.max(
            peak.held,
            now.heapUsed + now.arrayBuffers - before.heapUsed - before.arrayBuffers,
          );
        }, 50);
        const runner = startBulkSearchRunner(api.deps, { pollMs: 50 });
        const started = performance.now();
        try {
          const auth = { Authorization: `Bearer ${client.token}` };
          const queued = await fetch(`${base}/bulk-searches`, {
            method: 'POST',
            headers: { ...auth, 'Content-Type': 'application/json' },
            body: JSON.stringify({ taxCodes: list, sourceName }),
          });
          if (queued.status !== 202)
            throw new Error(`bulk request answered ${queued.status}: ${await queued.text()}`);
          const jobId = ((await queued.json()) as BulkJobDto).jobId;
          const requestedMs = performance.now() - started;
          let job: BulkJobDto;
          for (;;) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            try {
              job = (await (
                await fetch(`${base}/bulk-searches/${jobId}`, { headers: auth })
              ).json()) as BulkJobDto;
            } catch (error) {
              // a poll lost to a kept-alive socket the server closed: the next one asks again
              ctx.log(`poll failed: ${String((error as Error).cause ?? error)}`);
              continue;
            }
            if (job.status === 'COMPLETED' || job.status === 'FAILED') break;
          }
          const jobMs = performance.now() - started;
          if (job.status !== 'COMPLETED') throw new Error(`bulk job ${job.status} ${job.failureCode}`);
          const sheet = await api.deps.blobs.get(`bulk-${jobId}.xlsx`);
          const pdf = await api.deps.blobs.get(`bulk-${jobId}.pdf`);
          return {
            job,
            jobMs,
            requestedMs,
            peak,
            sheetBytes: sheet?.bytes.length ?? 0,
            pdfBytes: pdf?.bytes.length ?? 0,
          };
        } finally {
          clearInterval(sampler);
          await runner.stop();
        }
      };
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

      // SAMPLES of each, alternating which goes first (the first finds the index's pages cold)
      const samples = await alternating(SAMPLES, bareLookUps, () => runJob(codes, 'bench.xlsx'));
      const jobTime = spread(samples.subject.map((run) => run.jobMs / 1000));
      const bareTime = spread(samples.baseline.map((run) => run.ms / 1000));
      const mixed = samples.subject.reduce((a, b) => (b.peak.rss > a.peak.rss ? b : a));
      const bareMs = bareTime.median * 1000;
      rows.push({
        metric: `bulk job of ${count.toLocaleString('en-US')} codes, end to end (request → completed), median`,
        value: jobTime.median,
        unit: 's',
        baseline: bareTime.median,
        note:
          `${describeSpread(jobTime, 2)}; ${mixed.job.aids?.toLocaleString('en-US')} aids, ${mixed.job.overCeiling} over the ceiling; request (charge) ${Math.round(mixed.requestedMs)} ms; ` +
          `workbook ${mb(mixed.sheetBytes)}, PDF ${mb(mixed.pdfBytes)}; ` +
          `baseline: the same codes as ${count.toLocaleString('en-US')} bare index look-ups one at a time (${samples.baseline[0]!.aids.toLocaleString('en-US')} aids), ${describeSpread(bareTime, 2)}`,
      });
      rows.push({
        metric: 'bulk job throughput (median)',
        value: rate(count, jobTime.median * 1000),
        unit: 'codes/s',
        baseline: rate(count, bareMs),
      });
      rows.push({
        metric: `bulk job: peak RSS while it ran (highest of ${SAMPLES})`,
        value: Math.round(mixed.peak.rss / 1024 / 1024),
        unit: 'MB',
        note: `most held above the start (heap + buffers): ${mb(mixed.peak.held)}; process peak (index build included): ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
      });
      ctx.log(`bulk job: ${Math.round(jobTime.median * 1000)} ms; bare look-ups: ${Math.round(bareMs)} ms`);

      const largestRuns = [];
      for (let i = 0; i < SAMPLES; i++)
        largestRuns.push(
          await runJob(
            Array.from({ length: heavy }, (_, j) => heavyCode(j)),
            'grandi-imprese.xlsx',
          ),
        );
      const largestTime = spread(largestRuns.map((run) => run.jobMs / 1000));
      const largest = largestRuns.reduce((a, b) => (b.peak.held > a.peak.held ? b : a));
      rows.push({
        metric: `bulk job of the ${heavy} largest companies (${(heavy * HEAVY_AIDS).toLocaleString('en-US')} aids), median`,
        value: largestTime.median,
        unit: 's',
        note: `${describeSpread(largestTime, 2)}; workbook ${mb(largest.sheetBytes)}, PDF ${mb(largest.pdfBytes)}`,
      });
      rows.push({
        metric: `bulk job of the ${heavy} largest companies: most memory held above the start (highest of ${SAMPLES})`,
        value: Math.round(largest.peak.held / 1024 / 1024),
        unit: 'MB',
        baseline: Math.round(mixed.peak.held / 1024 / 1024),
        note: `heap + buffers; peak RSS ${mb(largest.peak.rss)}; baseline: the ${count.toLocaleString('en-US')}-code job's (${mixed.job.aids?.toLocaleString('en-US')} aids)`,
      });
      ctx.log(`largest companies' job: ${Math.round(largestTime.median * 1000)} ms (median)`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await api.close();
      await index.close();
    }
    return rows;
  },
};
