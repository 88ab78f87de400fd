import ExcelJS from 'exceljs';
import { auditHistoryWorkbook } from '../audit/history-sheet';
import { clientsWorkbook } from '../clients/export';
import {
  buildExcelReport,
  DATE_FORMAT,
  DATE_TIME_FORMAT,
  monthCell,
  MONTH_FORMAT,
  romeDateTimeCell,
} from './excel';
import { aReportInput, aReportRow } from './testing';

async function load(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

describe('dates in the workbooks: real dates, shown the Italian way', () => {
  it('writes an instant as Rome’s wall clock, summer or winter', () => {
    expect(romeDateTimeCell(new Date('2025-06-10T08:30:00Z'))).toEqual(
      new Date(Date.UTC(2025, 5, 10, 10, 30)),
    );
    expect(romeDateTimeCell(new Date('2025-12-31T23:30:00Z'))).toEqual(new Date(Date.UTC(2026, 0, 1, 0, 30)));
  });

  it('writes a chart month as the first day of that month', () => {
    expect(monthCell('11/26')).toEqual(new Date(Date.UTC(2026, 10, 1)));
    expect(monthCell('not a month')).toBe('not a month');
  });

  it('in the report: grant days, the generation time and the 36 months', async () => {
    const workbook = await load(await buildExcelReport(aReportInput([aReportRow(1)])));
    const granted = workbook.getWorksheet('Aiuti')!.getRow(2).getCell(1);
    expect(granted.value).toBeInstanceOf(Date);
    expect(granted.numFmt).toBe(DATE_FORMAT);

    const summary = workbook.getWorksheet('Riepilogo')!;
    let generated: ExcelJS.Cell | undefined;
    summary.eachRow((row) => {
      if (row.getCell(1).value === 'Data generazione') generated = row.getCell(2);
    });
    expect(generated?.value).toEqual(new Date(Date.UTC(2025, 5, 10, 10, 30)));
    expect(generated?.numFmt).toBe(DATE_TIME_FORMAT);

    const series = workbook.getWorksheet('De minimis')!;
    const months: unknown[] = [];
    series.eachRow((row, n) => {
      if (n === 1) return;
      months.push(row.getCell(1).value);
      expect(row.getCell(1).numFmt).toBe(MONTH_FORMAT);
    });
    expect(months).toHaveLength(36);
    expect(months.every((month) => month instanceof Date)).toBe(true);
    expect(months[0]).toEqual(new Date(Date.UTC(2025, 0, 1)));
  });

  it('in the clients export and the activity log, in the same format', async () => {
    const client = {
      id: 'c1',
      email: 'cliente@example.it',
      status: 'Attivo',
      taxCode: null,
      invitedAt: Date.parse('2025-06-01T08:30:00Z'),
      active: true,
      activationTime: Date.parse('2025-06-10T08:30:00Z'),
      lastAccessTime: null,
      endDate: Date.parse('2026-06-30T10:00:00Z'),
      availableYearlySearches: 10,
      remainingSearches: 5,
      enableVariationAlerts: false,
      pdfEnabled: true,
      logo: null,
    };
    const clients = (await load(await clientsWorkbook([client as never], new Date()))).getWorksheet(
      'Clienti',
    )!;
    const activation = clients.getRow(2).getCell(7);
    expect(activation.value).toEqual(new Date(Date.UTC(2025, 5, 10, 10, 30)));
    expect(activation.numFmt).toBe(DATE_TIME_FORMAT);

    const history = {
      entries: [],
      asOf: Date.parse('2025-06-10T08:30:00Z'),
      remainingSearches: 0,
      availableYearlySearches: 0,
      endDate: Date.parse('2026-06-30T10:00:00Z'),
    };
    const audit = await load(await auditHistoryWorkbook('Cliente', history as never, new Date()));
    expect(audit.getWorksheet('Registro delle attività')!.getRow(1).getCell(1).numFmt).toMatch(
      /^dd-mm-yyyy hh:mm/,
    );
    const state = audit.getWorksheet('Stato')!;
    expect(state.getRow(3).getCell(2).value).toEqual(new Date(Date.UTC(2025, 5, 10, 10, 30)));
    expect(state.getRow(3).getCell(2).numFmt).toBe(DATE_TIME_FORMAT);
    expect(state.getRow(6).getCell(2).numFmt).toBe(DATE_FORMAT);
  });
});

describe('the summary sheet of several unrelated companies', () => {
  it('gives the used de minimis of the company its remaining figure names, never the companies added up', async () => {
    const input = aReportInput([aReportRow(1)]);
    const [alfa] = input.result.perCode;
    input.result = {
      ...input.result,
      deMinimisOf: { taxCode: alfa!.taxCode, name: 'ALFA SRL' },
      stats: { ...input.result.stats, totalImportDeMinimis: 987_654.32 },
    };
    const summary = (await load(await buildExcelReport(input))).getWorksheet('Riepilogo')!;
    const rows = new Map<unknown, unknown>();
    summary.eachRow((row) => rows.set(row.getCell(1).value, row.getCell(2).value));
    expect(rows.get('De minimis utilizzato di ALFA SRL')).toBe(alfa!.deMinimisUsed);
    expect(rows.has('Totale de minimis')).toBe(false);
    expect([...rows.values()]).not.toContain(987_654.32);
  });
});
