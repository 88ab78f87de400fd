/**
 * De minimis (SPEC §9, §5): a 300,000 EUR ceiling over a rolling 3 years, shown as 36 monthly points
 * from the current month forward, plus the four totals of the results page.
 * All sums are in cents; euro numbers are produced only for the DTOs.
 */
import type { CodeSummaryDto, DeMinimisPointDto, DocumentStatsDto } from './api';
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
import { normalizeTaxCode } from './tax-codes';

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
  return codProcedimento?.trim() === '1' || desProcedimento?.trim().toLowerCase() === 'de minimis';
}

/** The 3-year window ending (exclusive) on the first day of a month, as 'YYYY-MM-DD' bounds. */
interface MonthWindow {
  label: string;
  start: string;
  end: string;
}

function monthWindow(month: YearMonth): MonthWindow {
  const end = firstDayOfMonth(month);
  return { label: formatMonthLabel(month), start: addYears(end, -DE_MINIMIS_WINDOW_YEARS), end };
}

function usedInWindow(rows: readonly DeMinimisRow[], window: MonthWindow): number {
  let used = 0;
  for (const row of rows) {
    if (row.isDeMinimis && row.dataConcessione >= window.start && row.dataConcessione < window.end) {
      used += row.elementoDiAiutoCents;
    }
  }
  return used;
}

// Every search computes the same 36 windows until the month changes: the date arithmetic is done
// once per month instead of on every request (it was a visible share of a search's CPU).
let seriesWindows: { key: number; windows: readonly MonthWindow[] } | null = null;
function windowsFrom(current: YearMonth): readonly MonthWindow[] {
  // Stryker disable next-line all: a cache key; any key that changes with the month gives the same figures
  const key = current.year * 12 + current.month;
  // Stryker disable next-line ConditionalExpression: recomputing every time is the same figures, slower
  if (seriesWindows?.key !== key) {
    const windows = Array.from({ length: DE_MINIMIS_SERIES_MONTHS }, (_, offset) =>
      monthWindow(addMonthsToYearMonth(current, offset)),
    );
    seriesWindows = { key, windows };
  }
  return seriesWindows.windows;
}

/**
 * 36 points from the current month (Europe/Rome) forward: what is used and what remains of the
 * ceiling at the start of each month. Remaining is not clamped: an exceeded ceiling is negative.
 */
export function deMinimisSeries(rows: readonly DeMinimisRow[], now: Date | number): DeMinimisPointDto[] {
  return windowsFrom(romeMonth(now)).map((window) => {
    const used = usedInWindow(rows, window);
    return {
      month: window.label,
      total: centsToEuro(used),
      remaining: centsToEuro(DE_MINIMIS_CEILING_CENTS - used),
    };
  });
}

/** The current month's remaining allowance in euro: the first point of the series. */
export function deMinimisRemaining(rows: readonly DeMinimisRow[], now: Date | number): number {
  return centsToEuro(DE_MINIMIS_CEILING_CENTS - usedNow(rows, now));
}

/** Cents of de minimis used in the current month's window. */
function usedNow(rows: readonly DeMinimisRow[], now: Date | number): number {
  const [currentMonth] = windowsFrom(romeMonth(now));
  return currentMonth ? usedInWindow(rows, currentMonth) : 0;
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

/** An aid as the per-company summary needs it: whose it is, besides the de minimis fields. */
export interface BeneficiaryRow extends DeMinimisRow {
  codiceFiscaleBeneficiario: string;
  denominazioneBeneficiario: string;
}

/** The company's name as the register gives it on its first row that has one ('' when none has). */
function beneficiaryName(rows: readonly BeneficiaryRow[]): string {
  return rows.find((row) => row.denominazioneBeneficiario.trim() !== '')?.denominazioneBeneficiario ?? '';
}

/** Rows grouped by their beneficiary's normalised tax code, in the order met. */
export function rowsByTaxCode<T extends Pick<BeneficiaryRow, 'codiceFiscaleBeneficiario'>>(
  rows: readonly T[],
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const code = normalizeTaxCode(row.codiceFiscaleBeneficiario);
    const group = groups.get(code);
    if (group) group.push(row);
    else groups.set(code, [row]);
  }
  return groups;
}

/**
 * One summary per searched code, in the order searched: its own shown aids and totals (the display
 * filters apply, as on the cards) and its own de minimis used and left now (they never do). A search
 * of several companies must not let one company's allowance hide another's.
 */
export function summariesByCode(
  taxCodes: readonly string[],
  shown: readonly BeneficiaryRow[],
  every: readonly BeneficiaryRow[],
  now: Date | number,
): CodeSummaryDto[] {
  const byCode = rowsByTaxCode;
  const shownByCode = byCode(shown);
  const everyByCode = byCode(every);
  return taxCodes.map((taxCode) => {
    const code = normalizeTaxCode(taxCode);
    const own = everyByCode.get(code) ?? [];
    const totals = documentTotals(shownByCode.get(code) ?? [], now);
    const used = usedNow(own, now); // in cents: used and remaining add up to the ceiling exactly
    return {
      taxCode: code,
      name: beneficiaryName(own),
      totalDocuments: totals.totalDocuments,
      totalImport: totals.totalImport,
      deMinimisUsed: centsToEuro(used),
      remainingDeMinimis: centsToEuro(DE_MINIMIS_CEILING_CENTS - used),
    };
  });
}

/** The allowance figures a search shows in its cards and chart, and whose they are. */
export interface AllowanceFigures {
  remainingDeMinimis: number;
  deMinimisSeries: DeMinimisPointDto[];
  /** several unrelated companies: the one whose figures these are (the least left), else null */
  deMinimisOf: { taxCode: string; name: string } | null;
}

/**
 * The ceiling is per undertaking. One company, or a group counted as one undertaking (impresa
 * unica): the figures of all its aids together. Several unrelated companies are never added up: the
 * cards and the chart show the company with the least left (the first searched on a tie), named,
 * and each company's own figures are in the per-company summary.
 */
export function allowanceFigures(
  taxCodes: readonly string[],
  every: readonly BeneficiaryRow[],
  now: Date | number,
  oneUndertaking: boolean,
): AllowanceFigures {
  if (oneUndertaking || taxCodes.length < 2) {
    return {
      remainingDeMinimis: deMinimisRemaining(every, now),
      deMinimisSeries: deMinimisSeries(every, now),
      deMinimisOf: null,
    };
  }
  const byCode = rowsByTaxCode(every);
  let tightest: { taxCode: string; rows: readonly BeneficiaryRow[]; used: number } | null = null;
  for (const taxCode of taxCodes.map(normalizeTaxCode)) {
    const rows = byCode.get(taxCode) ?? [];
    const used = usedNow(rows, now);
    if (!tightest || used > tightest.used) tightest = { taxCode, rows, used };
  }
  const { taxCode, rows } = tightest!;
  return {
    remainingDeMinimis: deMinimisRemaining(rows, now),
    deMinimisSeries: deMinimisSeries(rows, now),
    deMinimisOf: {
      taxCode,
      name: beneficiaryName(rows),
    },
  };
}

/**
 * How the portal counts de minimis, in one text used everywhere it is told (screen, reports, bulk
 * PDF; the screen's catalogue holds the same words, checked by its test): the window the figures are
 * computed on, the regulation, and what it does not cover.
 */
export const DE_MINIMIS_WINDOW_NOTE =
  'Si applica il Regolamento (UE) 2023/2831, in vigore dal 1° gennaio 2024: il massimale di 300.000 € vale ' +
  'per impresa su tre anni mobili, cioè ogni mese conta gli aiuti de minimis concessi nei tre anni che ' +
  'precedono il primo giorno del mese. Il calcolo non vale per i settori dell’agricoltura e della pesca, ' +
  'che hanno regolamenti e massimali propri.';
