/**
 * Search suite: GET /api/documents under load (autocannon, 50 connections) on an aid index of
 * BENCH_SEARCH_AIDS aids (default 2,000,000), for tax codes holding 1 to 5,000 aids, beside the bare
 * index look-up of the same codes in the same run; then Excel and PDF times for 100 and 1,000 rows.
 * Two loads per code: autocannon's closed loop at saturation (throughput; its latency is the queue,
 * about connections ÷ throughput) and a paced open-model load at BENCH_SEARCH_RATE requests/s
 * (default 200; half the saturation throughput when that is lower) over the same 50 connections,
 * timed from each request's due instant.
 * Targets: p99 < 25 ms for codes with ≤ 100 aids; PDF < 400 ms warm for 100 rows.
 * BENCH_SEARCH_SECONDS (default 8) per load run.
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { AidRecord } from '@rna/domain';
import { searchResult } from '@rna/api/documents';
import { startApiHarness } from '@rna/api/documents/testing';
import { buildExcelReport, DEFAULT_BRANDING, pdfFooterTemplate, pdfReportHtml } from '@rna/api/reports';
import { openSqliteAidIndex } from '@rna/infra/aid-index';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import { envInt, percentile, rate, type BenchContext, type BenchRow, type BenchSuite } from '../bench-suite';
import { pacedLoad } from '../paced-load';
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
    const pacedRate = envInt(ctx.env, 'BENCH_SEARCH_RATE', 200);
    const aidIndex = openSqliteAidIndex(path.join(ctx.tmpDir, 'bench-aids.db'));
    const rows: BenchRow[] = [];
    const api = await startApiHarness({ aidIndex });
    const server = api.app.listen(0, '127.0.0.1');
    const listening = new Promise<void>((resolve) => server.once('listening', () => resolve()));
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

      await listening;
      const { port } = server.address() as AddressInfo;
      const client = await api.client({ remainingSearches: 1_000_000 });
      for (const size of SIZES) {
        const code = sizedTaxCode(size);
        const bare = await bareLookups(
          (c) => aidIndex.search({ taxCodes: [c] }),
          code,
          size >= 1_000 ? 50 : 500,
        );
        for (const [who, token] of [
          ['ADMIN', api.adminToken],
          ['CLIENT (metered)', client.token],
        ] as const) {
          if (who === 'CLIENT (metered)' && size > 100) continue;
          const url = `http://127.0.0.1:${port}/api/documents?taxCodes=${code}&deMinimis=false&last3Years=false`;
          const headers = { authorization: `Bearer ${token}` };
          const target = size <= 100 ? 'target p99 < 25 ms' : undefined;
          const result = await autocannon({
            url,
            connections: 50,
            duration: seconds,
            // the load is generated on another thread, so that it does not slow the server it measures
            workers: 1,
            timeout: 30,
            headers,
          });
          const failures = result.non2xx + result.errors;
          rows.push({
            metric: `search p50 at saturation, ${size} aids, ${who}`,
            value: result.latency.p50,
            unit: 'ms',
            baseline: percentile(bare, 50),
            note: 'closed loop, 50 connections: latency ≈ 50 ÷ throughput',
          });
          rows.push({
            metric: `search p99 at saturation, ${size} aids, ${who}`,
            value: result.latency.p99,
            unit: 'ms',
            baseline: percentile(bare, 99),
            note: failures ? `${failures} failures` : undefined,
          });
          rows.push({
            metric: `search throughput at saturation, ${size} aids, ${who}`,
            value: result.requests.average,
            unit: 'req/s',
            baseline: rate(1, percentile(bare, 50)),
            note: 'baseline: sequential bare look-ups/s',
          });
          // Paced at the stated rate, or at half the saturation throughput for codes the server cannot
          // answer that often (a load beyond capacity measures only an ever-growing queue).
          const offered = Math.max(1, Math.min(pacedRate, Math.floor(result.requests.average / 2)));
          const load = { url, headers, connections: 50, ratePerSecond: offered };
          // One second of the same load first, not counted: connections opened and code paths compiled.
          await pacedLoad({ ...load, durationSeconds: 1 });
          const paced = await pacedLoad({ ...load, durationSeconds: seconds });
          const pacedNote = (extra?: string) =>
            [extra, paced.failures ? `${paced.failures} failures` : undefined].filter(Boolean).join('; ');
          rows.push({
            metric: `search p50 at ${offered} req/s paced, ${size} aids, ${who}`,
            value: paced.p50,
            unit: 'ms',
            baseline: percentile(bare, 50),
            note: pacedNote('baseline: bare index look-up'),
          });
          rows.push({
            metric: `search p99 at ${offered} req/s paced, ${size} aids, ${who}`,
            value: paced.p99,
            unit: 'ms',
            baseline: percentile(bare, 99),
            note: pacedNote(target) || undefined,
          });
          ctx.log(
            `load on ${size} aids as ${who}: ${result.requests.average} req/s at saturation, p99 ${paced.p99.toFixed(1)} ms at ${offered} req/s`,
          );
        }
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await api.close();
      await aidIndex.close();
    }
    await reportRows(ctx, rows);
    return rows;
  },
};
