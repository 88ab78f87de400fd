/** The "Dettaglio aiuti" rows: every aid of the answer with its texts looked up, and how they sort. */
import { rowsWithDetails, type BeneficiaryDto, type RegulationDto, type SearchAnswerDto } from '@rna/domain';

export interface AidDetail {
  /** the row's key: the aid id and its place in the answer (an aid may be listed twice) */
  key: string;
  idComponenteAiuto: string;
  /** dd-mm-yyyy, as shown */
  dataConcessione: string;
  /** yyyy-mm-dd, so that days compare as text */
  grantDay: string;
  beneficiary: BeneficiaryDto;
  soggettoConcedente: string;
  titoloMisura: string;
  titoloProgetto: string;
  desProcedimento: string;
  regulation: RegulationDto;
  cor: string;
  car: string;
  cup: string;
  importoNominale: string;
  elementoDiAiuto: string;
}

/** A search answer asked with details=true: its rows, their references, and the texts they point at. */
export type AidDetailsAnswer = Pick<SearchAnswerDto, 'rows' | 'details' | 'measures' | 'beneficiaries'>;

const NO_BENEFICIARY: BeneficiaryDto = { taxCode: '', name: '' };

/** dd-mm-yyyy → yyyy-mm-dd; anything else is kept as it came (it sorts apart, never fails). */
function sortableDay(day: string): string {
  const parts = /^(\d{2})-(\d{2})-(\d{4})$/.exec(day);
  return parts ? `${parts[3]}-${parts[2]}-${parts[1]}` : day;
}

export function aidDetails(answer: AidDetailsAnswer): AidDetail[] {
  return (rowsWithDetails(answer) ?? []).map((row, index) => ({
    key: `${row.idComponenteAiuto}-${index}`,
    idComponenteAiuto: row.idComponenteAiuto,
    dataConcessione: row.dataConcessione,
    grantDay: sortableDay(row.dataConcessione),
    beneficiary: answer.beneficiaries[row.beneficiary] ?? NO_BENEFICIARY,
    soggettoConcedente: row.soggettoConcedente,
    titoloMisura: answer.measures[row.measure] ?? '',
    titoloProgetto: row.titoloProgetto,
    desProcedimento: row.desProcedimento,
    regulation: row.regulation,
    cor: row.cor,
    car: row.car,
    cup: row.cup,
    importoNominale: row.importoNominale,
    elementoDiAiuto: row.elementoDiAiuto,
  }));
}

export type AidDetailSortKey =
  | 'grantDate'
  | 'beneficiary'
  | 'grantor'
  | 'measure'
  | 'procedure'
  | 'regulation'
  | 'nominalAmount'
  | 'aidElement';

export interface AidDetailSort {
  key: AidDetailSortKey;
  direction: 'ascending' | 'descending';
}

/** The spec's order: newest grant first (the answer's own order breaks ties). */
export const NEWEST_FIRST: AidDetailSort = { key: 'grantDate', direction: 'descending' };

const collator = new Intl.Collator('it', { sensitivity: 'base', numeric: true });
const byText = (text: (row: AidDetail) => string) => (a: AidDetail, b: AidDetail) =>
  collator.compare(text(a), text(b));
const byAmount = (amount: (row: AidDetail) => string) => (a: AidDetail, b: AidDetail) =>
  Number(amount(a)) - Number(amount(b));

const ASCENDING: Record<AidDetailSortKey, (a: AidDetail, b: AidDetail) => number> = {
  grantDate: (a, b) => (a.grantDay < b.grantDay ? -1 : a.grantDay > b.grantDay ? 1 : 0),
  beneficiary: byText((row) => row.beneficiary.name),
  grantor: byText((row) => row.soggettoConcedente),
  measure: byText((row) => row.titoloMisura),
  procedure: byText((row) => row.desProcedimento),
  regulation: byText((row) => `${row.regulation.code} ${row.regulation.text}`),
  nominalAmount: byAmount((row) => row.importoNominale),
  aidElement: byAmount((row) => row.elementoDiAiuto),
};

/** A new array in the asked order; equal rows keep the answer's order (newest first). */
export function sortAidDetails(rows: readonly AidDetail[], sort: AidDetailSort): AidDetail[] {
  const compare = ASCENDING[sort.key];
  const factor = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => compare(a, b) * factor);
}

/** A header clicked: the same column turns around; another starts with the newest or largest first, or A to Z. */
export function nextAidDetailSort(current: AidDetailSort, key: AidDetailSortKey): AidDetailSort {
  if (current.key === key) {
    return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  }
  const largestFirst = key === 'grantDate' || key === 'nominalAmount' || key === 'aidElement';
  return { key, direction: largestFirst ? 'descending' : 'ascending' };
}
