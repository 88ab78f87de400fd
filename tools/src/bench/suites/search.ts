/**
 * Search suite: GET /api/documents on an aid index of BENCH_SEARCH_AIDS aids (default 2,000,000), for
 * tax codes holding 1 to 5,000 aids, as ADMIN and as a metered CLIENT, beside the bare index look-up
 * of the same codes; then Excel and PDF times for 100 and 1,000 rows.
 *
 * Two kinds of load, both over 50 keep-alive connections:
 * - autocannon's closed loop at saturation: throughput. Its latency is the queue (about
 *   connections ÷ throughput), so its p99 says more about the machine than about the search.
 * - a paced open-model load at rising rates (BENCH_SEARCH_RATES, default 100,200,500,1000,1500,2000
 *   requests/s, timed from each request's due instant): the p99 at each rate, and the highest rate
 *   whose p99 stays under the 25 ms target.
 * Every load also runs against a bare Express handler (one small JSON answer, no work) in the same
 * process: the baseline column, i.e. what the machine, the load generator and Express alone cost.
 * Targets: p99 < 25 ms for codes with ≤ 100 aids; PDF < 400 ms warm for 100 rows.
 * BENCH_SEARCH_SECONDS (default 8) per load run, after one second of warm-up.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { AidRecord } from '@rna/domain';
import { searchResult } from '@rna/api/documents';
import { startApiHarness } from '@rna/api/documents/testing';
import { buildExcelReport, DEFAULT_BRANDING, pdfFooterTemplate, pdfReportHtml } from '@rna/api/reports';
import { openSqliteAidIndex } from '@rna/infra/aid-index';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import express from 'express';
import type { Server } from 'node:http';
import { envInt, percentile, rate, type BenchContext, type BenchRow, type BenchSuite } from '../bench-suite';
import { pacedLoad } from '../paced-load';
import { parseRates, sweepRates, type SweepResult } from '../rate-sweep';
import { syntheticAids } from './storage';

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

/** One second of the same load first, not counted: connections opened and code paths compiled. */
async function paced(target: LoadTarget, ratePerSecond: number, seconds: number) {
  const load = { ...target, connections: CONNECTIONS, ratePerSecond };
  await pacedLoad({ ...load, durationSeconds: 1 });
  return pacedLoad({ ...load, durationSeconds: seconds });
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
async function bareExpressBaseline(seconds: number, rates: number[]) {
  const app = express();
  app.set('etag', false);
  app.get('/bare', (_req, res) => {
    res.json({ rows: [], stats: { totalDocuments: 0 } });
  });
  const server = app.listen(0, '127.0.0.1');
  try {
    const target = { url: `http://127.0.0.1:${await listen(server)}/bare`, headers: {} };
    const closedLoop = await saturation(target, seconds);
    const swept = await sweep(target, rates, closedLoop.requests.average, seconds);
    return { closedLoop, swept };
  } finally {
    await closeServer(server);
  }
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
        aids,
        new Date(),
        null,
      );
      const input = { result, generatedAt: new Date(), branding: DEFAULT_BRANDING };
      const excel: number[] = [];
      for (let i = 0; i < 5; i++) excel.push(await timedMs(() => buildExcelReport(input)));
      const html = pdfReportHtml(input);
      const footerTemplate = pdfFooterTemplate(input.branding);
      await renderer.render(html, { footerTemplate }); // warm-up: browser launch and first page
      const pdf: number[] = [];
      for (let i = 0; i < 5; i++) pdf.push(await timedMs(() => renderer.render(html, { footerTemplate })));
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
    const seconds = envInt(ctx.env, 'BENCH_SEARCH_SECONDS', 8);
    const rates = parseRates(ctx.env.BENCH_SEARCH_RATES, DEFAULT_RATES);
    const aidIndex = openSqliteAidIndex(path.join(ctx.tmpDir, 'bench-aids.db'));
    const rows: BenchRow[] = [];
    const api = await startApiHarness({ aidIndex });
    const server = api.app.listen(0, '127.0.0.1');
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

      const bare = await bareExpressBaseline(seconds, rates);
      rows.push({
        metric: 'bare Express handler at saturation: p99 / throughput',
        value: bare.closedLoop.latency.p99,
        unit: 'ms',
        note: `${Math.round(bare.closedLoop.requests.average)} req/s; the floor of every row below`,
      });
      rows.push({
        metric: `bare Express handler: highest paced rate with p99 < ${TARGET_P99_MS} ms`,
        value: bare.swept.highestWithinTarget,
        unit: 'req/s',
        note: bare.swept.steps.map((s) => `${s.rate}/s: p99 ${s.p99.toFixed(1)} ms`).join(', '),
      });
      ctx.log(`bare Express: ${bare.closedLoop.requests.average} req/s at saturation`);

      const port = await listen(server);
      const client = await api.client({ remainingSearches: 1_000_000 });
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
        for (const [who, token] of [
          ['ADMIN', api.adminToken],
          ['CLIENT (metered)', client.token],
        ] as const) {
          if (who === 'CLIENT (metered)' && size > 100) continue;
          const target = {
            url: `http://127.0.0.1:${port}/api/documents?taxCodes=${code}&deMinimis=false&last3Years=false`,
            headers: { authorization: `Bearer ${token}` },
          };
          const closedLoop = await saturation(target, seconds);
          const failures = closedLoop.non2xx + closedLoop.errors;
          rows.push({
            metric: `search at saturation p50, ${size} aids, ${who}`,
            value: closedLoop.latency.p50,
            unit: 'ms',
            baseline: bare.closedLoop.latency.p50,
            note: 'closed loop, 50 connections: latency ≈ 50 ÷ throughput',
          });
          rows.push({
            metric: `search at saturation p99, ${size} aids, ${who}`,
            value: closedLoop.latency.p99,
            unit: 'ms',
            baseline: bare.closedLoop.latency.p99,
            note: failures ? `${failures} failures` : undefined,
          });
          rows.push({
            metric: `search throughput at saturation, ${size} aids, ${who}`,
            value: closedLoop.requests.average,
            unit: 'req/s',
            baseline: bare.closedLoop.requests.average,
          });
          // Codes with up to 100 aids: the latency target as a capacity. Larger ones: one paced
          // load at the first rate, or at half the saturation throughput when that is lower.
          const swept: SweepResult =
            size <= 100
              ? await sweep(target, rates, closedLoop.requests.average, seconds)
              : await onePacedLoad(
                  target,
                  Math.max(1, Math.min(rates[0] ?? 100, Math.floor(closedLoop.requests.average / 2))),
                  seconds,
                );
          for (const step of swept.steps) {
            rows.push({
              metric: `search p99 at ${step.rate} req/s paced, ${size} aids, ${who}`,
              value: step.p99,
              unit: 'ms',
              baseline: p99AtRate(bare.swept, step.rate),
              note: [
                `p50 ${step.p50.toFixed(1)} ms`,
                size <= 100 ? `target < ${TARGET_P99_MS} ms` : undefined,
                step.failures ? `${step.failures} failures` : undefined,
              ]
                .filter(Boolean)
                .join('; '),
            });
          }
          if (size <= 100) {
            rows.push({
              metric: `highest paced rate with p99 < ${TARGET_P99_MS} ms, ${size} aids, ${who}`,
              value: swept.highestWithinTarget,
              unit: 'req/s',
              baseline: bare.swept.highestWithinTarget,
            });
          }
          ctx.log(
            `load on ${size} aids as ${who}: ${closedLoop.requests.average} req/s at saturation` +
              (size <= 100 ? `, p99 < ${TARGET_P99_MS} ms up to ${swept.highestWithinTarget} req/s` : ''),
          );
        }
      }
    } finally {
      await closeServer(server);
      await api.close();
      await aidIndex.close();
    }
    await reportRows(ctx, rows);
    return rows;
  },
};
