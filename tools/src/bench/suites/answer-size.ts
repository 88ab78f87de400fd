/**
 * The size of GET /documents' answer for one company with many aids: the answer as sent now (rows of
 * the spec's own values, with indexes into measure titles and beneficiaries sent once), and the same
 * with details=true (each aid's references by column, granting bodies and regulations sent once),
 * against the full rows it used to send, in bytes of JSON and once compressed as the web
 * server does (gzip level 6, brotli quality 4), plus the time to build and serialise it. The aids are
 * the storage suite's generated ones (shorter titles than the register's, so the old answer here is
 * smaller than a real one).
 */
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { searchAnswer } from '@rna/domain';
import { searchResult } from '@rna/api/documents';
import { spread, SAMPLES, type BenchRow } from '../bench-suite';
import { syntheticAids } from './storage';

export const ANSWER_SIZES = [1_466, 7_888] as const;

const kb = (bytes: number) => bytes / 1024;

/** Median ms of `work`, SAMPLES times after one warm-up. */
function timed(work: () => unknown): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return spread(times).median;
}

export function answerSizeRows(size: number, now: Date): BenchRow[] {
  const taxCode = '01234567897';
  const aids = syntheticAids(0, size, 1).map((aid) => ({ ...aid, codiceFiscaleBeneficiario: taxCode }));
  const request = { taxCodes: [taxCode], deMinimis: false, last3Years: false };
  const sources = [{ taxCode, source: 'ARCHIVE' as const, asOf: now.getTime() }];
  const full = searchResult(request, 'ARCHIVE', { aids, sources }, now, now.getTime());
  const before = JSON.stringify(full);
  const after = JSON.stringify(searchAnswer(full));
  const detailed = JSON.stringify(searchAnswer(full, { details: true }));
  const brotli = (text: string) =>
    brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }).length;
  const label = size.toLocaleString('en-US');
  return [
    {
      metric: `search answer, ${label} aids: JSON`,
      value: kb(Buffer.byteLength(after)),
      unit: 'KB',
      baseline: kb(Buffer.byteLength(before)),
      note: 'baseline: every row with every field, as sent before',
    },
    {
      metric: `search answer, ${label} aids: gzip`,
      value: kb(gzipSync(after).length),
      unit: 'KB',
      baseline: kb(gzipSync(before).length),
      note: `brotli q4 ${kb(brotli(after)).toFixed(0)} KB (before ${kb(brotli(before)).toFixed(0)} KB)`,
    },
    {
      metric: `search answer, ${label} aids: build + serialise`,
      value: timed(() => JSON.stringify(searchAnswer(full))),
      unit: 'ms',
      baseline: timed(() => JSON.stringify(full)),
      note: 'median; baseline: serialising the full rows',
    },
    {
      metric: `search answer with details, ${label} aids: JSON`,
      value: kb(Buffer.byteLength(detailed)),
      unit: 'KB',
      baseline: kb(Buffer.byteLength(before)),
      note: `gzip ${kb(gzipSync(detailed).length).toFixed(0)} KB; baseline: every row with every field`,
    },
  ];
}
