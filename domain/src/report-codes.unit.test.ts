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
