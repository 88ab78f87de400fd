/** A client's or administrator's audit history as an Excel sheet, for auditors who work offline. */
import ExcelJS from 'exceljs';
import { DATE_FORMAT, DATE_TIME_FORMAT, romeDateTimeCell } from '../reports/excel';
import type { AuditEntry, AuditEntryKind, ClientAuditHistory } from './history';

const SECONDS_FORMAT = `${DATE_TIME_FORMAT}:ss`;

export const AUDIT_KIND_LABELS: Record<AuditEntryKind, string> = {
  ALLOWANCE: 'Abbonamento',
  SEARCH: 'Ricerca',
  DOWNLOAD: 'Scaricamento',
  REFUSAL: 'Rifiuto',
  REFUND: 'Rimborso',
};

const flag = (value: boolean | null): string => (value === null ? '' : value ? 'Sì' : 'No');

const columns: {
  header: string;
  width: number;
  value: (entry: AuditEntry) => ExcelJS.CellValue;
  date?: true;
}[] = [
  { header: 'Data e ora', width: 20, value: (e) => romeDateTimeCell(new Date(e.at)), date: true },
  { header: 'Tipo', width: 14, value: (e) => AUDIT_KIND_LABELS[e.kind] },
  { header: 'Eseguito da', width: 30, value: (e) => `${e.by.role} ${e.by.userId}` },
  { header: 'Codici fiscali', width: 40, value: (e) => e.taxCodes.join(', ') },
  { header: 'Solo de minimis', width: 14, value: (e) => flag(e.deMinimis) },
  { header: 'Ultimi 3 anni', width: 14, value: (e) => flag(e.last3Years) },
  { header: 'Fonte dati', width: 12, value: (e) => e.dataSource ?? '' },
  { header: 'Risultati', width: 10, value: (e) => e.resultCount ?? '' },
  { header: 'Costo', width: 8, value: (e) => e.cost },
  { header: 'Dettaglio', width: 36, value: (e) => e.detail ?? '' },
  { header: 'Ricerche rimanenti dopo', width: 22, value: (e) => e.remainingSearches },
];

export async function auditHistoryWorkbook(
  subject: string,
  history: ClientAuditHistory,
  generatedAt: Date,
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.created = generatedAt;
  workbook.creator = 'Portale Aiuti di Stato';
  const sheet = workbook.addWorksheet('Registro delle attività', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({
    header: c.header,
    key: String(i),
    width: c.width,
    style: c.date ? { numFmt: SECONDS_FORMAT } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  for (const entry of history.entries) {
    sheet.addRow(Object.fromEntries(columns.map((c, i) => [String(i), c.value(entry)])));
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  const state = workbook.addWorksheet('Stato');
  state.columns = [
    { header: 'Voce', key: 'label', width: 30 },
    { header: 'Valore', key: 'value', width: 30 },
  ];
  state.getRow(1).font = { bold: true };
  const rows = state.addRows([
    { label: 'Soggetto', value: subject },
    { label: 'Stato al', value: history.asOf === null ? 'oggi' : romeDateTimeCell(history.asOf) },
    { label: 'Ricerche rimanenti', value: history.remainingSearches },
    { label: 'Ricerche annue', value: history.availableYearlySearches },
    { label: 'Scadenza', value: history.endDate === null ? '' : romeDateTimeCell(history.endDate) },
    { label: 'Voci nel periodo', value: history.entries.length },
  ]);
  rows[1]!.getCell('value').numFmt = DATE_TIME_FORMAT;
  rows[4]!.getCell('value').numFmt = DATE_FORMAT;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
