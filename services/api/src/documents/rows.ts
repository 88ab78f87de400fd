/** Aid index records → the rows of GET /documents (SPEC §3 "state-aid result row"). */
import { centsToDecimalString, isoToItalianDay, type AidRecord, type AidRowDto } from '@rna/domain';

/** dd-mm-yyyy; a malformed register date is shown as it came rather than failing the search. */
function grantDateLabel(iso: string): string {
  try {
    return isoToItalianDay(iso);
  } catch {
    return iso;
  }
}

/** Procedure code 1, or the description "De Minimis" in any case. */
export function isDeMinimisAid(aid: Pick<AidRecord, 'codProcedimento' | 'desProcedimento'>): boolean {
  return aid.codProcedimento.trim() === '1' || /^de\s*minimis$/i.test(aid.desProcedimento.trim());
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
    isDeMinimis: isDeMinimisAid(aid),
    importoNominale: centsToDecimalString(aid.importoNominaleCents),
    elementoDiAiuto: centsToDecimalString(aid.elementoDiAiutoCents),
  };
}

/** Newest grant date first; ties by aid id descending (the aid index's own order). */
export function newestFirst(a: AidRecord, b: AidRecord): number {
  if (a.dataConcessione !== b.dataConcessione) return a.dataConcessione < b.dataConcessione ? 1 : -1;
  return a.idComponenteAiuto < b.idComponenteAiuto ? 1 : a.idComponenteAiuto > b.idComponenteAiuto ? -1 : 0;
}
