import {
  addMonths,
  addMonthsToYearMonth,
  addYears,
  daysInMonth,
  isoToItalianDay,
  italianToIsoDay,
  parseIsoDay,
  parseItalianDateTime,
  romeDateTime,
  romeDay,
  romeMonth,
  romeNoonEpochMs,
  romeWallTimeToEpochMs,
  threeYearsAgo,
  todayInRome,
} from './dates';
import { DomainError } from './errors';

describe('today in Rome', () => {
  it('is already tomorrow in Rome late in the UTC evening', () => {
    // 23:30 UTC on 31 Dec = 00:30 in Rome on 1 Jan (winter, UTC+1)
    expect(todayInRome(new Date('2024-12-31T23:30:00Z'))).toBe('2025-01-01');
    expect(todayInRome(new Date('2024-12-31T22:59:00Z'))).toBe('2024-12-31');
  });

  it('follows summer time (UTC+2)', () => {
    expect(todayInRome(new Date('2024-07-14T22:30:00Z'))).toBe('2024-07-15');
    expect(todayInRome(new Date('2024-07-14T21:30:00Z'))).toBe('2024-07-14');
  });

  it('accepts epoch milliseconds and reports the wall clock', () => {
    const t = romeDateTime(Date.UTC(2024, 6, 14, 10, 5, 7));
    expect(t).toEqual({ year: 2024, month: 7, day: 14, hour: 12, minute: 5, second: 7 });
    expect(romeDay(Date.UTC(2024, 0, 1, 0, 0))).toBe('2024-01-01');
    expect(romeDateTime(Date.UTC(2024, 0, 1, 23, 0)).hour).toBe(0);
  });

  it('gives the month in Rome', () => {
    expect(romeMonth(new Date('2024-01-31T23:00:00Z'))).toEqual({ year: 2024, month: 2 });
  });

  it('changes day at the last second before and the first second after midnight in Rome, asked in a row', () => {
    // the day is reused within a minute: the minute before Rome's midnight must not leak past it
    expect(todayInRome(new Date('2024-12-31T22:59:59.999Z'))).toBe('2024-12-31');
    expect(todayInRome(new Date('2024-12-31T23:00:00.000Z'))).toBe('2025-01-01');
    expect(todayInRome(new Date('2024-12-31T22:59:30.000Z'))).toBe('2024-12-31');
    expect(romeMonth(new Date('2024-07-31T21:59:59.999Z'))).toEqual({ year: 2024, month: 7 });
    expect(romeMonth(new Date('2024-07-31T22:00:00.000Z'))).toEqual({ year: 2024, month: 8 });
  });

  it('refuses an invalid date with J001', () => {
    expect(() => todayInRome(new Date('nope'))).toThrow(DomainError);
    expect(() => todayInRome(new Date('nope'))).toThrow(expect.objectContaining({ code: 'J001' }));
  });
});

describe('calendar arithmetic', () => {
  it('29 Feb + 1 year is 28 Feb; + 4 years is 29 Feb again', () => {
    expect(addYears('2024-02-29', 1)).toBe('2025-02-28');
    expect(addYears('2024-02-29', 4)).toBe('2028-02-29');
    expect(addYears('2024-02-29', -3)).toBe('2021-02-28');
  });

  it('adds months clamping to the last day of the month', () => {
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2023-01-31', 1)).toBe('2023-02-28');
    expect(addMonths('2024-03-31', -1)).toBe('2024-02-29');
    expect(addMonths('2024-11-15', 2)).toBe('2025-01-15');
    expect(addMonths('2024-01-15', -13)).toBe('2022-12-15');
  });

  it('moves year-months across year ends both ways', () => {
    expect(addMonthsToYearMonth({ year: 2024, month: 12 }, 1)).toEqual({ year: 2025, month: 1 });
    expect(addMonthsToYearMonth({ year: 2024, month: 1 }, -1)).toEqual({ year: 2023, month: 12 });
    expect(addMonthsToYearMonth({ year: 2024, month: 5 }, 35)).toEqual({ year: 2027, month: 4 });
  });

  it('knows the days of each month', () => {
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(1900, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
    expect(daysInMonth(2024, 4)).toBe(30);
    expect(daysInMonth(2024, 12)).toBe(31);
  });

  it('three years ago is counted from today in Rome', () => {
    expect(threeYearsAgo(new Date('2027-02-28T12:00:00Z'))).toBe('2024-02-28');
    expect(threeYearsAgo(new Date('2024-02-29T12:00:00Z'))).toBe('2021-02-28');
    // already 1 Jan 2025 in Rome
    expect(threeYearsAgo(new Date('2024-12-31T23:30:00Z'))).toBe('2022-01-01');
  });
});

describe('date formats', () => {
  it('converts YYYY-MM-DD to dd-mm-yyyy and back', () => {
    expect(isoToItalianDay('2024-03-05')).toBe('05-03-2024');
    expect(italianToIsoDay('05-03-2024')).toBe('2024-03-05');
  });

  it('rejects dates that do not exist', () => {
    expect(parseIsoDay('2023-02-29')).toBeNull();
    expect(parseIsoDay('2024-13-01')).toBeNull();
    expect(parseIsoDay('2024-1-01')).toBeNull();
    expect(italianToIsoDay('31-04-2024')).toBeNull();
    expect(italianToIsoDay('00-01-2024')).toBeNull();
    expect(italianToIsoDay('01-01-24')).toBeNull();
    expect(() => isoToItalianDay('2024-02-30')).toThrow(/Data non valida/);
    expect(() => isoToItalianDay('garbage')).toThrow(expect.objectContaining({ code: 'J001' }));
  });

  it('knows the first and last days of a month and of the calendar, and the text around a date', () => {
    expect(parseIsoDay('2024-00-10')).toBeNull();
    expect(parseIsoDay('2024-01-00')).toBeNull();
    expect(parseIsoDay('2024-01-31')).toEqual({ year: 2024, month: 1, day: 31 });
    expect(parseIsoDay('0000-01-01')).toBeNull(); // there was no year 0
    expect(parseIsoDay('0001-01-01')).toEqual({ year: 1, month: 1, day: 1 });
    expect(isoToItalianDay('0999-05-06')).toBe('06-05-0999'); // four digits of year, always
    expect(parseIsoDay(' 2024-01-31\n')).toEqual({ year: 2024, month: 1, day: 31 });
    expect(parseIsoDay('x2024-01-31')).toBeNull();
    expect(parseIsoDay('2024-01-31x')).toBeNull();
  });

  it('parses dd-mm-yyyy with an optional hh:mm in range', () => {
    expect(parseItalianDateTime('29-02-2024 23:59')).toEqual({
      year: 2024,
      month: 2,
      day: 29,
      hour: 23,
      minute: 59,
    });
    expect(parseItalianDateTime('29-02-2024')).toEqual({ year: 2024, month: 2, day: 29, hour: 0, minute: 0 });
    expect(parseItalianDateTime('29-02-2024 24:00')).toBeNull();
    expect(parseItalianDateTime('29-02-2024 10:60')).toBeNull();
    expect(parseItalianDateTime('29-02-2023 10:00')).toBeNull();
  });
});

describe('noon in Rome', () => {
  it('is 11:00 UTC on a winter day', () => {
    expect(romeNoonEpochMs('2024-01-15')).toBe(Date.UTC(2024, 0, 15, 11, 0));
  });

  it('is 10:00 UTC on a summer day', () => {
    expect(romeNoonEpochMs('2024-07-15')).toBe(Date.UTC(2024, 6, 15, 10, 0));
  });

  it('is right on the days the clocks change', () => {
    expect(romeNoonEpochMs('2024-03-31')).toBe(Date.UTC(2024, 2, 31, 10, 0));
    expect(romeNoonEpochMs('2024-10-27')).toBe(Date.UTC(2024, 9, 27, 11, 0));
  });

  it('finds the summer-time instant of a wall time in the last hour before the clocks go back', () => {
    // 27 Oct 2024: 03:00 CEST became 02:00 CET at 01:00 UTC; 01:30 that night was still CEST (UTC+2)
    expect(romeWallTimeToEpochMs('2024-10-27', 1, 30)).toBe(Date.UTC(2024, 9, 26, 23, 30));
  });

  it('round-trips through the Rome wall clock', () => {
    const ms = romeWallTimeToEpochMs('2024-10-27', 4, 30);
    expect(romeDateTime(ms)).toMatchObject({ year: 2024, month: 10, day: 27, hour: 4, minute: 30 });
    expect(romeDay(romeNoonEpochMs('2025-12-31'))).toBe('2025-12-31');
  });
});
