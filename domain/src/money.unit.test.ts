import {
  centsToDecimalString,
  centsToEuro,
  euroToCents,
  parseDecimalCents,
  sumCents,
  tryParseDecimalCents,
  tryParseItalianEuroCents,
} from './money';

describe('register decimals to cents', () => {
  it('reads the register amounts exactly', () => {
    expect(parseDecimalCents('10000.00')).toBe(1_000_000);
    expect(parseDecimalCents('1234.5')).toBe(123_450);
    expect(parseDecimalCents('1234')).toBe(123_400);
    expect(parseDecimalCents(' 0.07 ')).toBe(7);
    expect(parseDecimalCents('.5')).toBe(50);
    expect(parseDecimalCents('-3.10')).toBe(-310);
    // a negative zero is zero (it would print as "-0,00")
    expect(Object.is(parseDecimalCents('-0.00'), 0)).toBe(true);
    // 0.29 * 100 is 28.999999999999996 in floating point: parsing must not go through it
    expect(parseDecimalCents('0.29')).toBe(29);
    expect(parseDecimalCents('1151.57')).toBe(115_157);
  });

  it('treats a missing (empty) amount as 0', () => {
    expect(parseDecimalCents('')).toBe(0);
    expect(parseDecimalCents('   ')).toBe(0);
  });

  it('rounds a third decimal half away from zero', () => {
    expect(parseDecimalCents('1.005')).toBe(101);
    expect(parseDecimalCents('1.004')).toBe(100);
    expect(parseDecimalCents('-1.005')).toBe(-101);
    expect(parseDecimalCents('1.9999')).toBe(200);
  });

  it('refuses garbage with J001 naming the text', () => {
    for (const bad of ['abc', '1,234.00', '12a', '.', '-', '1.2.3', '€ 5', '1e5']) {
      expect(tryParseDecimalCents(bad)).toBeNull();
    }
    expect(() => parseDecimalCents('n.d.')).toThrow(expect.objectContaining({ code: 'J001' }));
    expect(() => parseDecimalCents('n.d.')).toThrow(/n\.d\./);
    // a register amount too large to be exact in cents is refused, not rounded
    expect(tryParseDecimalCents('99999999999999999.00')).toBeNull();
    // a long garbage text is quoted in part, so an error never carries a whole file line
    const long = `x${'9'.repeat(500)}`;
    expect(() => parseDecimalCents(long)).toThrow(`"${long.slice(0, 40)}"`);
    expect(() => parseDecimalCents(long)).not.toThrow(long.slice(0, 41));
  });
});

describe('Italian euro text to cents (live look-up)', () => {
  it('reads dot thousands and comma decimals', () => {
    expect(tryParseItalianEuroCents('€ 1.234,56')).toBe(123_456);
    expect(tryParseItalianEuroCents('€ 300.000,00')).toBe(30_000_000);
    expect(tryParseItalianEuroCents('1234,5')).toBe(123_450);
    expect(tryParseItalianEuroCents('-5.000,00 €')).toBe(-500_000);
    expect(tryParseItalianEuroCents('€\u00a07')).toBe(700);
    expect(tryParseItalianEuroCents('1.234')).toBe(123_400);
    expect(tryParseItalianEuroCents('€ 1.234.567,89')).toBe(123_456_789);
    expect(tryParseItalianEuroCents('1234')).toBe(123_400);
    expect(tryParseItalianEuroCents('1234,56')).toBe(123_456);
    expect(tryParseItalianEuroCents('-1234,5')).toBe(-123_450);
  });

  it('refuses malformed grouping and empty text', () => {
    expect(tryParseItalianEuroCents('€ 12.34,00')).toBeNull();
    expect(tryParseItalianEuroCents('€ ')).toBeNull();
    expect(tryParseItalianEuroCents('n.d.')).toBeNull();
  });
});

describe('cents at the edges', () => {
  it('turns cents into euro numbers and numeric strings', () => {
    expect(centsToEuro(123_456)).toBe(1234.56);
    expect(centsToEuro(-500_000)).toBe(-5000);
    expect(centsToDecimalString(123_456)).toBe('1234.56');
    expect(centsToDecimalString(5)).toBe('0.05');
    expect(centsToDecimalString(-5)).toBe('-0.05');
    expect(centsToDecimalString(100_000_000)).toBe('1000000.00');
  });

  it('sums many small amounts without drift', () => {
    const tenCents = Array.from({ length: 1000 }, () => parseDecimalCents('0.10'));
    expect(centsToEuro(sumCents(tenCents))).toBe(100);
    expect(euroToCents(0.1 + 0.2)).toBe(30);
  });
});
