/**
 * The names of the files the portal hands out: in Italian, saying what the file holds, for whom and
 * the day (in Rome) it was made, so that a folder of downloads sorts and reads by itself:
 * aiuti-RSSMRA80A01H501U-2026-11-25.xlsx rather than report.xlsx (docs/glossary.md).
 */
import { todayInRome } from './dates';

export type DownloadKind = 'aiuti' | 'clienti' | 'registro-attivita' | 'dichiarazione-de-minimis';

/** Up to this many tax codes are named one by one; more are counted. */
const NAMED_CODES = 3;

/** The codes' part of a name: the codes joined by '_' (letters and digits only), or "N-codici". */
function codesPart(taxCodes: readonly string[]): string {
  const codes = [...new Set(taxCodes.map((code) => code.toUpperCase().replace(/[^A-Z0-9]/g, '')))].filter(
    Boolean,
  );
  // no code at all joins to ''
  return codes.length <= NAMED_CODES ? codes.join('_') : `${codes.length}-codici`;
}

export function downloadFileName(
  kind: DownloadKind,
  extension: 'xlsx' | 'pdf',
  madeAt: Date | number,
  taxCodes: readonly string[] = [],
): string {
  const codes = codesPart(taxCodes);
  return [kind, ...(codes ? [codes] : []), todayInRome(madeAt)].join('-') + `.${extension}`;
}
