/**
 * The screens' single door to the pure rules owned by `domain/`: null-tolerant display helpers and the
 * spellings the components use, all delegating to `@rna/domain`.
 */
import {
  checkTaxCode,
  clientStatusLabel as domainClientStatusLabel,
  DE_MINIMIS_CEILING_EURO,
  downloadFileName,
  endDateFromDay,
  formatEuro as domainFormatEuro,
  formatIsoDay,
  formatItalianDate,
  formatItalianDateTime,
  isWellFormedTaxCode,
  MIN_TAX_CODE_LENGTH as DOMAIN_MIN_TAX_CODE_LENGTH,
  normalizeTaxCode,
  parseIsoDay,
  parseTaxCodeList,
  romeWallTimeToEpochMs,
  type ClientStatusLabel,
} from '@rna/domain';

export const MIN_TAX_CODE_LENGTH = DOMAIN_MIN_TAX_CODE_LENGTH;
export const MIN_PASSWORD_LENGTH = 8;
export const DE_MINIMIS_CEILING = DE_MINIMIS_CEILING_EURO;

export const normaliseTaxCode = normalizeTaxCode;
/** 11 to 16 letters and digits once normalised: what the server accepts (else T002). */
export const isTaxCodeWellFormed = isWellFormedTaxCode;
/** A pasted list (new lines, commas, semicolons, tabs, spaces) → its codes and the pieces that are none. */
export const parseTaxCodes = parseTaxCodeList;
/** Italian codes whose check digit is wrong: worth a warning, never a refusal (foreign codes exist). */
export const failsCheckDigit = (code: string): boolean => checkTaxCode(code) === 'invalid';

/** Euro amounts; the API sends some as numeric strings ("1234.56"). */
export function formatEuro(value: number | string | null | undefined): string {
  const amount = typeof value === 'string' ? Number(value) : (value ?? 0);
  return Number.isFinite(amount) ? domainFormatEuro(amount) : '—';
}

/** dd-mm-yyyy, or a dash when there is no date */
export function formatDate(ms: number | null | undefined): string {
  return ms === null || ms === undefined || !Number.isFinite(ms) ? '—' : formatItalianDate(ms);
}

/** A calendar day as the API writes it ('2026-03-15') → '15-03-2026', or a dash when it is none. */
export function formatDay(iso: string | null | undefined): string {
  return iso && parseIsoDay(iso) ? formatItalianDate(iso) : '—';
}

/** The day a date picker shows, as the API takes it: 'YYYY-MM-DD'. */
export function isoDayOf(date: Date): string {
  return formatIsoDay({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() });
}

/** dd-mm-yyyy hh:mm, or a dash */
export function formatDateTime(ms: number | null | undefined): string {
  return ms === null || ms === undefined || !Number.isFinite(ms) ? '—' : formatItalianDateTime(ms);
}

export function clientStatusLabel(
  client: { active: boolean; endDate: number },
  now: number = Date.now(),
): ClientStatusLabel {
  return domainClientStatusLabel(client, now);
}

/** The day picked in the date picker, stored as 12:00 (Rome) of that day (SPEC §5). */
export function endDateAtNoon(date: Date): number {
  const pad = (n: number) => String(n).padStart(2, '0');
  return endDateFromDay(`${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`);
}

/** The first instant of the picked day in Rome (a range's start), whatever the browser's zone. */
export function romeStartOfDay(date: Date): number {
  return romeWallTimeToEpochMs(isoDayOf(date));
}

/** The last instant (ms) of the picked day in Rome (a range's end), whatever the browser's zone. */
export function romeEndOfDay(date: Date): number {
  return romeWallTimeToEpochMs(isoDayOf(date), 23, 59) + 59_999;
}

/** 3000 → '3.000' */
export { formatInteger } from '@rna/domain';

/** The Italian name of a downloaded file, with the codes and today's date (aiuti-<codice>-2026-11-25.xlsx). */
export { downloadFileName };

/**
 * How the remaining-searches badge looks: none left and a tenth or less of the year's allowance
 * (five at least) must not look like a full allowance.
 */
export function remainingSearchesTone(remaining: number, yearly: number): 'empty' | 'low' | 'normal' {
  if (remaining <= 0) return 'empty';
  return remaining <= Math.max(5, Math.ceil(yearly / 10)) ? 'low' : 'normal';
}
