import { randomBytes } from 'node:crypto';
import { formatReportCode, newReportCode, parseReportCode, REPORT_CODE_RANDOM_BYTES } from './report-codes';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

describe('report verification codes', () => {
  const codes = Array.from({ length: 200 }, () => newReportCode(randomBytes(REPORT_CODE_RANDOM_BYTES)));

  it('are 13 unambiguous characters, printed as XXXX-XXXX-XXXX-C, and read back however they are typed', () => {
    for (const code of codes) {
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{13}$/);
      const printed = formatReportCode(code);
      expect(printed).toMatch(/^.{4}-.{4}-.{4}-.$/);
      expect(parseReportCode(printed)).toBe(code);
      expect(parseReportCode(` ${printed.toLowerCase()} `)).toBe(code);
      expect(parseReportCode(printed.replace(/-/g, ' '))).toBe(code);
    }
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('reads O as 0 and I or L as 1, the letters a reader confuses with them', () => {
    const code = codes.find((c) => c.includes('0') && c.includes('1'))!;
    expect(parseReportCode(code.replace(/0/g, 'O').replace(/1/g, 'l'))).toBe(code);
  });

  it('tells any single mistyped character apart from an issued code', () => {
    for (const code of codes.slice(0, 40)) {
      for (let at = 0; at < code.length; at += 1) {
        for (const other of ALPHABET) {
          if (other === code[at]) continue;
          const typo = code.slice(0, at) + other + code.slice(at + 1);
          expect(parseReportCode(typo)).toBeNull();
        }
      }
    }
  });

  it('tells most swaps of two neighbouring characters apart', () => {
    let swaps = 0;
    let caught = 0;
    for (const code of codes) {
      for (let at = 0; at + 1 < code.length; at += 1) {
        if (code[at] === code[at + 1]) continue;
        swaps += 1;
        const swapped = code.slice(0, at) + code[at + 1] + code[at] + code.slice(at + 2);
        if (parseReportCode(swapped) === null) caught += 1;
      }
    }
    expect(caught / swaps).toBeGreaterThan(0.95);
  });

  it('refuses what cannot be a code: too short, too long, foreign characters', () => {
    const code = codes[0]!;
    expect(parseReportCode(code.slice(0, 12))).toBeNull();
    expect(parseReportCode(`${code}0`)).toBeNull();
    expect(parseReportCode(`${code.slice(0, 12)}U`)).toBeNull();
    expect(parseReportCode('')).toBeNull();
    expect(parseReportCode('../../etc/passwd')).toBeNull();
  });
});

describe('a new report code', () => {
  it('spells each random byte as one character, wrapping past the 32 of the alphabet', () => {
    // bytes 0 … 11 are the alphabet's first twelve characters; 'T' checks them (worked by hand:
    // the values doubled from the right add up to 102, and 102 + 26 is a multiple of 32)
    expect(newReportCode(Uint8Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]))).toBe('0123456789ABT');
    // 32 → 0, 255 → 31 (Z), 33 → 1, 200 → 8, …
    expect(newReportCode(Uint8Array.from([32, 255, 1, 33, 64, 95, 96, 127, 128, 200, 230, 250]))).toBe(
      '0Z110Z0Z086TN',
    );
    // a byte past the twelfth is not used
    expect(newReportCode(new Uint8Array(16))).toBe('0000000000000');
  });

  it('adds the digits of a doubled value that reaches 32', () => {
    // Z (31) doubled is 62 = 1·32 + 30: counts 31; twelve Z add up to 372, and 372 + 12 is 12·32
    expect(newReportCode(new Uint8Array(12).fill(31))).toBe('ZZZZZZZZZZZZC');
    // G (16) in the last place is doubled: 32 counts 1, and 1 + 31 is 32
    expect(newReportCode(Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16]))).toBe('00000000000GZ');
    // in the last but one place it is not: 16 + 16 is 32
    expect(newReportCode(Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0]))).toBe('0000000000G0G');
  });

  it('refuses fewer than twelve random bytes', () => {
    expect(() => newReportCode(new Uint8Array(11))).toThrow('Not enough random bytes for a report code');
  });
});

describe('a typed report code', () => {
  it('is read with any mix of dashes and spaces, O as 0, and I or L as 1', () => {
    expect(parseReportCode('0123-4567-89AB-T')).toBe('0123456789ABT');
    expect(parseReportCode('o123 4567  89ab--t')).toBe('0123456789ABT');
    expect(parseReportCode('ZZZZ-ZZZZ-ZZZZ-C')).toBe('ZZZZZZZZZZZZC');
    // I and L are 1, O is 0: 0000-0000-0001-? checks with 0 + 2 = 2 → check 30 (Y)
    expect(parseReportCode('OOOO-OOOO-OOOI-Y')).toBe('000000000001Y');
    expect(parseReportCode('OOOO-OOOO-OOOL-Y')).toBe('000000000001Y');
  });

  it('is refused with a letter the alphabet leaves out, even where the check would let it through', () => {
    // U is no character of a code; counted as nothing, the check character would be 1
    expect(parseReportCode('U000-0000-0000-1')).toBeNull();
  });

  it('is printed in four groups', () => {
    expect(formatReportCode('0123456789ABT')).toBe('0123-4567-89AB-T');
  });
});
