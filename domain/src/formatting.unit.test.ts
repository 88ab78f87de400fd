import {
  formatEuro,
  formatEuroCents,
  formatInteger,
  formatItalianDate,
  formatItalianDateTime,
  formatMonthLabel,
  printableText,
} from './formatting';

describe('euro formatting', () => {
  it('uses dot thousands, comma decimals and the euro sign, also for four digits', () => {
    expect(formatEuroCents(123_456)).toBe('1.234,56 €');
    expect(formatEuroCents(30_000_000)).toBe('300.000,00 €');
    expect(formatEuroCents(-500_000)).toBe('-5.000,00 €');
    expect(formatEuroCents(0)).toBe('0,00 €');
    expect(formatEuroCents(7)).toBe('0,07 €');
    expect(formatEuroCents(-7)).toBe('-0,07 €');
    expect(formatEuroCents(123_456_789_012)).toBe('1.234.567.890,12 €');
  });

  it('formats euro numbers from the DTOs', () => {
    expect(formatEuro(1234.56)).toBe('1.234,56 €');
    expect(formatEuro(300000)).toBe('300.000,00 €');
    expect(formatEuro(-5000)).toBe('-5.000,00 €');
    expect(formatEuro(0.1 + 0.2)).toBe('0,30 €');
    expect(formatEuro(999.999)).toBe('1.000,00 €');
  });

  it('groups integers the same way', () => {
    expect(formatInteger(1234)).toBe('1.234');
    expect(formatInteger(999)).toBe('999');
    expect(formatInteger(-1_234_567)).toBe('-1.234.567');
    expect(formatInteger(1_000_000)).toBe('1.000.000');
  });

  it('rounds to the nearest whole number or cent, with no minus sign on a zero', () => {
    expect(formatInteger(1_234.5)).toBe('1.235');
    expect(formatInteger(-0.4)).toBe('0');
    expect(formatEuroCents(123_456.6)).toBe('1.234,57 €');
    expect(formatEuroCents(-0.4)).toBe('0,00 €');
    expect(formatEuroCents(-99)).toBe('-0,99 €');
  });
});

describe('date formatting', () => {
  it('rewrites a calendar day as dd-mm-yyyy', () => {
    expect(formatItalianDate('2024-02-29')).toBe('29-02-2024');
  });

  it('shows an instant as its day in Rome', () => {
    // 23:30 UTC on 31 Dec is already 1 Jan in Rome
    expect(formatItalianDate(Date.UTC(2024, 11, 31, 23, 30))).toBe('01-01-2025');
    expect(formatItalianDate(new Date('2024-06-01T10:00:00Z'))).toBe('01-06-2024');
  });

  it('shows date and time in Rome as dd-mm-yyyy hh:mm', () => {
    expect(formatItalianDateTime(Date.UTC(2024, 0, 15, 11, 5))).toBe('15-01-2024 12:05');
    expect(formatItalianDateTime(Date.UTC(2024, 6, 15, 22, 0))).toBe('16-07-2024 00:00');
  });

  it('labels months as MM/YY', () => {
    expect(formatMonthLabel({ year: 2024, month: 3 })).toBe('03/24');
    expect(formatMonthLabel({ year: 2100, month: 12 })).toBe('12/00');
    expect(formatMonthLabel({ year: 2007, month: 1 })).toBe('01/07');
  });
});

describe('printable text', () => {
  it('drops control and invisible format characters and trims the rest', () => {
    // a tab and a line break inside, a zero-width space and a BOM around
    expect(printableText('\ufeff ACME\tS.R.L.\n\u200b ')).toBe('ACMES.R.L.');
    expect(printableText('  Regione Lombardia  ')).toBe('Regione Lombardia');
    expect(printableText('Società à r.l. – 😀')).toBe('Società à r.l. – 😀');
  });
});
