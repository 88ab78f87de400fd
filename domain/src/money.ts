/**
 * Money is kept as integer euro cents everywhere; euro numbers exist only at the edges (DTOs),
 * so sums never drift (0.1 + 0.2 ≠ 0.3 in floating point).
 */
import { DomainError } from './errors';

/**
 * The register's decimal text ('10000.00', '1234.5', '-3', '.5') → cents, or null when it is not a number.
 * Empty text is 0: the register omits amounts it does not know. More than two decimals are rounded
 * half away from zero on the exact digits, never through a float.
 */
export function tryParseDecimalCents(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(trimmed);
  if (!match) return null;
  // the sign and the whole part always match (maybe empty); the fraction only after a dot
  const [sign, whole, fraction = ''] = [match[1]!, match[2]!, match[3]];
  if (whole === '' && fraction === '') return null;
  const padded = fraction.padEnd(3, '0');
  let cents = Number(whole || '0') * 100 + Number(padded.slice(0, 2));
  if (Number(padded[2]) >= 5) cents += 1;
  if (!Number.isSafeInteger(cents)) return null;
  return sign === '-' && cents !== 0 ? -cents : cents;
}

/** Like tryParseDecimalCents, but garbage is a J001 error naming the bad text. */
export function parseDecimalCents(text: string): number {
  const cents = tryParseDecimalCents(text);
  if (cents === null) throw new DomainError('J001', `Importo non valido: "${text.slice(0, 40)}"`);
  return cents;
}

/**
 * An Italian euro text as the register's live look-up prints it ('€ 1.234,56', '1.234', '-5,5 €') →
 * cents, or null when it is not an amount. Dots group thousands, the comma starts decimals.
 */
export function tryParseItalianEuroCents(text: string): number | null {
  // empty text is refused by the pattern (it wants a digit), unlike the register's empty amount
  const compact = text.replace(/€|\s|\u00a0/g, '');
  if (!/^[+-]?\d{1,3}(\.\d{3})*(,\d*)?$|^[+-]?\d+(,\d*)?$/.test(compact)) return null;
  return tryParseDecimalCents(compact.replace(/\./g, '').replace(',', '.'));
}

/** cents → euro as a number with at most two decimals (for DTOs and charts). */
export function centsToEuro(cents: number): number {
  return cents / 100;
}

/** euro (a number) → whole cents, rounding away any float noise. */
export function euroToCents(euro: number): number {
  return Math.round(euro * 100);
}

/** cents → the numeric string of the DTOs: '1234.56', '-0.05'. */
export function centsToDecimalString(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function sumCents(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
