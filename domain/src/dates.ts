/**
 * Calendar dates as the product sees them: days in Europe/Rome, written 'YYYY-MM-DD'.
 * Pure: uses only Intl (full ICU), so the front end can import it too.
 */
import { DomainError } from './errors';

export const ROME_TIME_ZONE = 'Europe/Rome';

/** A calendar day without a time zone. month is 1..12. */
export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

/** A calendar month. month is 1..12. */
export interface YearMonth {
  year: number;
  month: number;
}

/** The wall clock in Rome at an instant. */
export interface RomeDateTime extends CalendarDay {
  hour: number;
  minute: number;
  second: number;
}

// Formatters are costly to build: one per process is enough.
const romeFormatter = new Intl.DateTimeFormat('en-US', {
  timeZone: ROME_TIME_ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hourCycle: 'h23',
});

function toEpochMs(instant: Date | number): number {
  return typeof instant === 'number' ? instant : instant.getTime();
}

/** The Rome wall-clock date and time of an instant. */
export function romeDateTime(instant: Date | number): RomeDateTime {
  const ms = toEpochMs(instant);
  if (!Number.isFinite(ms)) throw new DomainError('J001', 'Data non valida');
  const parts: Record<string, number> = {};
  // the literals ('/', ' ', ':') land under 'literal', which nothing reads
  for (const part of romeFormatter.formatToParts(ms)) parts[part.type] = Number(part.value);
  return {
    year: parts.year ?? NaN,
    month: parts.month ?? NaN,
    day: parts.day ?? NaN,
    // some ICU versions print midnight as 24 even with h23
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const pad2 = (n: number) => String(n).padStart(2, '0');
const pad4 = (n: number) => String(n).padStart(4, '0');

export function formatIsoDay({ year, month, day }: CalendarDay): string {
  return `${pad4(year)}-${pad2(month)}-${pad2(day)}`;
}

/** The calendar day in Rome of an instant, as 'YYYY-MM-DD'. */
export function romeDay(instant: Date | number): string {
  return formatIsoDay(romeCalendarDay(instant));
}

// Every search asks for today in Rome (often twice); Intl formatting is costly under load. Rome's
// offset from UTC is a whole number of hours, so one UTC minute never straddles a Rome midnight:
// the day found for a minute holds for the whole minute.
let lastRomeDay: { minute: number; day: { year: number; month: number; day: number } } | null = null;
function romeCalendarDay(instant: Date | number): { year: number; month: number; day: number } {
  const ms = toEpochMs(instant);
  // Stryker disable next-line ArithmeticOperator,ConditionalExpression: a memo; a different key or none finds the same day, only slower
  const minute = Math.floor(ms / 60_000);
  // Stryker disable next-line ConditionalExpression: see above
  if (lastRomeDay?.minute !== minute) {
    const { year, month, day } = romeDateTime(ms);
    lastRomeDay = { minute, day: { year, month, day } };
  }
  return lastRomeDay.day;
}

/** Today in Rome as 'YYYY-MM-DD'. */
export function todayInRome(now: Date | number): string {
  return romeDay(now);
}

/** The calendar month in Rome of an instant. */
export function romeMonth(instant: Date | number): YearMonth {
  const { year, month } = romeCalendarDay(instant);
  return { year, month };
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** For the parsers' four-digit years (0000–9999): year 0 does not exist. */
function isRealDay(year: number, month: number, day: number): boolean {
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** 'YYYY-MM-DD' → the day, or null when the text is not a real date (2023-02-29 is not). */
export function parseIsoDay(text: string): CalendarDay | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isRealDay(year, month, day) ? { year, month, day } : null;
}

function requireIsoDay(text: string): CalendarDay {
  const day = parseIsoDay(text);
  if (!day) throw new DomainError('J001', `Data non valida: "${text}" (atteso AAAA-MM-GG)`);
  return day;
}

/** 'dd-mm-yyyy' → the day, or null when invalid (the date input clears invalid text). */
export function parseItalianDay(text: string): CalendarDay | null {
  const match = /^(\d{2})-(\d{2})-(\d{4})$/.exec(text.trim());
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isRealDay(year, month, day) ? { year, month, day } : null;
}

/** 'dd-mm-yyyy hh:mm' → day and time, or null when any part is out of range. */
export function parseItalianDateTime(text: string): (CalendarDay & { hour: number; minute: number }) | null {
  const match = /^(\d{2}-\d{2}-\d{4})(?:\s+(\d{2}):(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const day = parseItalianDay(match[1] ?? '');
  if (!day) return null;
  const hour = match[2] === undefined ? 0 : Number(match[2]);
  const minute = match[3] === undefined ? 0 : Number(match[3]);
  if (hour > 23 || minute > 59) return null;
  return { ...day, hour, minute };
}

/** 'YYYY-MM-DD' → 'dd-mm-yyyy'. Throws J001 on a malformed date. */
export function isoToItalianDay(iso: string): string {
  const { year, month, day } = requireIsoDay(iso);
  return `${pad2(day)}-${pad2(month)}-${pad4(year)}`;
}

/** 'dd-mm-yyyy' → 'YYYY-MM-DD', or null when invalid. */
export function italianToIsoDay(text: string): string | null {
  const day = parseItalianDay(text);
  return day ? formatIsoDay(day) : null;
}

/** Adds calendar months; a day missing in the target month becomes its last day (31 Jan + 1 month → 28/29 Feb). */
export function addMonths(iso: string, months: number): string {
  const { year, month, day } = requireIsoDay(iso);
  const target = addMonthsToYearMonth({ year, month }, months);
  return formatIsoDay({ ...target, day: Math.min(day, daysInMonth(target.year, target.month)) });
}

/** Adds (or, negative, subtracts) calendar days. */
export function addDays(iso: string, days: number): string {
  const { year, month, day } = requireIsoDay(iso);
  const moved = new Date(Date.UTC(year, month - 1, day + days));
  return formatIsoDay({
    year: moved.getUTCFullYear(),
    month: moved.getUTCMonth() + 1,
    day: moved.getUTCDate(),
  });
}

/** Adds calendar years; 29 Feb + 1 year → 28 Feb. */
export function addYears(iso: string, years: number): string {
  return addMonths(iso, years * 12);
}

export function addMonthsToYearMonth({ year, month }: YearMonth, months: number): YearMonth {
  const index = year * 12 + (month - 1) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export function firstDayOfMonth({ year, month }: YearMonth): string {
  return formatIsoDay({ year, month, day: 1 });
}

/** The day three years before today in Rome: the lower bound (inclusive) of `last3Years`. */
export function threeYearsAgo(now: Date | number): string {
  return addYears(todayInRome(now), -3);
}

/** How far Rome's wall clock is ahead of UTC at an instant (1 h in winter, 2 h in summer). */
function romeOffsetMs(epochMs: number): number {
  const t = romeDateTime(epochMs);
  const wallAsUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return wallAsUtc - Math.floor(epochMs / 1000) * 1000;
}

/** The instant of a Rome wall-clock time on a calendar day. */
export function romeWallTimeToEpochMs(iso: string, hour = 0, minute = 0): number {
  const { year, month, day } = requireIsoDay(iso);
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute);
  // Two passes: the offset at the first guess may differ from the offset at the answer near a DST change.
  const guess = wallAsUtc - romeOffsetMs(wallAsUtc);
  return wallAsUtc - romeOffsetMs(guess);
}

/** Epoch ms of 12:00 Europe/Rome on a calendar day: how end dates are stored. */
export function romeNoonEpochMs(iso: string): number {
  return romeWallTimeToEpochMs(iso, 12, 0);
}
