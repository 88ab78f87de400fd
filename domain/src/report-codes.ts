/**
 * A report's verification code: printed on every page of a report the portal issues, and looked up
 * (without signing in) to learn whether the portal issued it, when, and for which tax codes.
 *
 * Twelve random characters (60 bits: nobody guesses an issued code) and one check character, in
 * Crockford's base32 (no I, L, O, U: nothing to misread on paper), shown as XXXX-XXXX-XXXX-C. The
 * check character (Luhn mod 32) catches every single mistyped character and almost every swap of
 * two neighbours, so a typo is told apart from a code the portal never issued.
 */

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const BASE = ALPHABET.length;
/** random characters before the check character */
export const REPORT_CODE_RANDOM_LENGTH = 12;
/** bytes of randomness `newReportCode` needs (one per character, 5 bits of each are used) */
export const REPORT_CODE_RANDOM_BYTES = REPORT_CODE_RANDOM_LENGTH;

function checkCharacter(body: string): string {
  // Luhn mod N: from the right, every other value is doubled and its base-N digits added
  let sum = 0;
  for (let i = body.length - 1, double = true; i >= 0; i -= 1, double = !double) {
    let value = ALPHABET.indexOf(body[i]!);
    if (double) {
      value *= 2;
      value = Math.floor(value / BASE) + (value % BASE);
    }
    sum += value;
  }
  return ALPHABET[(BASE - (sum % BASE)) % BASE]!;
}

/** A new code from random bytes (the caller's cryptographic source), in its stored form: 13 characters. */
export function newReportCode(random: Uint8Array): string {
  if (random.length < REPORT_CODE_RANDOM_LENGTH) throw new Error('Not enough random bytes for a report code');
  let body = '';
  for (let i = 0; i < REPORT_CODE_RANDOM_LENGTH; i += 1) body += ALPHABET[random[i]! % BASE];
  return body + checkCharacter(body);
}

/** XXXX-XXXX-XXXX-C, as printed. */
export function formatReportCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}-${code.slice(12)}`;
}

/**
 * A code as typed or copied (any case, with or without dashes and spaces, O for 0 and I or L for 1)
 * in its stored form, or null when it cannot be a code the portal issued (wrong length, a character
 * outside the alphabet, a check character that does not match).
 */
export function parseReportCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  // The check character compared below is one character, so any other length fails there too: this
  // line says the rule and stops early.
  // Stryker disable next-line ConditionalExpression: equivalent, see above
  if (code.length !== REPORT_CODE_RANDOM_LENGTH + 1) return null;
  if ([...code].some((c) => !ALPHABET.includes(c))) return null;
  const body = code.slice(0, REPORT_CODE_RANDOM_LENGTH);
  return checkCharacter(body) === code.slice(REPORT_CODE_RANDOM_LENGTH) ? code : null;
}
