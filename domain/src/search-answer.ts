/** GET /documents' answer made from a full search result (pure: the API sends it, tests build it). */
import {
  AID_LIST_ROW_FIELDS,
  type AidListRow,
  type AidListRowDto,
  type BeneficiaryDto,
  type RegulationDto,
  type SearchAnswerDto,
  type SearchResultDto,
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

/**
 * GET /documents' answer: each row keeps what the tables show and points at its measure title, granting
 * body, regulation and beneficiary, each sent once. The Excel and PDF are made from the full result.
 */
export function searchAnswer({ rows, ...rest }: SearchResultDto): SearchAnswerDto {
  const measures = new Dictionary<string>();
  const grantors = new Dictionary<string>();
  const regulations = new Dictionary<RegulationDto>();
  const beneficiaries = new Dictionary<BeneficiaryDto>();
  // values in the order of AID_LIST_ROW_FIELDS, written out rather than picked from an object by
  // name: thousands of rows per answer (the unit test reads every field back by its name)
  const listRows = rows.map((row): AidListRowDto => {
    const regulation = { code: row.codRegolamento ?? '', text: row.desRegolamento };
    return [
      row.idComponenteAiuto,
      row.dataConcessione,
      row.desProcedimento,
      row.isDeMinimis,
      row.elementoDiAiuto,
      row.importoNominale,
      measures.indexOf(row.titoloMisura, row.titoloMisura),
      grantors.indexOf(row.soggettoConcedente, row.soggettoConcedente),
      regulations.indexOf(`${regulation.code}\u0000${regulation.text}`, regulation),
      beneficiaries.indexOf(`${row.codiceFiscaleBeneficiario}\u0000${row.denominazioneBeneficiario}`, {
        taxCode: row.codiceFiscaleBeneficiario,
        name: row.denominazioneBeneficiario,
      }),
      row.cor ?? '',
      row.car ?? '',
      row.cup,
      row.titoloProgetto ?? '',
    ];
  });
  return {
    ...rest,
    rowFields: AID_LIST_ROW_FIELDS,
    rows: listRows,
    measures: measures.values,
    grantors: grantors.values,
    regulations: regulations.values,
    beneficiaries: beneficiaries.values,
  };
}

/** The answer's rows as objects, each value found by the name the answer gives its position. */
export function readAidListRows({
  rowFields,
  rows,
}: Pick<SearchAnswerDto, 'rowFields' | 'rows'>): AidListRow[] {
  const positions = AID_LIST_ROW_FIELDS.map((field) => [field, rowFields.indexOf(field)] as const);
  return rows.map((values) => {
    const row: Partial<Record<keyof AidListRow, unknown>> = {};
    for (const [field, position] of positions) row[field] = values[position];
    return row as AidListRow;
  });
}
