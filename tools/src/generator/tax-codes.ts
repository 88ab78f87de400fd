/** Valid Italian tax codes (partita IVA, codice fiscale) and foreign VAT numbers for test data. */
import { codiceFiscaleCheckLetter, partitaIvaCheckDigit } from '@rna/domain';
import { intBetween, pick, type Random } from './random';

export function randomPartitaIva(random: Random): string {
  const company = String(intBetween(random, 1, 9_999_999)).padStart(7, '0');
  const office = String(intBetween(random, 1, 100)).padStart(3, '0');
  const first10 = company + office;
  return first10 + String(partitaIvaCheckDigit(first10));
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
  return first15 + codiceFiscaleCheckLetter(first15);
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
