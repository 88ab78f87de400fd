/**
 * How the embedded index keeps an aid in about a tenth of its JSON: the texts that repeat across
 * aids are stored once, in a dictionary, and a row holds only their references and what is the
 * aid's own (id, tax code, date, COR, CUP, amounts). Three dictionary entries per aid:
 *
 * - the measure: title, kind, granting body, CAR, procedure, regulation, objective — the same for
 *   every aid of a measure (a national scheme has hundreds of thousands of them);
 * - the beneficiary: name, kind, region, sector — the same for every aid of a company;
 * - the project title, which repeats within a measure more often than not.
 *
 * Pure functions: the SQLite adapter maps the parts to columns and the texts to dictionary ids.
 */
import { normalizeTaxCode, type AidRecord } from '@rna/domain';

/** Fields of the measure entry, in the order they are stored (never reorder: stored rows depend on it). */
const MEASURE_FIELDS = [
  'titoloMisura',
  'desTipoMisura',
  'soggettoConcedente',
  'car',
  'codProcedimento',
  'desProcedimento',
  'codRegolamento',
  'desRegolamento',
  'codObiettivo',
  'desObiettivo',
] as const satisfies readonly (keyof AidRecord)[];

const BENEFICIARY_FIELDS = [
  'denominazioneBeneficiario',
  'desTipoBeneficiario',
  'regioneBeneficiario',
  'settoreAttivita',
] as const satisfies readonly (keyof AidRecord)[];

type TextField = (typeof MEASURE_FIELDS)[number] | (typeof BENEFICIARY_FIELDS)[number];

/** What a row holds of its own, beside the three dictionary texts. */
export interface AidRowValues {
  id: string;
  taxCode: string;
  /** The beneficiary's code as the register wrote it, when it differs from its normalized form. */
  rawTaxCode: string | null;
  /** YYYYMMDD as a number: sorts like the date, four bytes, and gives back exactly the text stored. */
  grantDate: number;
  cor: string | null;
  cup: string | null;
  aidCents: number;
  nominalCents: number;
}

export interface SplitAid {
  row: AidRowValues;
  measure: string;
  beneficiary: string;
  project: string;
  sourceFile: string;
  importId: string;
}

/** A stored field absent from the record (not in the register's file) stays absent when read back. */
function textsOf(record: AidRecord, fields: readonly TextField[]): string {
  return JSON.stringify(fields.map((field) => (record[field] as string | undefined) ?? null));
}

export function grantDateNumber(isoDate: string): number {
  return Number(isoDate.slice(0, 4) + isoDate.slice(5, 7) + isoDate.slice(8, 10));
}

export function grantDateText(value: number): string {
  const digits = String(value).padStart(8, '0');
  return `${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}`;
}

/** The parts of a valid aid (assertStorableAid) as the index stores them. */
export function splitAid(record: AidRecord): SplitAid {
  const taxCode = normalizeTaxCode(record.codiceFiscaleBeneficiario);
  return {
    row: {
      id: record.idComponenteAiuto.trim(),
      taxCode,
      rawTaxCode: record.codiceFiscaleBeneficiario === taxCode ? null : record.codiceFiscaleBeneficiario,
      grantDate: grantDateNumber(record.dataConcessione),
      cor: record.cor ?? null,
      cup: record.cup ?? null,
      aidCents: record.elementoDiAiutoCents,
      nominalCents: record.importoNominaleCents,
    },
    measure: textsOf(record, MEASURE_FIELDS),
    beneficiary: textsOf(record, BENEFICIARY_FIELDS),
    project: JSON.stringify(record.titoloProgetto ?? null),
    sourceFile: record.sourceFile,
    importId: record.importId,
  };
}

function assignTexts(record: Record<string, unknown>, fields: readonly TextField[], text: string): void {
  const values = JSON.parse(text) as (string | null)[];
  for (let i = 0; i < fields.length; i++) {
    const value = values[i];
    if (value !== null && value !== undefined) record[fields[i]!] = value;
  }
}

/** The aid back from its parts: the same fields and values as the record that was split. */
export function joinAid(parts: SplitAid): AidRecord {
  const { row } = parts;
  const record: Record<string, unknown> = { idComponenteAiuto: row.id };
  if (row.cor !== null) record.cor = row.cor;
  assignTexts(record, MEASURE_FIELDS, parts.measure);
  const project = JSON.parse(parts.project) as string | null;
  if (project !== null) record.titoloProgetto = project;
  record.dataConcessione = grantDateText(row.grantDate);
  if (row.cup !== null) record.cup = row.cup;
  assignTexts(record, BENEFICIARY_FIELDS, parts.beneficiary);
  record.codiceFiscaleBeneficiario = row.rawTaxCode ?? row.taxCode;
  record.elementoDiAiutoCents = row.aidCents;
  record.importoNominaleCents = row.nominalCents;
  record.sourceFile = parts.sourceFile;
  record.importId = parts.importId;
  return record as unknown as AidRecord;
}

/**
 * A 53-bit key of a dictionary text (two FNV-1a hashes of its UTF-16 units): the dictionary is
 * looked up by this number, whose index costs a tenth of an index on the texts themselves. Two texts
 * may share a key; the lookup compares the text too.
 */
export function textKey(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}
