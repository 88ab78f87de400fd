/** Valid Italian tax codes (partita IVA, codice fiscale) and foreign VAT numbers for test data. */
import { intBetween, pick, type Random } from './random';

/** Check digit of an 11-digit partita IVA over its first 10 digits (Luhn variant). */
export function partitaIvaCheckDigit(first10: string): number {
  let total = 0;
  for (let i = 0; i < 10; i++) {
    const digit = Number(first10[i]);
    if (i % 2 === 0) total += digit;
    else total += digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
  }
  return (10 - (total % 10)) % 10;
}

export function isValidPartitaIva(code: string): boolean {
  return /^\d{11}$/.test(code) && partitaIvaCheckDigit(code.slice(0, 10)) === Number(code[10]);
}

export function randomPartitaIva(random: Random): string {
  const company = String(intBetween(random, 1, 9_999_999)).padStart(7, '0');
  const office = String(intBetween(random, 1, 100)).padStart(3, '0');
  const first10 = company + office;
  return first10 + String(partitaIvaCheckDigit(first10));
}

const ODD_VALUES: Record<string, number> = {
  '0': 1, '1': 0, '2': 5, '3': 7, '4': 9, '5': 13, '6': 15, '7': 17, '8': 19, '9': 21,
  A: 1, B: 0, C: 5, D: 7, E: 9, F: 13, G: 15, H: 17, I: 19, J: 21, K: 2, L: 4, M: 18,
  N: 20, O: 11, P: 3, Q: 6, R: 8, S: 12, T: 14, U: 16, V: 10, W: 22, X: 25, Y: 24, Z: 23,
}; // prettier-ignore

const evenValue = (char: string): number => (/\d/.test(char) ? Number(char) : char.charCodeAt(0) - 65);

/** Check letter of a codice fiscale over its first 15 characters. */
export function codiceFiscaleCheckChar(first15: string): string {
  let total = 0;
  for (let i = 0; i < 15; i++) {
    const char = first15[i] as string;
    total += i % 2 === 0 ? (ODD_VALUES[char] ?? 0) : evenValue(char);
  }
  return String.fromCharCode(65 + (total % 26));
}

export function isValidCodiceFiscale(code: string): boolean {
  return /^[A-Z0-9]{16}$/.test(code) && codiceFiscaleCheckChar(code.slice(0, 15)) === code[15];
}

const CONSONANTS = 'BCDFGHJKLMNPQRSTVZ';
const MONTH_LETTERS = 'ABCDEHLMPRST';
const PLACES = ['H501', 'F205', 'L219', 'F839', 'A944', 'G273', 'D612', 'L736', 'C351', 'D969', 'Z404'];

export function randomCodiceFiscale(random: Random): string {
  const letters = (n: number) => Array.from({ length: n }, () => pick(random, [...CONSONANTS])).join('');
  const year = String(intBetween(random, 40, 99)).padStart(2, '0');
  const month = pick(random, [...MONTH_LETTERS]);
  const day = intBetween(random, 1, 28) + (random() < 0.4 ? 40 : 0);
  const first15 =
    letters(3) + letters(3) + year + month + String(day).padStart(2, '0') + pick(random, PLACES);
  return first15 + codiceFiscaleCheckChar(first15);
}

/** EU VAT numbers as the register shows foreign beneficiaries (country prefix kept). */
export function randomForeignVat(random: Random): string {
  const digits = (n: number) => Array.from({ length: n }, () => String(intBetween(random, 0, 9))).join('');
  switch (intBetween(random, 0, 3)) {
    case 0:
      return `DE${digits(9)}`;
    case 1:
      return `FR${digits(11)}`;
    case 2:
      return `ATU${digits(8)}`;
    default:
      return `ES${pick(random, ['A', 'B'])}${digits(8)}`;
  }
}
