/**
 * For tests: the register's XML of given aids, one concession (AIUTO) with one component and one
 * instrument per aid, so that parsing it gives back exactly these aids (sourceFile and importId
 * come from the import, not from the file).
 */
import type { AidRecord } from '@rna/domain';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const euros = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

const element = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;

export function registerXmlOf(aids: readonly AidRecord[]): string {
  const concessions = aids.map(
    (aid) =>
      '<AIUTO>' +
      element('CAR', aid.car) +
      element('TITOLO_MISURA', aid.titoloMisura) +
      element('DES_TIPO_MISURA', aid.desTipoMisura) +
      element('SOGGETTO_CONCEDENTE', aid.soggettoConcedente) +
      element('COR', aid.cor) +
      element('TITOLO_PROGETTO', aid.titoloProgetto) +
      element('DATA_CONCESSIONE', aid.dataConcessione) +
      element('CUP', aid.cup) +
      element('DENOMINAZIONE_BENEFICIARIO', aid.denominazioneBeneficiario) +
      element('CODICE_FISCALE_BENEFICIARIO', aid.codiceFiscaleBeneficiario) +
      element('DES_TIPO_BENEFICIARIO', aid.desTipoBeneficiario) +
      element('REGIONE_BENEFICIARIO', aid.regioneBeneficiario) +
      '<COMPONENTI_AIUTO><COMPONENTE_AIUTO>' +
      element('ID_COMPONENTE_AIUTO', aid.idComponenteAiuto) +
      element('COD_PROCEDIMENTO', aid.codProcedimento) +
      element('DES_PROCEDIMENTO', aid.desProcedimento) +
      element('COD_REGOLAMENTO', aid.codRegolamento) +
      element('DES_REGOLAMENTO', aid.desRegolamento) +
      element('COD_OBIETTIVO', aid.codObiettivo) +
      element('DES_OBIETTIVO', aid.desObiettivo) +
      element('SETTORE_ATTIVITA', aid.settoreAttivita) +
      '<STRUMENTI_AIUTO><STRUMENTO_AIUTO>' +
      element('ELEMENTO_DI_AIUTO', euros(aid.elementoDiAiutoCents)) +
      element('IMPORTO_NOMINALE', euros(aid.importoNominaleCents)) +
      '</STRUMENTO_AIUTO></STRUMENTI_AIUTO></COMPONENTE_AIUTO></COMPONENTI_AIUTO></AIUTO>',
  );
  return `<?xml version="1.0" encoding="UTF-8"?><LISTA_AIUTI>${concessions.join('')}</LISTA_AIUTI>`;
}
