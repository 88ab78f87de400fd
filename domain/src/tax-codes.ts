/**
 * Tax codes (codice fiscale / partita IVA): normalisation, the search-box length rule and an
 * advisory check-digit test. A failed check only warns: the register also holds foreign VAT numbers.
 */
import { DomainError } from './errors';

export const MIN_TAX_CODE_LENGTH = 11;
export const MAX_TAX_CODE_LENGTH = 16;

/**
 * What the portal accepts as a tax code, after normalisation: 11 to 16 letters and digits. That
 * covers a partita IVA (11 digits), a codice fiscale (16) and the foreign VAT numbers the register
 * holds; anything else (markup, punctuation, a pasted list run together) is refused with T002 before
 * a search is charged.
 */
const WELL_FORMED_TAX_CODE = new RegExp(`^[A-Z0-9]{${MIN_TAX_CODE_LENGTH},${MAX_TAX_CODE_LENGTH}}$`);

export type TaxCodeCheck = 'valid' | 'invalid' | 'other-format';

/** Trim, uppercase and drop every space inside (users paste 'rss mra 85t10 a562s'). */
export function normalizeTaxCode(raw: string): string {
  return raw.replace(/\s/g, '').toUpperCase();
}

/**
 * A comma-separated list (or several of them, as repeated query parameters) → normalised codes,
 * without empty entries and without duplicates, first occurrence order kept.
 */
export function splitTaxCodes(input: string | readonly string[] | null | undefined): string[] {
  const pieces = (typeof input === 'string' ? [input] : (input ?? [])).flatMap((item) => item.split(','));
  // a Set keeps this linear: a pasted list may hold tens of thousands of pieces
  const codes = new Set<string>();
  for (const piece of pieces) {
    const code = normalizeTaxCode(piece);
    if (code !== '') codes.add(code);
  }
  return [...codes];
}

/** What a pasted or typed list of tax codes holds: the codes, and the pieces that are not codes. */
export interface TaxCodeList {
  /** normalised, without duplicates, in the order they came */
  codes: string[];
  /** pieces that are not 11 to 16 letters and digits, as they were written */
  malformed: string[];
}

/**
 * A list as people paste it from a spreadsheet column, a mail or a document: codes separated by new
 * lines, commas, semicolons, tabs or spaces. Spaces separate codes when a word between them is a code on
 * its own; otherwise they are a code written in groups ('rss mra 85t10 a562s'), and are dropped.
 */
export function parseTaxCodeList(text: string): TaxCodeList {
  const codes = new Set<string>();
  const malformed: string[] = [];
  const take = (piece: string) => {
    const code = normalizeTaxCode(piece);
    if (code === '') return;
    // a column's heading ("Codice fiscale", "Partita IVA beneficiario"): letters alone are no code
    // in a list, even when they number 11 to 16 once the spaces are gone (a partita IVA is digits, a
    // codice fiscale has its birth date's)
    if (!isWellFormedTaxCode(code) || !/\d/.test(code)) malformed.push(piece.trim());
    else codes.add(code);
  };
  const codeLike = (word: string) => isWellFormedTaxCode(word) && /\d/.test(word);
  for (const piece of text.split(/[\r\n,;\t]/)) {
    // empty pieces and words (separators side by side) are skipped by take
    const words = piece.split(/\s/);
    if (words.some(codeLike)) words.forEach(take);
    else take(piece);
  }
  return { codes: [...codes], malformed };
}

/** 11 to 16 letters and digits once normalised (upper case, spaces out). */
export function isWellFormedTaxCode(code: string): boolean {
  return WELL_FORMED_TAX_CODE.test(normalizeTaxCode(code));
}

/** 'T002' when the code is not 11 to 16 letters and digits (after normalisation), else null. */
export function taxCodeError(code: string): 'T002' | null {
  return isWellFormedTaxCode(code) ? null : 'T002';
}

/** Throws DomainError T002 when the code is not 11 to 16 letters and digits. */
export function assertWellFormedTaxCode(code: string): void {
  if (!isWellFormedTaxCode(code)) throw new DomainError('T002');
}

/**
 * The tax codes of a search request (search, reports, saved searches, alerts): T001 when there is
 * none, T002 when any is not well formed. (The home screen checks only the first code; the server
 * checks every one.)
 */
export function parseSearchTaxCodes(input: string | readonly string[] | null | undefined): string[] {
  const codes = splitTaxCodes(input);
  if (codes.length === 0) throw new DomainError('T001');
  codes.forEach(assertWellFormedTaxCode);
  return codes;
}

/**
 * A user with a fixed tax code may look up (search, reports, alerts) only that code: P001 for any
 * other. Users without one may look up any code.
 */
export function assertOnlyFixedTaxCode(fixedTaxCode: string | null, codes: readonly string[]): void {
  if (!fixedTaxCode) return;
  const fixed = normalizeTaxCode(fixedTaxCode);
  if (codes.some((code) => normalizeTaxCode(code) !== fixed)) throw new DomainError('P001');
}

// ---- partita IVA: 11 digits, Luhn-like check digit ----

const PARTITA_IVA = /^\d{11}$/;

/** The check digit over the first ten digits of `digits` (the rest, if any, is not read). */
export function partitaIvaCheckDigit(digits: string): number {
  let total = 0;
  for (let i = 0; i < 10; i++) {
    const digit = Number(digits[i]);
    // position i + 1: odd positions count as they are, even positions doubled (minus 9 from 5 up)
    if (i % 2 === 0) total += digit;
    else total += digit < 5 ? digit * 2 : digit * 2 - 9;
  }
  return (10 - (total % 10)) % 10;
}

export function isValidPartitaIva(code: string): boolean {
  return PARTITA_IVA.test(code) && partitaIvaCheckDigit(code) === Number(code[10]);
}

// ---- codice fiscale: 16 characters, check letter ----

/** Letters that replace digits 0..9 in a codice fiscale with omocodia. */
const OMOCODIA_LETTERS = 'LMNPQRSTUV';
const DIGIT_OR_OMOCODIA = `[0-9${OMOCODIA_LETTERS}]`;
/** Surname 3, name 3, year 2, month letter, day 2, place letter + 3, check letter. */
const CODICE_FISCALE = new RegExp(
  `^[A-Z]{6}${DIGIT_OR_OMOCODIA}{2}[ABCDEHLMPRST]${DIGIT_OR_OMOCODIA}{2}[A-Z]${DIGIT_OR_OMOCODIA}{3}[A-Z]$`,
);

/** Official values of characters at odd positions (1st, 3rd, …) for digits 0-9 and letters A-Z. */
const ODD_DIGIT_VALUES = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21];
const ODD_LETTER_VALUES = [
  1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23,
];

function oddValue(char: string): number {
  const code = char.charCodeAt(0);
  return code <= 57 ? (ODD_DIGIT_VALUES[code - 48] ?? 0) : (ODD_LETTER_VALUES[code - 65] ?? 0);
}

function evenValue(char: string): number {
  const code = char.charCodeAt(0);
  // Stryker disable next-line ArithmeticOperator: + 65 adds 130 = 5 × 26 to the sum, the same letter mod 26
  return code <= 57 ? code - 48 : code - 65;
}

/** The check letter over the first 15 characters of `code` (at least 15 letters and digits). */
export function codiceFiscaleCheckLetter(code: string): string {
  let total = 0;
  for (let i = 0; i < 15; i++) {
    const char = code[i]!;
    total += i % 2 === 0 ? oddValue(char) : evenValue(char);
  }
  return String.fromCharCode(65 + (total % 26));
}

export function isValidCodiceFiscale(code: string): boolean {
  return CODICE_FISCALE.test(code) && codiceFiscaleCheckLetter(code) === code[15];
}

/**
 * 'valid' / 'invalid' for Italian codes (11-digit partita IVA, 16-character codice fiscale, with
 * omocodia); 'other-format' for anything else (foreign VAT numbers…). Advisory only: never blocks a search.
 */
export function checkTaxCode(raw: string): TaxCodeCheck {
  const code = normalizeTaxCode(raw);
  if (PARTITA_IVA.test(code)) return isValidPartitaIva(code) ? 'valid' : 'invalid';
  if (CODICE_FISCALE.test(code)) return isValidCodiceFiscale(code) ? 'valid' : 'invalid';
  return 'other-format';
}
