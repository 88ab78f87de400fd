/** GET /clients/export: every ClientDto column in an Excel sheet, dates as real Excel dates. */
import type ExcelJS from 'exceljs';
import { excelLibrary } from '../http/document-libraries';
import type { ClientDto } from '@rna/domain';
import { DATE_TIME_FORMAT, romeDateTimeCell } from '../reports/excel';

const columns: { header: string; key: keyof ClientDto | 'logoName'; width: number; date?: boolean }[] = [
  { header: 'ID', key: 'id', width: 38 },
  { header: 'Email', key: 'email', width: 32 },
  { header: 'Stato', key: 'status', width: 12 },
  { header: 'Codice fiscale vincolato', key: 'taxCode', width: 20 },
  { header: 'Data invito', key: 'invitedAt', width: 18, date: true },
  { header: 'Attivo', key: 'active', width: 8 },
  { header: 'Data attivazione', key: 'activationTime', width: 18, date: true },
  { header: 'Ultimo accesso', key: 'lastAccessTime', width: 18, date: true },
  { header: 'Scadenza', key: 'endDate', width: 18, date: true },
  { header: 'Ricerche annue', key: 'availableYearlySearches', width: 15 },
  { header: 'Ricerche rimanenti', key: 'remainingSearches', width: 18 },
  { header: 'Avvisi di variazione', key: 'enableVariationAlerts', width: 16 },
  { header: 'PDF abilitato', key: 'pdfEnabled', width: 14 },
  { header: 'Logo', key: 'logoName', width: 20 },
];

function cellValue(client: ClientDto, column: (typeof columns)[number]): ExcelJS.CellValue {
  if (column.key === 'logoName') return client.logo?.name ?? '';
  const value = client[column.key];
  if (column.date) return typeof value === 'number' ? romeDateTimeCell(value) : null;
  if (typeof value === 'boolean') return value ? 'Sì' : 'No';
  if (value === null || typeof value === 'object') return '';
  return value;
}

export async function clientsWorkbook(clients: ClientDto[], generatedAt: Date): Promise<Buffer> {
  const workbook = new (excelLibrary().Workbook)();
  workbook.created = generatedAt;
  workbook.creator = 'Portale Aiuti di Stato';
  const sheet = workbook.addWorksheet('Clienti', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    header: c.header,
    key: c.key,
    width: c.width,
    style: c.date ? { numFmt: DATE_TIME_FORMAT } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  for (const client of clients)
    sheet.addRow(Object.fromEntries(columns.map((c) => [c.key, cellValue(client, c)])));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
