/**
 * Maps a record of the live look-up (FORMAT.md "Live look-up") to the archive's AidRecord shape,
 * so that rows, totals and reports are built the same way in both modes.
 */
import { euroToCents, tryParseItalianEuroCents, type AidRecord } from '@rna/domain';

/** One record of `data` in the live answer; every field may be missing or null. */
export interface LiveAidRecord {
  cor?: unknown;
  car?: unknown;
  ce?: unknown;
  titolo?: unknown;
  tipo?: unknown;
  progetto?: unknown;
  data?: unknown;
  beneficiario?: unknown;
  cf?: unknown;
  regione?: unknown;
  elemento_aiuto?: unknown;
  id_concessione?: unknown;
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';

/** "€ 1.234,56" (Italian format) → 123456 cents; unreadable → 0. */
export function parseItalianEuroToCents(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value)) return euroToCents(value);
  return tryParseItalianEuroCents(text(value)) ?? 0;
}

/** DD/MM/YYYY → YYYY-MM-DD; anything else → ''. */
export function liveDateToIso(value: unknown): string {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text(value));
  return match ? `${match[3]}-${match[2]}-${match[1]}` : '';
}

/**
 * The live answer has one amount per concession (the aid element) and names the procedure in
 * `tipo` (unconfirmed reading); the nominal amount is not given, so the aid element stands in.
 */
export function liveRecordToAid(record: LiveAidRecord, requestedTaxCode: string): AidRecord {
  const procedure = text(record.tipo);
  const elementoDiAiutoCents = parseItalianEuroToCents(record.elemento_aiuto);
  const cor = text(record.cor);
  return {
    idComponenteAiuto: text(record.id_concessione) || cor,
    cor,
    car: text(record.car),
    titoloMisura: text(record.titolo),
    desTipoMisura: '',
    soggettoConcedente: '',
    titoloProgetto: text(record.progetto),
    dataConcessione: liveDateToIso(record.data),
    cup: '',
    denominazioneBeneficiario: text(record.beneficiario),
    codiceFiscaleBeneficiario: text(record.cf) || requestedTaxCode,
    desTipoBeneficiario: '',
    regioneBeneficiario: text(record.regione),
    codProcedimento: /de\s*minimis/i.test(procedure) ? '1' : '',
    desProcedimento: procedure,
    codRegolamento: text(record.ce),
    desRegolamento: '',
    codObiettivo: '',
    desObiettivo: '',
    settoreAttivita: '',
    elementoDiAiutoCents,
    importoNominaleCents: elementoDiAiutoCents,
    sourceFile: 'LIVE',
    importId: 'live',
  };
}
