/**
 * Reports suite: report.pdf and report.xlsx of one company with 100 to 50,000 aids
 * (BENCH_REPORTS_SIZES, default 100,1000,10000,50000), each next to how the report used to be made,
 * in the same run:
 * - PDF: the portal's way (Chromium renders the summary, the table pages are drawn and streamed)
 *   against one Chromium render of the whole report. That render is timed up to
 *   BENCH_REPORTS_SINGLE_RENDER_MAX rows (default 10,000, about 15 s); above, it is not run and the
 *   note gives an estimate from its per-row cost (never in the baseline column).
 * - Excel: exceljs' streaming writer against its in-memory Workbook, same sheets.
 * Every figure comes from a process of its own (reports.worker.ts) after a warm-up on 100 rows, so
 * its peak RSS is that report's alone: the portal's process, Chromium's own processes not included.
 * SAMPLES reports per figure (the median, with its spread), the old way and the new alternating, each
 * report in a process of its own; above the single render's limit no baseline is shown (an estimate in
 * the note only).
 * Targets: PDF 100 rows < 400 ms, 10,000 < 3 s, 50,000 < 30 s with RSS < 600 MB; Excel 50,000 < 3 s.
 * Then the screen's answer of the same search (answer-size.ts): JSON of 7,888 aids < 2 MB.
 */
import { fork } from 'node:child_process';
import path from 'node:path';
import {
  alternating,
  describeSpread,
  envInt,
  SAMPLES,
  spread,
  type BenchRow,
  type BenchSuite,
} from '../bench-suite';
import { ANSWER_SIZES, answerSizeRows } from './answer-size';
import type { ReportMeasure, ReportVariant } from './reports.worker';

const DEFAULT_SIZES = [100, 1_000, 10_000, 50_000] as const;

function parseSizes(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_SIZES];
  const sizes = raw.split(',').map((part) => Number(part.trim().replace(/_/g, '')));
  if (sizes.some((size) => !Number.isInteger(size) || size <= 0))
    throw new Error(`BENCH_REPORTS_SIZES must be positive integers, got ${JSON.stringify(raw)}`);
  return sizes;
}

/** Runs one measurement in a child process with this process's Node flags. */
function measureInChild(variant: ReportVariant, size: number, samples: number): Promise<ReportMeasure> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'reports.worker.js'), [variant, String(size), String(samples)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: ReportMeasure | undefined;
    child.on('message', (message) => {
      result = message as ReportMeasure;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (result) resolve(result);
      else reject(new Error(`${variant} of ${size} rows: the measuring process exited with ${code}`));
    });
  });
}

/** Several one-report processes as one measure: every time, the highest peaks. */
function merged(measures: ReportMeasure[]): ReportMeasure {
  return {
    timesMs: measures.flatMap((m) => m.timesMs),
    peakRssMb: Math.max(...measures.map((m) => m.peakRssMb)),
    rssBeforeMb: Math.max(...measures.map((m) => m.rssBeforeMb)),
    bytes: measures.at(-1)?.bytes ?? 0,
  };
}

/**
 * The old way and the new one, SAMPLES reports each, alternating which goes first, each report in a
 * process of its own: neither side always finds the page cache, Chromium's files or the CPU warm.
 */
async function measurePair(
  baseline: ReportVariant,
  subject: ReportVariant,
  size: number,
): Promise<{ baseline: ReportMeasure; subject: ReportMeasure }> {
  const result = await alternating(
    SAMPLES,
    () => measureInChild(baseline, size, 1),
    () => measureInChild(subject, size, 1),
  );
  return { baseline: merged(result.baseline), subject: merged(result.subject) };
}

const mb = (value: number) => `${Math.round(value)} MB`;

export const reportsSuite: BenchSuite = {
  name: 'reports',
  description:
    'report.pdf (summary by Chromium + drawn, streamed table) and streamed report.xlsx vs the old ways',
  async run(ctx): Promise<BenchRow[]> {
    const sizes = parseSizes(ctx.env.BENCH_REPORTS_SIZES);
    const singleRenderMax = envInt(ctx.env, 'BENCH_REPORTS_SINGLE_RENDER_MAX', 10_000);
    const rows: BenchRow[] = [];
    /** The single render's cost per row at the largest size it ran: the baseline above that size. */
    let singleRenderPerRowMs: { size: number; ms: number } | undefined;

    for (const size of sizes) {
      const label = size.toLocaleString('en-US');
      let pdf: ReportMeasure;
      let baselineMs: number | undefined;
      let baselineNote: string;
      let baselineRss: number | undefined;
      if (size <= singleRenderMax) {
        const pair = await measurePair('pdf-single-render', 'pdf', size);
        pdf = pair.subject;
        const singleTime = spread(pair.baseline.timesMs);
        baselineMs = singleTime.median;
        baselineRss = pair.baseline.peakRssMb;
        singleRenderPerRowMs = { size, ms: singleTime.median / size };
        baselineNote = `single render ${describeSpread(singleTime, 0)}`;
      } else {
        pdf = await measureInChild('pdf', size, SAMPLES);
        // an estimate is not a measure: it stays out of the baseline column and its ratio
        baselineNote = singleRenderPerRowMs
          ? `single render not run above ${singleRenderMax.toLocaleString('en-US')} rows (at ${singleRenderPerRowMs.ms.toFixed(2)} ms/row, measured at ${singleRenderPerRowMs.size.toLocaleString('en-US')} rows, it would take ~${Math.round((singleRenderPerRowMs.ms * size) / 1000)} s: an estimate)`
          : 'single render not run';
      }
      const pdfTime = spread(pdf.timesMs);
      rows.push({
        metric: `PDF, ${label} rows (median)`,
        value: pdfTime.median,
        unit: 'ms',
        baseline: baselineMs,
        note: `${describeSpread(pdfTime, 0)}; ${(pdf.bytes / 1e6).toFixed(2)} MB; baseline: ${baselineNote}`,
      });
      rows.push({
        metric: `PDF, ${label} rows: peak RSS`,
        value: pdf.peakRssMb,
        unit: 'MB',
        baseline: baselineRss,
        note: `${mb(pdf.rssBeforeMb)} before the timed reports (input and warm-up)`,
      });
      ctx.log(`PDF of ${label} rows: ${Math.round(pdfTime.median)} ms, peak RSS ${mb(pdf.peakRssMb)}`);

      const { baseline: inMemory, subject: excel } = await measurePair('excel-in-memory', 'excel', size);
      const excelTime = spread(excel.timesMs);
      const inMemoryTime = spread(inMemory.timesMs);
      rows.push({
        metric: `Excel, ${label} rows (median)`,
        value: excelTime.median,
        unit: 'ms',
        baseline: inMemoryTime.median,
        note: `streamed ${describeSpread(excelTime, 0)}; in-memory Workbook ${describeSpread(inMemoryTime, 0)}`,
      });
      rows.push({
        metric: `Excel, ${label} rows: peak RSS`,
        value: excel.peakRssMb,
        unit: 'MB',
        baseline: inMemory.peakRssMb,
        note: `${mb(excel.rssBeforeMb)} before the timed reports`,
      });
      ctx.log(`Excel of ${label} rows: ${Math.round(excelTime.median)} ms, peak RSS ${mb(excel.peakRssMb)}`);
    }
    for (const size of ANSWER_SIZES) rows.push(...answerSizeRows(size, new Date()));
    return rows;
  },
};
