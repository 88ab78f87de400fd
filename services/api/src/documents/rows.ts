/** Aid index records → the rows of GET /documents (SPEC §3 "state-aid result row"). */
import type { AidRecord, AidRowDto } from '@rna/domain';

/** Integer cents → "1234.56" (exact: no floating point on the way). */
export function centsToAmountString(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(Math.round(cents));
  const euros = Math.floor(absolute / 100);
  const rest = absolute % 100;
  return `${sign}${euros}.${String(rest).padStart(2, '0')}`;
}

/** YYYY-MM-DD → dd-mm-yyyy; anything else is shown as it came. */
function isoToItalian(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return match ? `${match[3]}-${match[2]}-${match[1]}` : iso;
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
    dataConcessione: isoToItalian(aid.dataConcessione),
    cup: aid.cup,
    desProcedimento: aid.desProcedimento,
    desRegolamento: aid.desRegolamento,
    isDeMinimis: isDeMinimisAid(aid),
    importoNominale: centsToAmountString(aid.importoNominaleCents),
    elementoDiAiuto: centsToAmountString(aid.elementoDiAiutoCents),
  };
}

/** Newest grant date first; ties by aid id descending (the aid index's own order). */
export function newestFirst(a: AidRecord, b: AidRecord): number {
  if (a.dataConcessione !== b.dataConcessione) return a.dataConcessione < b.dataConcessione ? 1 : -1;
  return a.idComponenteAiuto < b.idComponenteAiuto ? 1 : a.idComponenteAiuto > b.idComponenteAiuto ? -1 : 0;
}
