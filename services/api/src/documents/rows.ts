/** Aid index records → the rows of GET /documents (SPEC §3 "state-aid result row"). */
import {
  centsToDecimalString,
  isDeMinimisProcedure,
  isoToItalianDay,
  type AidRecord,
  type AidRowDto,
} from '@rna/domain';

/** dd-mm-yyyy; a malformed register date is shown as it came rather than failing the search. */
function grantDateLabel(iso: string): string {
  try {
    return isoToItalianDay(iso);
  } catch {
    return iso;
  }
}

export function aidToRow(aid: AidRecord, index: number): AidRowDto {
  return {
    id: `${aid.idComponenteAiuto}-${index}`,
    idComponenteAiuto: aid.idComponenteAiuto,
    codiceFiscaleBeneficiario: aid.codiceFiscaleBeneficiario,
    denominazioneBeneficiario: aid.denominazioneBeneficiario,
    soggettoConcedente: aid.soggettoConcedente,
    titoloMisura: aid.titoloMisura,
    dataConcessione: grantDateLabel(aid.dataConcessione),
    cup: aid.cup,
    desProcedimento: aid.desProcedimento,
    desRegolamento: aid.desRegolamento,
    isDeMinimis: isDeMinimisProcedure(aid.codProcedimento, aid.desProcedimento),
    importoNominale: centsToDecimalString(aid.importoNominaleCents),
    elementoDiAiuto: centsToDecimalString(aid.elementoDiAiutoCents),
    cor: aid.cor,
    car: aid.car,
    codRegolamento: aid.codRegolamento,
    titoloProgetto: aid.titoloProgetto,
    desObiettivo: aid.desObiettivo,
    settoreAttivita: aid.settoreAttivita,
    regioneBeneficiario: aid.regioneBeneficiario,
    sourceFile: aid.sourceFile,
  };
}

/** Newest grant date first; ties by aid id descending (the aid index's own order). */
export function newestFirst(a: AidRecord, b: AidRecord): number {
  if (a.dataConcessione !== b.dataConcessione) return a.dataConcessione < b.dataConcessione ? 1 : -1;
  return a.idComponenteAiuto < b.idComponenteAiuto ? 1 : a.idComponenteAiuto > b.idComponenteAiuto ? -1 : 0;
}
