/**
 * A register record is checked like user input before it is published: the register's files have
 * held impossible dates (2026-13-45, 9999-12-31), negative amounts and multi-megabyte names, and an
 * indexed record changes every total it falls into. A record is either kept, with its texts capped,
 * or rejected with a reason code and an Italian message that the archive screen shows.
 *
 * - dataConcessione: a real calendar day from 1990-01-01 to one year after the sync's `now` (Rome).
 * - elementoDiAiutoCents, importoNominaleCents: integer cents, 0 to 10^13 (100 billion euro).
 *   The register is not documented to send negative amounts (revocations are not published as
 *   negative aids), so a negative amount is a rejected record, never a deduction from a total.
 * - idComponenteAiuto: an integer (digits only, at most 20); codiceFiscaleBeneficiario: present and
 *   at most 32 characters (it is the key the aid is searched by, so it is never cut).
 * - Every other text is capped at REGISTER_TEXT_MAX_CHARS (ending in '…' when cut): a long name is
 *   kept, bounded, far below Excel's 32,767 characters a cell.
 */
import type { AidRecord } from './events';
import { addYears, parseIsoDay, todayInRome } from './dates';
import { formatEuroCents } from './formatting';
import type { RegisterRecordRejection, RegisterRecordRejectionReason } from './register-record-rejections';

export const REGISTER_TEXT_MAX_CHARS = 2_000;
/** Excel's limit on the characters of one cell: no capped text may come near it. */
export const EXCEL_CELL_MAX_CHARS = 32_767;
/** 100 billion euro: more than any single aid, far below Number.MAX_SAFE_INTEGER. */
export const MAX_AMOUNT_CENTS = 10 ** 13;
export const EARLIEST_GRANT_DAY = '1990-01-01';
/** The rejected records a file's success event lists (the count is always whole). */
export const MAX_LISTED_REJECTIONS = 100;

const MAX_ID_DIGITS = 20;
const MAX_TAX_CODE_CHARS = 32;
/** How much of an offending value a message quotes. */
const QUOTED_CHARS = 40;
const ELLIPSIS = '…';

export type RegisterRecordCheck =
  { ok: true; record: AidRecord; capped: boolean } | { ok: false; rejection: RegisterRecordRejection };

/** The free texts of a record: capped, never a reason to reject it. */
const CAPPED_FIELDS = [
  'cor',
  'car',
  'titoloMisura',
  'desTipoMisura',
  'soggettoConcedente',
  'titoloProgetto',
  'cup',
  'denominazioneBeneficiario',
  'desTipoBeneficiario',
  'regioneBeneficiario',
  'codProcedimento',
  'desProcedimento',
  'codRegolamento',
  'desRegolamento',
  'codObiettivo',
  'desObiettivo',
  'settoreAttivita',
] as const satisfies readonly (keyof AidRecord)[];

/** `text` cut to at most `max` characters, the last one '…'; never splits a surrogate pair. */
export function capText(text: string, max = REGISTER_TEXT_MAX_CHARS): string {
  if (text.length <= max) return text;
  let end = max - ELLIPSIS.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
}

const quoted = (value: unknown) => capText(String(value), QUOTED_CHARS);

const AMOUNT_LABELS = {
  elementoDiAiutoCents: 'elemento di aiuto',
  importoNominaleCents: 'importo nominale',
} as const;

/**
 * The check with its date bounds worked out once for a whole file (`now` is the sync's clock): the
 * parser calls it for every record.
 */
export function registerRecordValidator(now: Date | number): (record: AidRecord) => RegisterRecordCheck {
  const latest = addYears(todayInRome(now), 1);
  return (record) => {
    const reject = (reason: RegisterRecordRejectionReason, message: string): RegisterRecordCheck => ({
      ok: false,
      rejection: { idComponenteAiuto: quoted(record.idComponenteAiuto), reason, message },
    });
    const id = record.idComponenteAiuto.trim();
    if (!/^\d+$/.test(id) || id.length > MAX_ID_DIGITS)
      return reject(
        'ID_NON_VALIDO',
        id === ''
          ? 'Identificativo del componente di aiuto mancante'
          : `Identificativo del componente di aiuto non valido: ${quoted(id)}`,
      );
    const taxCode = record.codiceFiscaleBeneficiario.trim();
    if (taxCode === '')
      return reject('CODICE_FISCALE_NON_VALIDO', 'Codice fiscale del beneficiario mancante');
    if (taxCode.length > MAX_TAX_CODE_CHARS)
      return reject(
        'CODICE_FISCALE_NON_VALIDO',
        `Codice fiscale del beneficiario non valido: ${quoted(taxCode)}`,
      );
    const rawDay = record.dataConcessione.trim();
    if (!parseIsoDay(rawDay))
      return reject(
        'DATA_NON_VALIDA',
        rawDay === '' ? 'Data di concessione mancante' : `Data di concessione non valida: ${quoted(rawDay)}`,
      );
    // parseIsoDay takes only 'YYYY-MM-DD' of a real day, and such days compare as text
    if (rawDay < EARLIEST_GRANT_DAY || rawDay > latest)
      return reject(
        'DATA_FUORI_INTERVALLO',
        `Data di concessione fuori dall’intervallo ammesso (${EARLIEST_GRANT_DAY} – ${latest}): ${rawDay}`,
      );
    for (const field of ['elementoDiAiutoCents', 'importoNominaleCents'] as const) {
      const cents = record[field];
      if (!Number.isSafeInteger(cents))
        return reject('IMPORTO_NON_VALIDO', `Importo non valido (${AMOUNT_LABELS[field]})`);
      if (cents < 0)
        return reject(
          'IMPORTO_NEGATIVO',
          `Importo negativo (${AMOUNT_LABELS[field]}): ${formatEuroCents(cents)}`,
        );
      if (cents > MAX_AMOUNT_CENTS)
        return reject(
          'IMPORTO_NON_VALIDO',
          `Importo fuori misura (${AMOUNT_LABELS[field]}): ${formatEuroCents(cents)}`,
        );
    }
    // The usual record is kept as it is: no copy on the parser's hot path.
    let kept = record;
    const keep = (change: Partial<AidRecord>) => {
      if (kept === record) kept = { ...record };
      Object.assign(kept, change);
    };
    if (id !== record.idComponenteAiuto || rawDay !== record.dataConcessione)
      keep({ idComponenteAiuto: id, dataConcessione: rawDay });
    let capped = false;
    for (const field of CAPPED_FIELDS) {
      const text = record[field];
      if (text.length > REGISTER_TEXT_MAX_CHARS) {
        keep({ [field]: capText(text) });
        capped = true;
      }
    }
    return { ok: true, record: kept, capped };
  };
}

/** One record checked against the sync's `now`; for many records, build registerRecordValidator once. */
export function checkRegisterRecord(record: AidRecord, now: Date | number): RegisterRecordCheck {
  return registerRecordValidator(now)(record);
}
