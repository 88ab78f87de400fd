/**
 * Display formats of the UI and the reports (SPEC §9): euro with dot thousands and comma decimals,
 * dates dd-mm-yyyy in Rome time, month labels MM/YY.
 * Grouping is done by hand: Intl 'it-IT' does not group four-digit numbers (1234,56 €).
 */
import { euroToCents } from './money';
import { isoToItalianDay, romeDateTime, type YearMonth } from './dates';

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, '.');
}

/** 1234 → '1.234'; -1234567 → '-1.234.567'. */
export function formatInteger(value: number): string {
  const rounded = Math.round(value);
  return `${rounded < 0 ? '-' : ''}${groupThousands(String(Math.abs(rounded)))}`;
}

/** 123456 cents → '1.234,56 €'; -500000 → '-5.000,00 €'. */
export function formatEuroCents(cents: number): string {
  const rounded = Math.round(cents);
  const abs = Math.abs(rounded);
  const euros = groupThousands(String(Math.floor(abs / 100)));
  const decimals = String(abs % 100).padStart(2, '0');
  return `${rounded < 0 ? '-' : ''}${euros},${decimals} €`;
}

/** A euro amount (number, e.g. from a DTO) → '300.000,00 €'. */
export function formatEuro(euro: number): string {
  return formatEuroCents(euroToCents(euro));
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * A date for display as dd-mm-yyyy: 'YYYY-MM-DD' text is a calendar day and is only rewritten;
 * an instant (Date or epoch ms) is shown as its day in Rome.
 */
export function formatItalianDate(value: string | Date | number): string {
  if (typeof value === 'string') return isoToItalianDay(value);
  const t = romeDateTime(value);
  return `${pad2(t.day)}-${pad2(t.month)}-${t.year}`;
}

/** An instant → 'dd-mm-yyyy hh:mm' in Rome time. */
export function formatItalianDateTime(value: Date | number): string {
  const t = romeDateTime(value);
  return `${pad2(t.day)}-${pad2(t.month)}-${t.year} ${pad2(t.hour)}:${pad2(t.minute)}`;
}

/** The chart's month label: { year: 2024, month: 3 } → '03/24'. */
export function formatMonthLabel({ year, month }: YearMonth): string {
  return `${pad2(month)}/${pad2(year % 100)}`;
}

/** A text a user or a file gave, as it may be kept and shown: control and format characters out, trimmed. */
export function printableText(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
}
