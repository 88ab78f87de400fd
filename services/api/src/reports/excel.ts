/**
 * report.xlsx: a "Aiuti" sheet (the rows, frozen header row), a "Riepilogo" sheet (search
 * parameters, generation date, the four totals) and a "De minimis" sheet (the 36-month series).
 * Amounts are real numbers with a euro format, so that the client can sum and sort them.
 */
import { PassThrough, type Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { excelLibrary } from '../http/document-libraries';
import {
  isoToItalianDay,
  parseIsoDay,
  parseItalianDay,
  romeDateTime,
  type CalendarDay,
  type HeadroomDto,
} from '@rna/domain';
import {
  dataSourceLines,
  DE_MINIMIS_NOTE,
  deMinimisUsedCard,
  remainingLabel,
  searchedCodesLine,
  verificationLine,
  yesNo,
  type ReportInput,
} from './report-input';
import { HEADROOM_NOTE, REGIME_LABELS, regimes, undertakingLabel } from './headroom-report';

export const EURO_FORMAT = '#,##0.00 [$€-410];-#,##0.00 [$€-410]';
/** The one Italian way every workbook of the portal shows a day, a time and a month. */
export const DATE_FORMAT = 'dd-mm-yyyy';
export const DATE_TIME_FORMAT = 'dd-mm-yyyy hh:mm';
/** The month by its Italian name (locale 0x410, it-IT), whatever the language of the reader's Excel. */
export const MONTH_FORMAT = '[$-410]mmmm yyyy';

/**
 * An instant as a date-time cell that shows the time in Rome: an Excel cell has no time zone and
 * shows the date's UTC fields, so the Rome wall clock is written as if it were UTC.
 */
export function romeDateTimeCell(instant: Date | number): Date {
  const t = romeDateTime(instant);
  return new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second));
}

/** A chart month ('MM/YY', SPEC §3) as a date cell on the month's first day; the text if it is none. */
export function monthCell(label: string): Date | string {
  const match = /^(\d{2})\/(\d{2})$/.exec(label);
  return match ? new Date(Date.UTC(2000 + Number(match[2]), Number(match[1]) - 1, 1)) : label;
}

/** An ISO day ('YYYY-MM-DD') as a date cell. */
const isoDayCell = (iso: string): Date | string => dayCell(parseIsoDay(iso), iso);

/**
 * A grant day ('dd-mm-yyyy') as a date cell, so that the sheet sorts and filters it as a date. A
 * calendar day has no time zone: it is written as that day at 00:00 UTC, which Excel shows as the day.
 */
function grantDayCell(text: string): Date | string {
  return dayCell(parseItalianDay(text), text);
}

/** A calendar day as a date cell (that day at 00:00 UTC); the text as it was when it is no day. */
export function dayCell(day: CalendarDay | null, text: string): Date | string {
  return day ? new Date(Date.UTC(day.year, day.month - 1, day.day)) : text;
}

const ROW_COLUMNS = [
  { header: 'Data concessione', key: 'dataConcessione', width: 16 },
  { header: 'Codice fiscale', key: 'codiceFiscaleBeneficiario', width: 18 },
  { header: 'Beneficiario', key: 'denominazioneBeneficiario', width: 36 },
  { header: 'COR', key: 'cor', width: 14 },
  { header: 'CAR', key: 'car', width: 12 },
  { header: 'ID componente aiuto', key: 'idComponenteAiuto', width: 20 },
  { header: 'Soggetto concedente', key: 'soggettoConcedente', width: 36 },
  { header: 'Titolo misura', key: 'titoloMisura', width: 40 },
  { header: 'Titolo progetto', key: 'titoloProgetto', width: 40 },
  { header: 'Procedimento', key: 'desProcedimento', width: 22 },
  { header: 'Codice regolamento', key: 'codRegolamento', width: 16 },
  { header: 'Regolamento', key: 'desRegolamento', width: 30 },
  { header: 'CUP', key: 'cup', width: 18 },
  { header: 'Obiettivo', key: 'desObiettivo', width: 30 },
  { header: 'Settore di attività', key: 'settoreAttivita', width: 16 },
  { header: 'Regione', key: 'regioneBeneficiario', width: 16 },
  { header: 'Importo nominale', key: 'importoNominale', width: 18 },
  { header: 'Elemento di aiuto', key: 'elementoDiAiuto', width: 18 },
  { header: 'File del registro', key: 'sourceFile', width: 14 },
] as const;

type RowColumn = (typeof ROW_COLUMNS)[number];

/** The amounts and the grant day carry their format on the column, so streamed rows get it too. */
const ROW_FORMATS: Partial<Record<RowColumn['key'], string>> = {
  dataConcessione: DATE_FORMAT,
  importoNominale: EURO_FORMAT,
  elementoDiAiuto: EURO_FORMAT,
};

/**
 * A worksheet or row of exceljs' streaming writer is written out by commit(); an in-memory one has
 * none (and the types do not say which is which).
 */
export function commitStreamed(part: ExcelJS.Worksheet | ExcelJS.Row): void {
  (part as { commit?: () => void }).commit?.();
}

/**
 * Adds the three sheets to a workbook: exceljs' streaming writer (each row leaves memory as it is
 * added) or its in-memory Workbook (the benchmark's baseline, how the report used to be built).
 */
export function addReportSheets(workbook: ExcelJS.Workbook, input: ReportInput): void {
  const { result } = input;
  workbook.creator = 'Portale Aiuti di Stato';
  workbook.created = input.generatedAt;

  // Views are written when a streamed sheet opens: they go with its creation.
  const frozen = { views: [{ state: 'frozen' as const, ySplit: 1 }] };
  const rows = workbook.addWorksheet('Aiuti', frozen);
  rows.columns = ROW_COLUMNS.map((column) => {
    const numFmt = ROW_FORMATS[column.key];
    return numFmt ? { ...column, style: { numFmt } } : { ...column };
  });
  rows.getRow(1).font = { bold: true };
  rows.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: ROW_COLUMNS.length } };
  rows.getRow(1).commit();
  for (const row of result.rows) {
    rows
      .addRow([
        grantDayCell(row.dataConcessione),
        row.codiceFiscaleBeneficiario,
        row.denominazioneBeneficiario,
        row.cor ?? '',
        row.car ?? '',
        row.idComponenteAiuto,
        row.soggettoConcedente,
        row.titoloMisura,
        row.titoloProgetto ?? '',
        row.desProcedimento,
        row.codRegolamento ?? '',
        row.desRegolamento,
        row.cup,
        row.desObiettivo ?? '',
        row.settoreAttivita ?? '',
        row.regioneBeneficiario ?? '',
        Number(row.importoNominale),
        Number(row.elementoDiAiuto),
        row.sourceFile ?? '',
      ])
      .commit();
  }
  commitStreamed(rows);

  const summary = workbook.addWorksheet('Riepilogo', frozen);
  summary.columns = [
    { header: 'Voce', key: 'label', width: 36 },
    { header: 'Valore', key: 'value', width: 48 },
  ];
  summary.getRow(1).font = { bold: true };
  const parameters: [string, string | number | Date][] = [
    ...searchedCodesLine(result),
    ['Solo de minimis', yesNo(result.deMinimis)],
    ['Ultimi 3 anni', yesNo(result.last3Years)],
    ...dataSourceLines(result, input.archive),
    ['Data generazione', romeDateTimeCell(input.generatedAt)],
    ...(input.verification ? [['Verifica', verificationLine(input.verification)] as [string, string]] : []),
    ['Numero documenti', result.stats.totalDocuments],
  ];
  for (const [label, value] of parameters) {
    const row = summary.addRow({ label, value });
    if (value instanceof Date) row.getCell('value').numFmt = DATE_TIME_FORMAT;
  }
  const totals: [string, number][] = [
    ['Importo totale', result.stats.totalImport],
    deMinimisUsedCard(result),
    [remainingLabel(result), result.stats.remainingDeMinimis],
  ];
  for (const [label, value] of totals) summary.addRow({ label, value }).getCell('value').numFmt = EURO_FORMAT;
  summary.addRow({});
  summary.addRow({ label: 'Nota', value: DE_MINIMIS_NOTE });
  commitStreamed(summary);

  // each searched company's own figures: one company's allowance is never read off the combined totals
  const companies = workbook.addWorksheet('Riepilogo per impresa', frozen);
  companies.columns = [
    { header: 'Codice fiscale', key: 'taxCode', width: 18 },
    { header: 'Beneficiario', key: 'name', width: 40 },
    { header: 'Aiuti (ultimi 3 anni)', key: 'totalDocuments', width: 20 },
    { header: 'Importo (ultimi 3 anni)', key: 'totalImport', width: 22, style: { numFmt: EURO_FORMAT } },
    { header: 'De minimis utilizzato', key: 'deMinimisUsed', width: 22, style: { numFmt: EURO_FORMAT } },
    { header: 'De minimis residuo', key: 'remainingDeMinimis', width: 20, style: { numFmt: EURO_FORMAT } },
    { header: 'Massimale superato', key: 'exceeded', width: 18 },
  ];
  companies.getRow(1).font = { bold: true };
  for (const company of result.perCode) {
    companies.addRow({ ...company, exceeded: yesNo(company.remainingDeMinimis < 0) });
  }
  commitStreamed(companies);

  const series = workbook.addWorksheet('De minimis', frozen);
  series.columns = [
    { header: 'Mese', key: 'month', width: 16, style: { numFmt: MONTH_FORMAT } },
    { header: 'Utilizzato', key: 'total', width: 18, style: { numFmt: EURO_FORMAT } },
    { header: 'Residuo', key: 'remaining', width: 18, style: { numFmt: EURO_FORMAT } },
  ];
  series.getRow(1).font = { bold: true };
  for (const point of result.deMinimisSeries) series.addRow({ ...point, month: monthCell(point.month) });
  commitStreamed(series);

  addHeadroomSheet(workbook, input.headrooms ?? []);
}

/** Streams report.xlsx to `out` as it is built (50,000 rows never sit in memory as cells); ends `out`. */
export async function writeExcelReport(input: ReportInput, out: Writable): Promise<void> {
  const workbook = new (excelLibrary().stream.xlsx.WorkbookWriter)({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  addReportSheets(workbook, input);
  await workbook.commit();
}

/** report.xlsx as one buffer (tests, tools). */
export async function buildExcelReport(input: ReportInput): Promise<Buffer> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  await writeExcelReport(input, sink);
  return Buffer.concat(chunks);
}

/** The sheet "Residuo alla data": one block per undertaking. */
export function addHeadroomSheet(workbook: ExcelJS.Workbook, headrooms: readonly HeadroomDto[]): void {
  if (headrooms.length === 0) return;
  const sheet = workbook.addWorksheet('Residuo alla data');
  sheet.columns = [
    { key: 'a', width: 44 },
    { key: 'b', width: 20 },
    { key: 'c', width: 20 },
    { key: 'd', width: 20 },
  ];
  const money = (row: ExcelJS.Row, ...cells: number[]) =>
    cells.forEach((cell) => (row.getCell(cell).numFmt = EURO_FORMAT));
  const day = (row: ExcelJS.Row) => (row.getCell(2).numFmt = DATE_FORMAT);
  for (const headroom of headrooms) {
    sheet.addRow([undertakingLabel(headroom)]).font = { bold: true };
    day(sheet.addRow(['Data prevista di concessione', isoDayCell(headroom.date)]));
    sheet.addRow(['Regime', REGIME_LABELS[headroom.regime]]);
    day(sheet.addRow(['Aiuti contati dal', isoDayCell(headroom.windowStart)]));
    money(sheet.addRow(['Residuo concedibile', Number(headroom.headroom)]), 2);
    sheet.addRow(['Limite', 'Massimale', 'Utilizzato', 'Residuo']).font = { bold: true };
    for (const limit of headroom.limits)
      money(
        sheet.addRow([
          regimes(limit.regimes),
          Number(limit.ceiling),
          Number(limit.used),
          Number(limit.remaining),
        ]),
        2,
        3,
        4,
      );
    if (headroom.perCompany.length > 1) {
      sheet.addRow([
        'Quota per impresa',
        ...(['GENERAL', 'AGRICULTURE', 'SIEG'] as const).map((r) => REGIME_LABELS[r]),
      ]).font = {
        bold: true,
      };
      for (const company of headroom.perCompany)
        money(
          sheet.addRow([
            `${company.name ?? 'Nessun aiuto trovato'} (${company.taxCode})`,
            Number(company.usedByRegime.GENERAL),
            Number(company.usedByRegime.AGRICULTURE),
            Number(company.usedByRegime.SIEG),
          ]),
          2,
          3,
          4,
        );
    }
    for (const release of headroom.releases)
      money(sheet.addRow([`Si liberano il ${isoToItalianDay(release.date)}`, Number(release.amount)]), 2);
    sheet.addRow([]);
  }
  sheet.addRow([HEADROOM_NOTE]);
  commitStreamed(sheet);
}
