/**
 * One measurement of the reports suite, in a process of its own so that its peak RSS is its own:
 * builds a report input of `size` rows, warms up (Chromium launched, code compiled) on 100 rows,
 * then times `samples` reports of one variant and sends the times and the process's peak RSS.
 * Run by reports.ts: node reports.worker.js <variant> <size> <samples>
 */
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { searchResult } from '@rna/api/documents';
import {
  addReportSheets,
  pdfFooterTemplate,
  pdfReportHtml,
  preparePdfReport,
  writeExcelReport,
  type ReportInput,
} from '@rna/api/reports';
import { aReportInput } from '@rna/api/reports/testing';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import { syntheticAids } from './storage';

export type ReportVariant = 'pdf' | 'pdf-single-render' | 'excel' | 'excel-in-memory';

export interface ReportMeasure {
  timesMs: number[];
  /** The process's peak resident set over its whole life (input, warm-up and the timed reports). */
  peakRssMb: number;
  /** Resident set once the input is built and the warm-up done. */
  rssBeforeMb: number;
  bytes: number;
}

/**
 * `size` rows of one company, from the same synthetic aids as the other suites; one in five has a
 * title long enough to wrap over three lines, as register titles often do.
 */
export function reportInputOf(size: number): ReportInput {
  const aids = syntheticAids(80_000_000, 80_000_000 + size, 1).map((aid, i) =>
    i % 5 === 0
      ? {
          ...aid,
          titoloMisura: `${aid.titoloMisura}: contributi a fondo perduto per investimenti ${'in beni strumentali nuovi '.repeat(3)}`,
        }
      : aid,
  );
  const result = searchResult(
    { taxCodes: [aids[0]?.codiceFiscaleBeneficiario ?? ''], deMinimis: false, last3Years: false },
    'ARCHIVE',
    { aids, sources: [] },
    new Date(),
    null,
  );
  return { ...aReportInput(result.rows), result };
}

/** Counts what it is given and keeps nothing: the bytes go nowhere, as on a fast network. */
class CountingSink extends Writable {
  bytes = 0;
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.bytes += chunk.length;
    done();
  }
}

async function produce(
  variant: ReportVariant,
  input: ReportInput,
  renderer: ChromiumPdfRenderer,
): Promise<number> {
  switch (variant) {
    case 'pdf': {
      const report = await preparePdfReport(input, renderer);
      let bytes = 0;
      for await (const chunk of report.chunks()) bytes += chunk.length;
      return bytes;
    }
    case 'pdf-single-render':
      return (
        await renderer.render(pdfReportHtml(input), { footerTemplate: pdfFooterTemplate(input.branding) })
      ).length;
    case 'excel': {
      const sink = new CountingSink();
      await writeExcelReport(input, sink);
      return sink.bytes;
    }
    case 'excel-in-memory': {
      const workbook = new ExcelJS.Workbook();
      addReportSheets(workbook, input);
      return (await workbook.xlsx.writeBuffer()).byteLength;
    }
  }
}

export async function measure(variant: ReportVariant, size: number, samples: number): Promise<ReportMeasure> {
  // the single render of 10,000 rows takes longer than the portal's 20 s limit: no limit here
  const renderer = new ChromiumPdfRenderer({ poolSize: 1, timeoutMs: 600_000 });
  try {
    await produce(variant, reportInputOf(100), renderer);
    const input = reportInputOf(size);
    const rssBeforeMb = process.memoryUsage().rss / 1e6;
    const timesMs: number[] = [];
    let bytes = 0;
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      bytes = await produce(variant, input, renderer);
      timesMs.push(performance.now() - started);
    }
    return { timesMs, rssBeforeMb, peakRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6, bytes };
  } finally {
    await renderer.close();
  }
}

if (require.main === module) {
  const [variant, size, samples] = process.argv.slice(2);
  measure(variant as ReportVariant, Number(size), Number(samples)).then(
    (result) => {
      process.send?.(result);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
