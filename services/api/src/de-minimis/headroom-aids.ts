/** What the headroom rules read of an indexed aid. */
import { isDeMinimisProcedure, type AidRecord, type HeadroomAid } from '@rna/domain';

export function headroomAidOf(aid: AidRecord): HeadroomAid {
  return {
    taxCode: aid.codiceFiscaleBeneficiario,
    name: aid.denominazioneBeneficiario || null,
    dataConcessione: aid.dataConcessione,
    elementoDiAiutoCents: aid.elementoDiAiutoCents,
    isDeMinimis: isDeMinimisProcedure(aid.codProcedimento, aid.desProcedimento),
    codRegolamento: aid.codRegolamento,
    desRegolamento: aid.desRegolamento,
  };
}
