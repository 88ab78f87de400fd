/**
 * De minimis (SPEC §9, §5): a 300,000 EUR ceiling over a rolling 3 years, shown as 36 monthly points
 * from the current month forward, plus the four totals of the results page.
 * All sums are in cents; euro numbers are produced only for the DTOs.
 */
import type { DeMinimisPointDto, DocumentStatsDto } from './api';
import {
  addMonthsToYearMonth,
  addYears,
  firstDayOfMonth,
  romeMonth,
  threeYearsAgo,
  type YearMonth,
} from './dates';
import { formatMonthLabel } from './formatting';
import { centsToEuro } from './money';

export const DE_MINIMIS_CEILING_EURO = 300_000;
export const DE_MINIMIS_CEILING_CENTS = DE_MINIMIS_CEILING_EURO * 100;
export const DE_MINIMIS_WINDOW_YEARS = 3;
export const DE_MINIMIS_SERIES_MONTHS = 36;

/** What the rules need of an aid: grant day 'YYYY-MM-DD', aid element in cents, de minimis or not. */
export interface DeMinimisRow {
  dataConcessione: string;
  elementoDiAiutoCents: number;
  isDeMinimis: boolean;
}

/** COD_PROCEDIMENTO 1 or DES_PROCEDIMENTO 'De Minimis' (any case) marks a de minimis aid. */
export function isDeMinimisProcedure(
  codProcedimento: string | null | undefined,
  desProcedimento: string | null | undefined,
): boolean {
  return (
    (codProcedimento ?? '').trim() === '1' || (desProcedimento ?? '').trim().toLowerCase() === 'de minimis'
  );
}

/**
 * Cents of de minimis aid granted in [first day of `month` − 3 years, first day of `month`).
 * Grant days are 'YYYY-MM-DD', so text order is date order.
 */
export function deMinimisUsedCents(rows: readonly DeMinimisRow[], month: YearMonth): number {
  const windowEnd = firstDayOfMonth(month);
  const windowStart = addYears(windowEnd, -DE_MINIMIS_WINDOW_YEARS);
  let used = 0;
  for (const row of rows) {
    if (row.isDeMinimis && row.dataConcessione >= windowStart && row.dataConcessione < windowEnd) {
      used += row.elementoDiAiutoCents;
    }
  }
  return used;
}

/**
 * 36 points from the current month (Europe/Rome) forward: what is used and what remains of the
 * ceiling at the start of each month. Remaining is not clamped: an exceeded ceiling is negative.
 */
export function deMinimisSeries(rows: readonly DeMinimisRow[], now: Date | number): DeMinimisPointDto[] {
  const current = romeMonth(now);
  return Array.from({ length: DE_MINIMIS_SERIES_MONTHS }, (_, offset) => {
    const month = addMonthsToYearMonth(current, offset);
    const used = deMinimisUsedCents(rows, month);
    return {
      month: formatMonthLabel(month),
      total: centsToEuro(used),
      remaining: centsToEuro(DE_MINIMIS_CEILING_CENTS - used),
    };
  });
}

/** The current month's remaining allowance in euro: the first point of the series. */
export function deMinimisRemaining(rows: readonly DeMinimisRow[], now: Date | number): number {
  return centsToEuro(DE_MINIMIS_CEILING_CENTS - deMinimisUsedCents(rows, romeMonth(now)));
}

/**
 * The four stat cards: only aids granted within the last 3 years (grant day ≥ today − 3 years in Rome)
 * count; the remaining de minimis is the current month's point of the series.
 */
export function documentTotals(rows: readonly DeMinimisRow[], now: Date | number): DocumentStatsDto {
  const since = threeYearsAgo(now);
  let totalDocuments = 0;
  let totalCents = 0;
  let deMinimisCents = 0;
  for (const row of rows) {
    if (row.dataConcessione < since) continue;
    totalDocuments += 1;
    totalCents += row.elementoDiAiutoCents;
    if (row.isDeMinimis) deMinimisCents += row.elementoDiAiutoCents;
  }
  return {
    totalDocuments,
    totalImport: centsToEuro(totalCents),
    totalImportDeMinimis: centsToEuro(deMinimisCents),
    remainingDeMinimis: deMinimisRemaining(rows, now),
  };
}
