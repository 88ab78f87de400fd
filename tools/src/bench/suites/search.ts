/**
 * Search suite: GET /api/documents on an aid index of BENCH_SEARCH_AIDS aids (default 2,000,000):
 * - per size: tax codes holding 1 to 5,000 aids as ADMIN (BENCH_SEARCH_SIZES, default 10,1000, any
 *   of 1,10,100,1000,5000), beside the bare index look-up of the same codes;
 * - a metered CLIENT over distinct codes (each search charged: a repeat of the same search the same
 *   day is free and would measure nothing of the quota decision);
 * - real traffic: 10,000 more codes whose sizes follow P(k) ∝ k^-1.8 (most have 1–5 aids, ~160 have
 *   100 or more, ~20 thousands; the distribution is printed), asked with a Zipf popularity (the r-th
 *   most asked code ∝ 1/r, ranks given to codes at random), as ADMIN with the portal's look-up cache
 *   and without it, and as 20 metered CLIENTs sharing the traffic (a client's repeat of a code the
 *   same day is free but still decided on its quota stream);
 * - a search followed by its Excel and PDF, for 10, 1,000 and 5,000 aids, with the look-up cache
 *   (the reports reuse the search's aids) and without (each looks them up: the baseline);
 * then Excel and PDF times for 100 and 1,000 rows.
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
import { aidLookups, searchResult } from '@rna/api/documents';
import { startApiHarness, type ApiHarness } from '@rna/api/documents/testing';
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
import { seededRandom } from '../../generator/random';
import { describeDistribution, shuffled, sizeDistribution, zipfSampler, zipfSizes } from '../real-traffic';
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

/** Every size the per-size rows can run (BENCH_SEARCH_SIZES), and those they run by default. */
const SIZES = [1, 10, 100, 1_000, 5_000] as const;
const DEFAULT_SIZES = [10, 1_000] as const;
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
  target: LoadTarget & { urls?: readonly string[]; headerSets?: readonly Record<string, string>[] },
  ratePerSecond: number,
  seconds: number,
) {
  const load = { ...target, connections: CONNECTIONS, ratePerSecond };
  // one header set per address: both lists are cut at the same place
  const warmUp = {
    urls: target.urls?.slice(0, ratePerSecond),
    headerSets: target.headerSets?.slice(0, ratePerSecond),
  };
  const measured = {
    urls: target.urls?.slice(ratePerSecond),
    headerSets: target.headerSets?.slice(ratePerSecond),
  };
  await pacedLoad({ ...load, ...warmUp, durationSeconds: 1 });
  return pacedLoad({ ...load, ...measured, durationSeconds: seconds });
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
    // the register's ids are integers (the index refuses others)
    idComponenteAiuto: String(800_000_000 + size * 10_000 + i),
    codiceFiscaleBeneficiario: sizedTaxCode(size),
  }));
}

/** Real traffic: REAL_CODES codes (starting with 8) sized by a Zipf-like law, α = REAL_SIZE_EXPONENT. */
const REAL_CODES = 10_000;
const REAL_SIZE_EXPONENT = 1.8;
const REAL_MAX_SIZE = 5_000;
/** Popularity: the r-th most asked code is asked ∝ 1 / r (Zipf's law). */
const REAL_POPULARITY_EXPONENT = 1;
/** Metered clients sharing the real traffic: each repeats its own codes, free but still decided. */
const REAL_CLIENTS = 20;

const realTaxCode = (i: number) => `8${String(i).padStart(10, '0')}`;

/** Each real-traffic code's aids, shaped like the synthetic register's. */
function realAids(sizes: readonly number[], code: number): AidRecord[] {
  const size = sizes[code]!;
  return syntheticAids(100_000_000 + code * REAL_MAX_SIZE, 100_000_000 + code * REAL_MAX_SIZE + size, 1).map(
    (aid, i) => ({
      ...aid,
      idComponenteAiuto: String(1_000_000_000 + code * REAL_MAX_SIZE + i),
      codiceFiscaleBeneficiario: realTaxCode(code),
    }),
  );
}

/**
 * The real traffic's requests, drawn on: which code (by popularity, each rank mapped to a code at
 * random so that popularity does not follow size) and, for clients, which one asks. Counts what the
 * quota decision makes of the clients' searches: a client's first search of a code that day is
 * charged, its repeats are free (and decided all the same).
 */
function realTraffic(sizes: readonly number[]) {
  const rankToCode = shuffled(REAL_CODES, seededRandom(12));
  const nextRank = zipfSampler(REAL_CODES, REAL_POPULARITY_EXPONENT, seededRandom(11));
  const nextClient = seededRandom(13);
  const seenByClient = Array.from({ length: REAL_CLIENTS }, () => new Set<number>());
  let charged = 0;
  let free = 0;
  return {
    /** `count` codes, as drawn. */
    codes: (count: number) => Array.from({ length: count }, () => rankToCode[nextRank()]!),
    /** `count` codes each with the client (0…REAL_CLIENTS-1) that asks for it. */
    clientCodes(count: number) {
      return Array.from({ length: count }, () => {
        const code = rankToCode[nextRank()]!;
        const client = Math.floor(nextClient() * REAL_CLIENTS);
        const seen = seenByClient[client]!;
        if (seen.has(code)) free += 1;
        else {
          seen.add(code);
          charged += 1;
        }
        return { code, client };
      });
    },
    metering: () => ({ charged, free }),
    /** The share of requests by the asked code's size, over a sample of draws (its own, not the loads'). */
    mix(): { handful: number; note: string } {
      const nextSample = zipfSampler(REAL_CODES, REAL_POPULARITY_EXPONENT, seededRandom(99));
      const draws = Array.from({ length: 100_000 }, () => sizes[rankToCode[nextSample()]!]!);
      const percent = (n: number) => (n / draws.length) * 100;
      return {
        handful: percent(draws.filter((size) => size <= 5).length),
        note: sizeDistribution(draws)
          .map((row) => `${row.label}: ${percent(row.codes).toFixed(2)} %`)
          .join('; '),
      };
    },
  };
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

interface RealTrafficContext {
  ctx: BenchContext;
  api: ApiHarness;
  rows: BenchRow[];
  searchUrl: (code: string) => string;
  rates: number[];
  seconds: number;
  bareSwept: SweepResult;
}

/**
 * The search over real traffic: REAL_CODES codes with Zipf-like sizes, asked with a Zipf-like
 * popularity, at rising paced rates; as ADMIN with the portal's look-up cache and without it, and as
 * REAL_CLIENTS metered clients (with the cache), beside the bare Express handler's sweep.
 */
async function realTrafficRows(run: RealTrafficContext, sizes: readonly number[]): Promise<void> {
  const { ctx, api, rows, searchUrl, rates, seconds, bareSwept } = run;
  const traffic = realTraffic(sizes);
  rows.push({
    metric: `real traffic: ${REAL_CODES.toLocaleString('en-US')} codes, sizes P(k) ∝ k^-${REAL_SIZE_EXPONENT}`,
    value: sizes.reduce((sum, size) => sum + size, 0),
    unit: 'aids',
    note: `codes (aids) by size: ${describeDistribution(sizeDistribution(sizes))}`,
  });
  const mix = traffic.mix();
  rows.push({
    metric: `real traffic: requests for codes of 1–5 aids (popularity ∝ 1/rank, independent of size)`,
    value: mix.handful,
    unit: '%',
    note: `requests by the code's size: ${mix.note}`,
  });
  // every code's pages read once, so that neither sweep below starts on a colder index than the other
  for (let code = 0; code < REAL_CODES; code++)
    await api.deps.aidIndex.search({ taxCodes: [realTaxCode(code)] });
  const needed = (ratePerSecond: number) => Math.ceil(ratePerSecond * (seconds + 1));
  const adminHeaders = { authorization: `Bearer ${api.adminToken}` };
  const cache = api.deps.aidLookups;
  const adminSweep = () =>
    sweepRates({
      rates,
      targetP99Ms: TARGET_P99_MS,
      maxRate: Number.POSITIVE_INFINITY,
      measure: (ratePerSecond) =>
        paced(
          {
            url: searchUrl(realTaxCode(0)),
            urls: traffic.codes(needed(ratePerSecond)).map((code) => searchUrl(realTaxCode(code))),
            headers: adminHeaders,
          },
          ratePerSecond,
          seconds,
        ),
    });
  // without the cache first, so that the cache's sweep starts as cold as the portal after a restart
  api.deps.aidLookups = undefined;
  const uncached = await adminSweep();
  // a cache of its own for each cached sweep: it starts empty, and its counters are that sweep's
  const freshCache = () => (api.deps.aidLookups = aidLookups({ documents: api.deps.documents }));
  freshCache();
  const cached = await adminSweep();
  const cacheNote = () => {
    const stats = api.deps.aidLookups?.stats();
    return stats
      ? `look-up cache: ${stats.hits.toLocaleString('en-US')} hits, ${stats.misses.toLocaleString('en-US')} misses, ${stats.aids.toLocaleString('en-US')} aids held`
      : '';
  };
  pushSweepRows(rows, cached, bareSwept, 'real traffic, ADMIN', true, cacheNote());
  pushSweepRows(rows, uncached, bareSwept, 'real traffic, ADMIN, look-up cache off', true);
  ctx.log(
    `real traffic as ADMIN: p99 < ${TARGET_P99_MS} ms up to ${cached.highestWithinTarget} req/s ` +
      `(${uncached.highestWithinTarget} req/s without the cache)`,
  );

  const clients: { token: string }[] = [];
  for (let i = 0; i < REAL_CLIENTS; i++) clients.push(await api.client({ remainingSearches: 1_000_000 }));
  freshCache();
  const metered = await sweepRates({
    rates,
    targetP99Ms: TARGET_P99_MS,
    maxRate: Number.POSITIVE_INFINITY,
    measure: (ratePerSecond) => {
      const asked = traffic.clientCodes(needed(ratePerSecond));
      return paced(
        {
          url: searchUrl(realTaxCode(0)),
          urls: asked.map(({ code }) => searchUrl(realTaxCode(code))),
          headerSets: asked.map(({ client }) => ({ authorization: `Bearer ${clients[client]!.token}` })),
          headers: {},
        },
        ratePerSecond,
        seconds,
      );
    },
  });
  const { charged, free } = traffic.metering();
  pushSweepRows(
    rows,
    metered,
    bareSwept,
    `real traffic, ${REAL_CLIENTS} metered CLIENTs`,
    true,
    `clients' searches, warm-ups included: ${charged.toLocaleString('en-US')} charged, ${free.toLocaleString('en-US')} free repeats (decided all the same); ${cacheNote()}`,
  );
  ctx.log(
    `real traffic as ${REAL_CLIENTS} clients: p99 < ${TARGET_P99_MS} ms up to ${metered.highestWithinTarget} req/s`,
  );
  api.deps.aidLookups = cache;
}

/**
 * A user's search, then its Excel and PDF, one after the other, with the portal's look-up cache
 * (emptied before each flow, so the search looks its aids up and the reports reuse them) and without
 * it (each of the three looks them up): the time of the three answers, whole bodies read.
 */
async function searchThenReportsRows(
  ctx: BenchContext,
  api: ApiHarness,
  rows: BenchRow[],
  baseUrl: string,
  lookUps: { count: number },
): Promise<void> {
  const headers = { authorization: `Bearer ${api.adminToken}` };
  const flow = async (code: string) => {
    const query = `taxCodes=${code}&deMinimis=false&last3Years=false`;
    const started = performance.now();
    for (const path of ['documents', 'documents/sheet', 'documents/pdf']) {
      const response = await fetch(`${baseUrl}/api/${path}?${query}`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    }
    return performance.now() - started;
  };
  const cache = api.deps.aidLookups;
  const counted = { on: 0, off: 0 };
  const withCache = async (code: string) => {
    api.deps.aidLookups = aidLookups({ documents: api.deps.documents });
    const before = lookUps.count;
    const ms = await flow(code);
    counted.on += lookUps.count - before;
    return ms;
  };
  const withoutCache = async (code: string) => {
    api.deps.aidLookups = undefined;
    const before = lookUps.count;
    const ms = await flow(code);
    counted.off += lookUps.count - before;
    return ms;
  };
  try {
    for (const size of [10, 1_000, 5_000]) {
      const code = sizedTaxCode(size);
      await withCache(code); // warm-up: Chromium's first page, the code's pages in SQLite's cache
      await withoutCache(code);
      counted.on = 0;
      counted.off = 0;
      const runs = await alternating(
        5,
        () => withoutCache(code),
        () => withCache(code),
      );
      const off = spread(runs.baseline);
      const on = spread(runs.subject);
      rows.push({
        metric: `search → Excel → PDF, ${size} aids, ADMIN, look-up cache on (baseline: off)`,
        value: on.median,
        unit: 'ms',
        baseline: off.median,
        note: `medians of 5; on ${describeSpread(on, 0)}, off ${describeSpread(off, 0)}; index look-ups per flow: ${counted.on / 5} on, ${counted.off / 5} off`,
      });
      ctx.log(
        `search → Excel → PDF of ${size} aids: ${on.median.toFixed(0)} ms with the cache, ${off.median.toFixed(0)} ms without`,
      );
    }
  } finally {
    api.deps.aidLookups = cache;
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
    const sizes = parseRates(ctx.env.BENCH_SEARCH_SIZES, DEFAULT_SIZES);
    const unknownSize = sizes.find((size) => !(SIZES as readonly number[]).includes(size));
    if (unknownSize !== undefined)
      throw new Error(`BENCH_SEARCH_SIZES: ${unknownSize} is not one of ${SIZES.join(', ')}`);
    const rows: BenchRow[] = [];
    const renderer = new ChromiumPdfRenderer({ poolSize: 2 });
    // the look-ups the API asks of the index (the search → Excel → PDF rows count them)
    const lookUps = { count: 0 };
    const countedIndex = Object.assign(Object.create(aidIndex) as typeof aidIndex, {
      search: (query: Parameters<typeof aidIndex.search>[0]) => {
        lookUps.count += 1;
        return aidIndex.search(query);
      },
    });
    // Pinned at the bench's start: tokens signed now stay valid however long the loads run.
    const api = await startApiHarness({ aidIndex: countedIndex, pdfRenderer: renderer }, { now: new Date() });
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
      const realSizes = zipfSizes(REAL_CODES, REAL_SIZE_EXPONENT, REAL_MAX_SIZE);
      let realBatch: AidRecord[] = [];
      for (let code = 0; code < REAL_CODES; code++) {
        realBatch.push(...realAids(realSizes, code));
        if (realBatch.length < BATCH && code < REAL_CODES - 1) continue;
        await aidIndex.upsert(realBatch);
        realBatch = [];
      }
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
      for (const size of sizes) {
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

      await realTrafficRows({ ctx, api, rows, searchUrl, rates, seconds, bareSwept }, realSizes);
      await searchThenReportsRows(ctx, api, rows, `http://127.0.0.1:${port}`, lookUps);
    } finally {
      await bareServer.close();
      await closeServer(server);
      await api.close();
      await aidIndex.close();
      await renderer.close();
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
  highestNote?: string,
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
      note: highestNote,
    });
  }
}
