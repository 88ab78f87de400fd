/** GET /documents' answer made from a full search result (pure: the API sends it, tests build it). */
import type { AidListRowDto, BeneficiaryDto, SearchAnswerDto, SearchResultDto } from './api';

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
 * GET /documents' answer: each row keeps what the table shows and points at its measure title, procedure
 * and beneficiary, each sent once. The Excel and PDF are made from the full result, not from this.
 */
export function searchAnswer({ rows, ...rest }: SearchResultDto): SearchAnswerDto {
  const measures = new Dictionary<string>();
  const procedures = new Dictionary<string>();
  const beneficiaries = new Dictionary<BeneficiaryDto>();
  const listRows = rows.map((row): AidListRowDto => ({
    id: row.idComponenteAiuto,
    dataConcessione: row.dataConcessione,
    elementoDiAiuto: row.elementoDiAiuto,
    isDeMinimis: row.isDeMinimis,
    measure: measures.indexOf(row.titoloMisura, row.titoloMisura),
    procedure: procedures.indexOf(row.desProcedimento, row.desProcedimento),
    beneficiary: beneficiaries.indexOf(
      `${row.codiceFiscaleBeneficiario}\u0000${row.denominazioneBeneficiario}`,
      { taxCode: row.codiceFiscaleBeneficiario, name: row.denominazioneBeneficiario },
    ),
  }));
  return {
    ...rest,
    rows: listRows,
    measures: measures.values,
    procedures: procedures.values,
    beneficiaries: beneficiaries.values,
  };
}
