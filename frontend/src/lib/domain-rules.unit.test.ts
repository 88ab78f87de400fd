import {
  clientStatusLabel,
  formatDate,
  formatDay,
  formatEuro,
  isoDayOf,
  isTaxCodeWellFormed,
  normaliseTaxCode,
  remainingSearchesTone,
} from './domain-rules';

describe('pure rules used by the screens', () => {
  it('formats euro with dot thousands and comma decimals', () => {
    expect(formatEuro(1234567.5)).toBe('1.234.567,50 €');
    expect(formatEuro('1234.56')).toBe('1.234,56 €');
    expect(formatEuro(-200)).toBe('-200,00 €');
  });
  it('formats dates as dd-mm-yyyy', () => {
    expect(formatDate(new Date(2024, 1, 3, 12).getTime())).toBe('03-02-2024');
    expect(formatDate(null)).toBe('—');
  });
  it('writes the API’s calendar days as dd-mm-yyyy, and a picked date as the API’s day', () => {
    expect(formatDay('2026-03-15')).toBe('15-03-2026');
    expect(formatDay('2026-02-30')).toBe('—');
    expect(formatDay(null)).toBe('—');
    expect(isoDayOf(new Date(2024, 0, 5, 12))).toBe('2024-01-05');
  });
  it('labels client status: expired at or past the end date, then active, then pending', () => {
    const now = new Date(2025, 0, 1).getTime();
    expect(clientStatusLabel({ active: true, endDate: now }, now)).toBe('Scaduto');
    expect(clientStatusLabel({ active: false, endDate: now - 1 }, now)).toBe('Scaduto');
    expect(clientStatusLabel({ active: true, endDate: now + 1 }, now)).toBe('Attivo');
    expect(clientStatusLabel({ active: false, endDate: now + 1 }, now)).toBe('In attesa');
  });
  it('normalises tax codes and accepts 11 to 16 letters and digits only', () => {
    expect(normaliseTaxCode(' rssmra 80a01 ')).toBe('RSSMRA80A01');
    expect(isTaxCodeWellFormed('0123456789')).toBe(false);
    expect(isTaxCodeWellFormed('01234567890')).toBe(true);
    expect(isTaxCodeWellFormed('<script>1234567')).toBe(false);
  });
});

describe('the remaining-searches badge', () => {
  it('looks different with none left, with a tenth or less left, and with more', () => {
    expect(remainingSearchesTone(0, 100)).toBe('empty');
    expect(remainingSearchesTone(10, 100)).toBe('low');
    expect(remainingSearchesTone(11, 100)).toBe('normal');
    expect(remainingSearchesTone(100, 100)).toBe('normal');
    // a small allowance: five left is already few
    expect(remainingSearchesTone(5, 20)).toBe('low');
    expect(remainingSearchesTone(6, 20)).toBe('normal');
  });
});
