/**
 * Search suite: GET /api/documents on an aid index of BENCH_SEARCH_AIDS aids (default 2,000,000), for
 * tax codes holding 1 to 5,000 aids as ADMIN, and as a metered CLIENT over distinct codes (each
 * search charged: a repeat of the same search the same day is free and would measure nothing of the
 * quota decision), beside the bare index look-up of the same codes; then Excel and PDF times for 100
 * and 1,000 rows.
 *
 * Two kinds of load, both over 50 keep-alive connections:
 * - autocannon's closed loop at saturation: throughput. Its latency is the queue (about
 *   connections ÷ throughput), so its p99 says more about the machine than about the search.
 * - a paced open-model load at rising rates (BENCH_SEARCH_RATES, default 100,200,500,1000,1500,2000
 *   requests/s, timed from each request's due instant): the p99 at each rate, and the highest rate
 *   whose p99 stays under the 25 ms target.
 * Every load also runs against a bare Express handler (one small JSON answer, no work) in the same
 * process: the baseline column, i.e. what the machine, the load generator and Express alone cost.
 * Closed loops run SAMPLES times, alternating with the bare handler's; rows show the median and the
 * spread. An answer other than 2xx is a failure: a closed loop with failures reports no latency.
 * The API's clock is pinned at the bench's start, so its tokens stay valid however long the run.
 * Targets: p99 < 25 ms for codes with ≤ 100 aids; PDF < 400 ms warm for 100 rows.
 * BENCH_SEARCH_SECONDS (default 5) per load run, after one second of warm-up.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { AidRecord } from '@rna/domain';
import { searchResult } from '@rna/api/documents';
import { startApiHarness } from '@rna/api/documents/testing';
import { buildExcelReport, DEFAULT_BRANDING, preparePdfReport } from '@rna/api/reports';
import { openSqliteAidIndex } from '@rna/infra/aid-index';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import express from 'express';
import type { Server } from 'node:http';
import {
  alternating,
  describeSpread,
  envInt,
  percentile,
  rate,
  SAMPLES,
  spread,
  type BenchContext,
  type BenchRow,
  type BenchSuite,
} from '../bench-suite';
import { pacedLoad } from '../paced-load';
import { parseRates, sweepRates, type SweepResult } from '../rate-sweep';
import { syntheticAids, taxCodeOf } from './storage';

interface AutocannonResult {
  latency: { p50: number; p99: number };
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  workers: number;
  timeout: number;
  headers: Record<string, string>;
}) => Promise<AutocannonResult>;
// autocannon ships no types; this is the part of its API used here.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Autocannon;

const SIZES = [1, 10, 100, 1_000, 5_000] as const;
const BATCH = 5_000;
const CONNECTIONS = 50;
const TARGET_P99_MS = 25;
const DEFAULT_RATES = [100, 200, 500, 1_000, 1_500, 2_000] as const;

interface LoadTarget {
  url: string;
  headers: Record<string, string>;
}

async function listen(server: Server): Promise<number> {
  if (!server.listening) await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return (server.address() as AddressInfo).port;
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

async function saturation(target: LoadTarget, seconds: number): Promise<AutocannonResult> {
  return autocannon({
    ...target,
    connections: CONNECTIONS,
    duration: seconds,
    // the load is generated on another thread, so that it does not slow the server it measures
    workers: 1,
    timeout: 30,
  });
}

/**
 * One second of the same load first, not counted: connections opened and code paths compiled. With
 * a list of addresses, the warm-up takes the first second's worth and the measure the rest.
 */
async function paced(
  target: LoadTarget & { urls?: readonly string[] },
  ratePerSecond: number,
  seconds: number,
) {
  const load = { ...target, connections: CONNECTIONS, ratePerSecond };
  const warmUp = target.urls?.slice(0, ratePerSecond);
  const measured = target.urls?.slice(ratePerSecond);
  await pacedLoad({ ...load, urls: warmUp, durationSeconds: 1 });
  return pacedLoad({ ...load, urls: measured, durationSeconds: seconds });
}

/** The paced loads at rising rates, up to 90 % of the saturation throughput. */
function sweep(target: LoadTarget, rates: number[], saturationRate: number, seconds: number) {
  return sweepRates({
    rates,
    targetP99Ms: TARGET_P99_MS,
    maxRate: saturationRate * 0.9,
    measure: (ratePerSecond) => paced(target, ratePerSecond, seconds),
  });
}

/** What the machine, the load generator and Express cost with no work: a one-line JSON handler. */
async function startBareExpress(): Promise<{ target: LoadTarget; close(): Promise<void> }> {
  const app = express();
  app.set('etag', false);
  app.get('/bare', (_req, res) => {
    res.json({ rows: [], stats: { totalDocuments: 0 } });
  });
  const server = app.listen(0, '127.0.0.1');
  const target = { url: `http://127.0.0.1:${await listen(server)}/bare`, headers: {} };
  return { target, close: () => closeServer(server) };
}

interface ClosedLoopFigures {
  p50: number;
  p99: number;
  throughput: number;
  /** Answers other than 2xx and transport errors over all samples. */
  failures: number;
  spreadNote: string;
}

/** Medians of closed-loop samples; no latency at all when any answer failed (it would time errors). */
function closedLoopFigures(samples: AutocannonResult[]): ClosedLoopFigures {
  const failures = samples.reduce((sum, s) => sum + s.non2xx + s.errors, 0);
  const throughput = spread(samples.map((s) => s.requests.average));
  const p99 = spread(samples.map((s) => s.latency.p99));
  return {
    p50: failures ? Number.NaN : spread(samples.map((s) => s.latency.p50)).median,
    p99: failures ? Number.NaN : p99.median,
    throughput: throughput.median,
    failures,
    spreadNote: failures
      ? `${failures} failed answers: latency not reported`
      : `p99 ${describeSpread(p99)}; req/s ${describeSpread(throughput, 0)}`,
  };
}

/** The subject's closed loop SAMPLES times, alternating with the bare handler's. */
async function sampledClosedLoops(bare: LoadTarget, subject: LoadTarget, seconds: number) {
  const runs = await alternating(
    SAMPLES,
    () => saturation(bare, seconds),
    () => saturation(subject, seconds),
  );
  return { bare: closedLoopFigures(runs.baseline), subject: closedLoopFigures(runs.subject) };
}

/** A single paced load, for codes the latency target does not cover. */
async function onePacedLoad(
  target: LoadTarget,
  ratePerSecond: number,
  seconds: number,
): Promise<SweepResult> {
  return {
    steps: [{ rate: ratePerSecond, ...(await paced(target, ratePerSecond, seconds)) }],
    highestWithinTarget: 0,
  };
}

const p99AtRate = (swept: SweepResult, ratePerSecond: number) =>
  swept.steps.find((step) => step.rate === ratePerSecond)?.p99;

/** Codes starting with 9 never collide with the synthetic register's (they start with 0). */
const sizedTaxCode = (size: number) => `9${String(size).padStart(10, '0')}`;

function sizedAids(size: number): AidRecord[] {
  return syntheticAids(50_000_000 + size * 10, 50_000_000 + size * 10 + size, 1).map((aid, i) => ({
    ...aid,
    idComponenteAiuto: `S${size}-${i}`,
    codiceFiscaleBeneficiario: sizedTaxCode(size),
  }));
}

async function timedMs(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function bareLookups(
  search: (code: string) => Promise<unknown>,
  code: string,
  count: number,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(await timedMs(() => search(code)));
  return times.sort((a, b) => a - b);
}

async function reportRows(ctx: BenchContext, rows: BenchRow[]): Promise<void> {
  const renderer = new ChromiumPdfRenderer({ poolSize: 2 });
  try {
    for (const count of [100, 1_000]) {
      const aids = syntheticAids(70_000_000, 70_000_000 + count, 1);
      const result = searchResult(
        { taxCodes: [aids[0]?.codiceFiscaleBeneficiario ?? ''], deMinimis: false, last3Years: false },
        'ARCHIVE',
        { aids, sources: [] },
        new Date(),
        null,
      );
      const input = { result, generatedAt: new Date(), branding: DEFAULT_BRANDING };
      const excel: number[] = [];
      for (let i = 0; i < 5; i++) excel.push(await timedMs(() => buildExcelReport(input)));
      // the portal's way: Chromium for the summary, the table drawn (the reports suite compares)
      const pdfBytes = async () => {
        let bytes = 0;
        for await (const chunk of (await preparePdfReport(input, renderer)).chunks()) bytes += chunk.length;
        return bytes;
      };
      await pdfBytes(); // warm-up: browser launch and first page
      const pdf: number[] = [];
      for (let i = 0; i < 5; i++) pdf.push(await timedMs(pdfBytes));
      excel.sort((a, b) => a - b);
      pdf.sort((a, b) => a - b);
      rows.push({
        metric: `Excel report, ${count} rows (median of 5)`,
        value: percentile(excel, 50),
        unit: 'ms',
      });
      rows.push({
        metric: `PDF report warm, ${count} rows (median of 5)`,
        value: percentile(pdf, 50),
        unit: 'ms',
        note: count === 100 ? 'target < 400 ms' : undefined,
      });
      ctx.log(`reports of ${count} rows done`);
    }
  } finally {
    await renderer.close();
  }
}

export const searchSuite: BenchSuite = {
  name: 'search',
  description: 'GET /api/documents under load vs the bare aid index look-up; Excel and PDF report times',
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const total = envInt(ctx.env, 'BENCH_SEARCH_AIDS', 2_000_000);
    const seconds = envInt(ctx.env, 'BENCH_SEARCH_SECONDS', 5);
    const rates = parseRates(ctx.env.BENCH_SEARCH_RATES, DEFAULT_RATES);
    const aidIndex = openSqliteAidIndex(path.join(ctx.tmpDir, 'bench-aids.db'));
    const rows: BenchRow[] = [];
    // Pinned at the bench's start: tokens signed now stay valid however long the loads run.
    const api = await startApiHarness({ aidIndex }, { now: new Date() });
    const server = api.app.listen(0, '127.0.0.1');
    const bareServer = await startBareExpress();
    const bareTarget = bareServer.target;
    try {
      const beneficiaries = Math.max(1, Math.floor(total / 5));
      const loadStarted = performance.now();
      for (let from = 0; from < total; from += BATCH) {
        await aidIndex.upsert(syntheticAids(from, Math.min(total, from + BATCH), beneficiaries));
        if (from % 500_000 === 0)
          ctx.log(`indexed ${from.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`);
      }
      for (const size of SIZES) await aidIndex.upsert(sizedAids(size));
      rows.push({
        metric: `index ${(await aidIndex.count()).toLocaleString('en-US')} aids`,
        value: rate(total, performance.now() - loadStarted),
        unit: 'aids/s',
      });

      const bareAlone = closedLoopFigures([await saturation(bareTarget, seconds)]);
      const bareSwept = await sweep(bareTarget, rates, bareAlone.throughput, seconds);
      rows.push({
        metric: `bare Express handler: highest paced rate with p99 < ${TARGET_P99_MS} ms`,
        value: bareSwept.highestWithinTarget,
        unit: 'req/s',
        note: bareSwept.steps.map((s) => `${s.rate}/s: p99 ${s.p99.toFixed(1)} ms`).join(', '),
      });
      ctx.log(`bare Express: ${Math.round(bareAlone.throughput)} req/s at saturation`);

      const port = await listen(server);
      const searchUrl = (code: string) =>
        `http://127.0.0.1:${port}/api/documents?taxCodes=${code}&deMinimis=false&last3Years=false`;
      let smallCodesThroughput = 0;
      for (const size of SIZES) {
        const code = sizedTaxCode(size);
        const lookups = await bareLookups(
          (c) => aidIndex.search({ taxCodes: [c] }),
          code,
          size >= 1_000 ? 50 : 500,
        );
        rows.push({
          metric: `bare index look-up p50 / p99, ${size} aids`,
          value: percentile(lookups, 50),
          unit: 'ms',
          note: `p99 ${percentile(lookups, 99).toFixed(3)} ms; the same code's aids, no HTTP`,
        });
        const target = { url: searchUrl(code), headers: { authorization: `Bearer ${api.adminToken}` } };
        const loops = await sampledClosedLoops(bareTarget, target, seconds);
        if (size === 10) smallCodesThroughput = loops.subject.throughput;
        rows.push({
          metric: `search at saturation p50, ${size} aids, ADMIN`,
          value: loops.subject.p50,
          unit: 'ms',
          baseline: loops.bare.p50,
          note: 'closed loop, 50 connections: latency ≈ 50 ÷ throughput',
        });
        rows.push({
          metric: `search at saturation p99, ${size} aids, ADMIN`,
          value: loops.subject.p99,
          unit: 'ms',
          baseline: loops.bare.p99,
          note: loops.subject.spreadNote,
        });
        rows.push({
          metric: `search throughput at saturation, ${size} aids, ADMIN`,
          value: loops.subject.throughput,
          unit: 'req/s',
          baseline: loops.bare.throughput,
          note: loops.subject.failures ? `${loops.subject.failures} failed answers` : undefined,
        });
        // Codes with up to 100 aids: the latency target as a capacity. Larger ones: one paced
        // load at the first rate, or at half the saturation throughput when that is lower.
        const swept: SweepResult =
          size <= 100
            ? await sweep(target, rates, loops.subject.throughput, seconds)
            : await onePacedLoad(
                target,
                Math.max(1, Math.min(rates[0] ?? 100, Math.floor(loops.subject.throughput / 2))),
                seconds,
              );
        pushSweepRows(rows, swept, bareSwept, `${size} aids, ADMIN`, size <= 100);
        ctx.log(
          `load on ${size} aids as ADMIN: ${Math.round(loops.subject.throughput)} req/s at saturation` +
            (size <= 100 ? `, p99 < ${TARGET_P99_MS} ms up to ${swept.highestWithinTarget} req/s` : ''),
        );
      }

      // A metered client whose every search is charged: a different code each time (the synthetic
      // register's beneficiaries, ~5 aids each), never the same code twice in a day.
      const client = await api.client({ remainingSearches: 1_000_000 });
      const distinctCodes = Array.from({ length: Math.min(beneficiaries, 200_000) }, (_, i) =>
        searchUrl(taxCodeOf(i)),
      );
      let nextCode = 0;
      const metered = await sweepRates({
        rates,
        targetP99Ms: TARGET_P99_MS,
        maxRate: smallCodesThroughput * 0.9,
        measure: async (ratePerSecond) => {
          const needed = Math.ceil(ratePerSecond * (seconds + 1));
          const urls = distinctCodes.slice(nextCode, nextCode + needed);
          nextCode += needed;
          if (urls.length < needed) throw new Error('not enough distinct codes for the metered load');
          return paced(
            { url: urls[0]!, urls, headers: { authorization: `Bearer ${client.token}` } },
            ratePerSecond,
            seconds,
          );
        },
      });
      pushSweepRows(rows, metered, bareSwept, 'distinct codes (~5 aids), CLIENT (each search charged)', true);
      ctx.log(`metered client: p99 < ${TARGET_P99_MS} ms up to ${metered.highestWithinTarget} req/s`);
    } finally {
      await bareServer.close();
      await closeServer(server);
      await api.close();
      await aidIndex.close();
    }
    await reportRows(ctx, rows);
    return rows;
  },
};

function pushSweepRows(
  rows: BenchRow[],
  swept: SweepResult,
  bareSwept: SweepResult,
  what: string,
  withTarget: boolean,
): void {
  for (const step of swept.steps) {
    rows.push({
      metric: `search p99 at ${step.rate} req/s paced, ${what}`,
      value: step.p99,
      unit: 'ms',
      baseline: p99AtRate(bareSwept, step.rate),
      note: [
        `p50 ${step.p50.toFixed(1)} ms`,
        withTarget ? `target < ${TARGET_P99_MS} ms` : undefined,
        step.failures ? `${step.failures} failures` : undefined,
      ]
        .filter(Boolean)
        .join('; '),
    });
  }
  if (withTarget) {
    rows.push({
      metric: `highest paced rate with p99 < ${TARGET_P99_MS} ms, ${what}`,
      value: swept.highestWithinTarget,
      unit: 'req/s',
      baseline: bareSwept.highestWithinTarget,
    });
  }
}
