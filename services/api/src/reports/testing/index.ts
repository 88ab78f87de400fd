/** Test and benchmark helpers of the reports (never used by the running API). */
import type { AidRowDto, SearchResultDto } from '@rna/domain';
import type { ReportInput } from '../report-input';

/** An aid row whose texts carry its number `i`. */
export const aReportRow = (i: number, overrides: Partial<AidRowDto> = {}): AidRowDto => ({
  id: `${1000 + i}-${i}`,
  idComponenteAiuto: String(1000 + i),
  codiceFiscaleBeneficiario: '01234567897',
  denominazioneBeneficiario: `Beneficiario ${i}`,
  soggettoConcedente: 'Regione Lombardia',
  titoloMisura: `Misura ${i}`,
  dataConcessione: '15-03-2024',
  cup: 'n.d.',
  desProcedimento: 'De Minimis',
  desRegolamento: 'Reg. UE 2023/2831',
  isDeMinimis: true,
  importoNominale: '20000.00',
  elementoDiAiuto: '12345.67',
  ...overrides,
});

/** A report of `rows` for two codes (one live, one from the archive), branded with two footer lines. */
export function aReportInput(rows: AidRowDto[]): ReportInput {
  const result: SearchResultDto = {
    taxCodes: ['01234567897', 'RSSMRA80A01H501U'],
    deMinimis: true,
    last3Years: false,
    dataSource: 'LIVE',
    lastUpdate: -1,
    rows,
    // live mode: the first code answered by the register, the second from the archive while queued
    sources: [
      { taxCode: '01234567897', source: 'LIVE', asOf: Date.parse('2025-06-10T08:00:00Z') },
      {
        taxCode: 'RSSMRA80A01H501U',
        source: 'ARCHIVE',
        asOf: Date.parse('2025-06-01T04:15:00Z'),
        liveFallback: 'PACED',
      },
    ],
    perCode: [
      {
        taxCode: '01234567897',
        name: 'Alfa S.r.l.',
        totalDocuments: rows.length,
        totalImport: 1234567.89,
        deMinimisUsed: 45000,
        remainingDeMinimis: 255000,
      },
      {
        taxCode: 'RSSMRA80A01H501U',
        name: 'Mario Rossi',
        totalDocuments: 0,
        totalImport: 0,
        deMinimisUsed: 310000,
        remainingDeMinimis: -10000,
      },
    ],
    stats: {
      totalDocuments: rows.length,
      totalImport: 1234567.89,
      totalImportDeMinimis: 45000,
      remainingDeMinimis: 255000,
    },
    deMinimisSeries: Array.from({ length: 36 }, (_, i) => ({
      month: `${String((i % 12) + 1).padStart(2, '0')}/${25 + Math.floor(i / 12)}`,
      total: 45000 - i * 1000,
      remaining: 255000 + i * 1000,
    })),
  };
  return {
    result,
    generatedAt: new Date('2025-06-10T08:30:00Z'),
    branding: {
      logoDataUrl: null,
      primaryColor: '#aa3300',
      footer1: 'Studio Rossi & Associati',
      footer2: 'Via Roma 1, Milano',
      subRenewUrl: 'https://example.com/rinnovo',
      organisation: 'Studio Rossi',
    },
    verification: { code: 'ABCD2345WXYZG', url: 'https://portale.example/verifica/ABCD2345WXYZG' },
    archive: { files: 3, oldest: '2025_03', newest: '2025_05' },
  };
}
