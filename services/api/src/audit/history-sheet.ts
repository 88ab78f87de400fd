/** A client's or administrator's audit history as an Excel sheet, for auditors who work offline. */
import type ExcelJS from 'exceljs';
import { excelLibrary } from '../http/document-libraries';
import { ERROR_CATALOGUE, isErrorCode, romeDateTime, type DataSource, type ReportKind } from '@rna/domain';
import { DATE_FORMAT, DATE_TIME_FORMAT, romeDateTimeCell } from '../reports/excel';
import type { AuditEntry, AuditEntryKind, ClientAuditHistory } from './history';

export const AUDIT_KIND_LABELS: Record<AuditEntryKind, string> = {
  ALLOWANCE: 'Abbonamento',
  SEARCH: 'Ricerca',
  DOWNLOAD: 'Scaricamento',
  REFUSAL: 'Rifiuto',
  REFUND: 'Rimborso',
};

/** The words of the screen's catalogue (audit.sources, audit.downloads in it.json), for offline readers. */
const SOURCE_LABELS: Record<DataSource, string> = { ARCHIVE: 'Archivio', LIVE: 'Registro in tempo reale' };
const DOWNLOAD_LABELS: Record<ReportKind, string> = {
  sheet: 'Excel',
  pdf: 'PDF',
  declaration: 'Dichiarazione de minimis (PDF)',
};

const ROLE_LABELS: Record<AuditEntry['by']['role'], string> = {
  ADMIN: 'Amministratore',
  CLIENT: 'Cliente',
  SYSTEM: 'Sistema',
};

/** Who did it as an auditor knows them: 'mario@studio.it (Cliente)', never a role and a UUID. */
function actorOf({ email, role }: AuditEntry['by']): string {
  return role === 'SYSTEM' || !email ? ROLE_LABELS[role] : `${email} (${ROLE_LABELS[role]})`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A day as the sheet's date cells show it: dd-mm-yyyy, in Rome. */
function italianDay(ms: number): string {
  const t = romeDateTime(ms);
  return `${pad2(t.day)}/${pad2(t.month)}/${t.year}`;
}

function detailOf(entry: AuditEntry): string {
  if (entry.allowance) {
    const { remainingSearches, availableYearlySearches, endDate } = entry.allowance;
    return `${remainingSearches}/${availableYearlySearches} ricerche fino al ${italianDay(endDate)}`;
  }
  const detail = entry.detail ?? '';
  if (entry.kind === 'DOWNLOAD') return DOWNLOAD_LABELS[detail as ReportKind] ?? detail;
  // the refusal's code with the catalogue's words, as the screen shows it
  if (entry.kind === 'REFUSAL' && isErrorCode(detail)) return `${detail}: ${ERROR_CATALOGUE[detail].message}`;
  return detail;
}

/** Up to this many codes are read at a glance in their cell, as on the screen. */
const INLINE_CODES = 3;

/**
 * A few codes in line; more (a multiple search of 30 or 50) would fill one cell with a block of
 * digits nobody reads: their count, and where each is on a row of its own.
 */
function codesOf(codes: readonly string[]): string {
  if (codes.length <= INLINE_CODES) return codes.join(', ');
  return `${codes.length} codici fiscali: uno per riga nel foglio «Codici fiscali»`;
}

const flag = (value: boolean | null): string => (value === null ? '' : value ? 'Sì' : 'No');

const columns: {
  header: string;
  width: number;
  value: (entry: AuditEntry) => ExcelJS.CellValue;
  date?: true;
  wrap?: true;
}[] = [
  { header: 'Data e ora', width: 20, value: (e) => romeDateTimeCell(e.at), date: true },
  { header: 'Tipo', width: 14, value: (e) => AUDIT_KIND_LABELS[e.kind] },
  { header: 'Eseguito da', width: 30, value: (e) => actorOf(e.by) },
  // one row per entry, so that the costs and counts add up; a multiple search's codes are counted
  // here, as on the screen, and listed one per row on the 'Codici fiscali' sheet
  { header: 'N. codici', width: 10, value: (e) => e.taxCodes.length || '' },
  { header: 'Codici fiscali', width: 56, value: (e) => codesOf(e.taxCodes), wrap: true },
  { header: 'Solo de minimis', width: 14, value: (e) => flag(e.deMinimis) },
  { header: 'Ultimi 3 anni', width: 14, value: (e) => flag(e.last3Years) },
  { header: 'Fonte dati', width: 24, value: (e) => (e.dataSource ? SOURCE_LABELS[e.dataSource] : '') },
  { header: 'Risultati', width: 10, value: (e) => e.resultCount ?? '' },
  { header: 'Costo', width: 8, value: (e) => e.cost },
  { header: 'Dettaglio', width: 36, value: detailOf },
  { header: 'Ricerche rimanenti dopo', width: 22, value: (e) => e.remainingSearches },
];

/**
 * One row per tax code of every entry, to filter on a company ('when was it looked up, by whom?'):
 * the main sheet keeps one row per entry so that its costs add up.
 */
function codesSheet(workbook: ExcelJS.Workbook, entries: readonly AuditEntry[]): void {
  const sheet = workbook.addWorksheet('Codici fiscali', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { header: 'Data e ora', key: 'at', width: 20, style: { numFmt: DATE_TIME_FORMAT } },
    { header: 'Tipo', key: 'kind', width: 14 },
    { header: 'Eseguito da', key: 'by', width: 30 },
    { header: 'Codice fiscale', key: 'code', width: 20 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const entry of entries) {
    const common = {
      at: romeDateTimeCell(entry.at),
      kind: AUDIT_KIND_LABELS[entry.kind],
      by: actorOf(entry.by),
    };
    for (const code of entry.taxCodes) sheet.addRow({ ...common, code });
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: 4 } };
}

export async function auditHistoryWorkbook(
  subject: string,
  history: ClientAuditHistory,
  generatedAt: Date,
): Promise<Buffer> {
  const workbook = new (excelLibrary().Workbook)();
  workbook.created = generatedAt;
  workbook.creator = 'Portale Aiuti di Stato';
  const sheet = workbook.addWorksheet('Registro delle attività', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c, i) => ({
    header: c.header,
    key: String(i),
    width: c.width,
    style: {
      ...(c.date ? { numFmt: DATE_TIME_FORMAT } : {}),
      alignment: c.wrap ? { vertical: 'top', wrapText: true } : { vertical: 'top' },
    },
  }));
  sheet.getRow(1).font = { bold: true };
  // newest first, as the screen lists them
  const newestFirst = [...history.entries].sort((a, b) => b.at - a.at || b.version - a.version);
  for (const entry of newestFirst) {
    sheet.addRow(Object.fromEntries(columns.map((c, i) => [String(i), c.value(entry)])));
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  codesSheet(workbook, newestFirst);
  const state = workbook.addWorksheet('Stato');
  state.columns = [
    { header: 'Voce', key: 'label', width: 30 },
    { header: 'Valore', key: 'value', width: 30 },
  ];
  state.getRow(1).font = { bold: true };
  state.addRows([
    { label: 'Soggetto', value: subject },
    { label: 'Stato al', value: history.asOf === null ? 'oggi' : romeDateTimeCell(history.asOf) },
    { label: 'Ricerche rimanenti', value: history.remainingSearches },
    { label: 'Ricerche annue', value: history.availableYearlySearches },
    { label: 'Scadenza', value: history.endDate === null ? '' : romeDateTimeCell(history.endDate) },
    { label: 'Voci nel periodo', value: history.entries.length },
  ]);
  if (history.asOf !== null) state.getCell('B3').numFmt = DATE_TIME_FORMAT;
  if (history.endDate !== null) state.getCell('B6').numFmt = DATE_FORMAT;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
