/** GET /documents' answer made from a full search result (pure: the API sends it, tests build it). */
import type {
  AidDetailColumnsDto,
  AidListRowDto,
  BeneficiaryDto,
  RegulationDto,
  SearchAnswerDto,
  SearchResultDto,
} from './api';

/** Index of each distinct value, in order of first use: a repeated text is sent once. */
class Dictionary<T> {
  readonly values: T[] = [];
  private readonly indexes = new Map<string, number>();
  indexOf(key: string, value: T): number {
    let index = this.indexes.get(key);
    if (index === undefined) {
      index = this.values.length;
      this.indexes.set(key, index);
      this.values.push(value);
    }
    return index;
  }
}

type FullRow = SearchResultDto['rows'][number];

/** Each row's references, by column (AidDetailColumnsDto). */
function detailColumns(rows: readonly FullRow[]): AidDetailColumnsDto {
  const grantors = new Dictionary<string>();
  const regulations = new Dictionary<RegulationDto>();
  const columns: AidDetailColumnsDto = {
    cor: [],
    car: [],
    cup: [],
    importoNominale: [],
    titoloProgetto: [],
    grantor: [],
    regulation: [],
    grantors: grantors.values,
    regulations: regulations.values,
  };
  for (const row of rows) {
    const regulation = { code: row.codRegolamento ?? '', text: row.desRegolamento };
    columns.cor.push(row.cor ?? '');
    columns.car.push(row.car ?? '');
    columns.cup.push(row.cup);
    columns.importoNominale.push(row.importoNominale);
    columns.titoloProgetto.push(row.titoloProgetto ?? '');
    columns.grantor.push(grantors.indexOf(row.soggettoConcedente, row.soggettoConcedente));
    columns.regulation.push(regulations.indexOf(`${regulation.code}\u0000${regulation.text}`, regulation));
  }
  return columns;
}

/**
 * GET /documents' answer: each row keeps what the three-column table shows, under the spec's names,
 * and points at its measure title and beneficiary, each sent once; with `details`, the references the
 * "Dettaglio aiuti" view shows, by column. The Excel and PDF are made from the full result.
 */
export function searchAnswer(
  { rows, ...rest }: SearchResultDto,
  options: { details?: boolean } = {},
): SearchAnswerDto {
  const measures = new Dictionary<string>();
  const beneficiaries = new Dictionary<BeneficiaryDto>();
  const listRows = rows.map((row): AidListRowDto => ({
    idComponenteAiuto: row.idComponenteAiuto,
    dataConcessione: row.dataConcessione,
    desProcedimento: row.desProcedimento,
    isDeMinimis: row.isDeMinimis,
    elementoDiAiuto: row.elementoDiAiuto,
    measure: measures.indexOf(row.titoloMisura, row.titoloMisura),
    beneficiary: beneficiaries.indexOf(
      `${row.codiceFiscaleBeneficiario}\u0000${row.denominazioneBeneficiario}`,
      {
        taxCode: row.codiceFiscaleBeneficiario,
        name: row.denominazioneBeneficiario,
      },
    ),
  }));
  return {
    ...rest,
    rows: listRows,
    measures: measures.values,
    beneficiaries: beneficiaries.values,
    ...(options.details ? { details: detailColumns(rows) } : {}),
  };
}

/** One row with its references, as the detail view and a reader of the answer use it. */
export interface AidRowWithDetails extends AidListRowDto {
  cor: string;
  car: string;
  cup: string;
  importoNominale: string;
  titoloProgetto: string;
  soggettoConcedente: string;
  regulation: RegulationDto;
}

const NO_REGULATION: RegulationDto = { code: '', text: '' };

/** The answer's rows joined with their detail columns; null when the answer was asked without details. */
export function rowsWithDetails(
  answer: Pick<SearchAnswerDto, 'rows' | 'details'>,
): AidRowWithDetails[] | null {
  const details = answer.details;
  if (!details) return null;
  return answer.rows.map((row, i) => ({
    ...row,
    cor: details.cor[i] ?? '',
    car: details.car[i] ?? '',
    cup: details.cup[i] ?? '',
    importoNominale: details.importoNominale[i] ?? '',
    titoloProgetto: details.titoloProgetto[i] ?? '',
    soggettoConcedente: details.grantors[details.grantor[i] ?? -1] ?? '',
    regulation: details.regulations[details.regulation[i] ?? -1] ?? NO_REGULATION,
  }));
}
