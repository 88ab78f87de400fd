/** The audit history's Excel file as an auditor reads it: Italian words, Rome times, real date cells. */
import ExcelJS from 'exceljs';
import type { AuditEntryDto, AuditHistoryDto } from '@rna/domain';
import { auditHistoryWorkbook } from './history-sheet';

const CLIENT = {
  userId: 'fcf44c00-1111-4222-8333-944445555666',
  email: 'mario@studio.it',
  role: 'CLIENT' as const,
};

const entry = (version: number, overrides: Partial<AuditEntryDto> = {}): AuditEntryDto => ({
  version,
  kind: 'SEARCH',
  at: Date.parse('2026-03-02T09:15:00Z') + version * 60_000,
  by: CLIENT,
  taxCodes: ['01234567897'],
  deMinimis: false,
  last3Years: false,
  dataSource: 'ARCHIVE',
  resultCount: 3,
  cost: 1,
  detail: null,
  allowance: null,
  remainingSearches: 10 - version,
  ...overrides,
});

const historyOf = (entries: AuditEntryDto[]): AuditHistoryDto => ({
  clientId: 'c1',
  asOf: null,
  entries,
  totalEntries: entries.length,
  nextFrom: null,
  remainingSearches: 9,
  availableYearlySearches: 50,
  endDate: Date.parse('2027-11-25T11:00:00.000Z'),
});

async function sheetOf(entries: AuditEntryDto[]): Promise<ExcelJS.Workbook> {
  const bytes = await auditHistoryWorkbook('Cliente mario@studio.it', historyOf(entries), new Date());
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

/** The cells of a row by header, as the auditor finds them. */
function rowsOf(
  workbook: ExcelJS.Workbook,
  name = 'Registro delle attività',
): Record<string, ExcelJS.Cell>[] {
  const sheet = workbook.getWorksheet(name);
  if (!sheet) throw new Error(`no sheet ${name}`);
  const headers = (sheet.getRow(1).values as unknown[]).map((v) => String(v ?? ''));
  const rows: Record<string, ExcelJS.Cell>[] = [];
  for (let r = 2; r <= sheet.rowCount; r += 1) {
    const row = sheet.getRow(r);
    rows.push(Object.fromEntries(headers.map((h, c) => [h, row.getCell(c)] as const).filter(([h]) => h)));
  }
  return rows;
}

describe('the audit history as an Excel file', () => {
  it('writes what an allowance set with its end date as an Italian day, never as ISO text', async () => {
    const workbook = await sheetOf([
      entry(0, {
        kind: 'ALLOWANCE',
        taxCodes: [],
        deMinimis: null,
        last3Years: null,
        dataSource: null,
        resultCount: null,
        cost: 0,
        allowance: {
          remainingSearches: 10,
          availableYearlySearches: 50,
          endDate: Date.parse('2027-11-25T11:00:00.000Z'),
        },
      }),
    ]);
    expect(rowsOf(workbook)[0]?.['Dettaglio']?.value).toBe('10/50 ricerche fino al 25/11/2027');
  });

  it('writes each time as a real date cell with Rome’s wall clock, as the screen shows it', async () => {
    const workbook = await sheetOf([
      entry(0, { at: Date.parse('2026-03-02T09:15:00Z') }), // winter: Rome is UTC+1
      entry(1, { at: Date.parse('2026-07-01T22:30:00Z') }), // summer: UTC+2, already the next day
    ]);
    const at = rowsOf(workbook).map((row) => row['Data e ora']);
    // Excel dates have no zone: the cell's clock is what the auditor reads
    expect(at.map((cell) => (cell?.value as Date).toISOString())).toEqual(
      expect.arrayContaining(['2026-03-02T10:15:00.000Z', '2026-07-02T00:30:00.000Z']),
    );
    expect(at.map((cell) => cell?.numFmt)).toEqual(['dd-mm-yyyy hh:mm', 'dd-mm-yyyy hh:mm']);
    const state = workbook.getWorksheet('Stato');
    expect(state?.getCell('A6').value).toBe('Scadenza');
    expect((state?.getCell('B6').value as Date).toISOString()).toBe('2027-11-25T12:00:00.000Z');
    expect(state?.getCell('B6').numFmt).toBe('dd-mm-yyyy');
  });

  it('says who did it by e-mail and an Italian role word, never a role and a UUID', async () => {
    const workbook = await sheetOf([
      entry(0),
      entry(1, { by: { userId: 'a1', email: 'admin@studio.it', role: 'ADMIN' } }),
      entry(2, { by: { userId: 'system', email: 'system', role: 'SYSTEM' } }),
    ]);
    expect(rowsOf(workbook).map((row) => row['Eseguito da']?.value)).toEqual(
      expect.arrayContaining(['mario@studio.it (Cliente)', 'admin@studio.it (Amministratore)', 'Sistema']),
    );
    expect(JSON.stringify(rowsOf(workbook).map((row) => row['Eseguito da']?.value))).not.toMatch(
      /CLIENT|fcf44c00/,
    );
  });

  it('writes kinds, data sources, downloads and refusals in Italian, as the screen does', async () => {
    const workbook = await sheetOf([
      entry(0, { dataSource: 'LIVE' }),
      entry(1, { kind: 'DOWNLOAD', dataSource: null, detail: 'declaration', cost: 0 }),
      entry(2, { kind: 'REFUSAL', dataSource: null, detail: 'U004', cost: 0 }),
    ]);
    const rows = rowsOf(workbook).map((row) => [
      row['Tipo']?.value,
      row['Fonte dati']?.value,
      row['Dettaglio']?.value,
    ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['Ricerca', 'Registro in tempo reale', ''],
        ['Scaricamento', '', 'Dichiarazione de minimis (PDF)'],
        ['Rifiuto', '', 'U004: Ricerche disponibili esaurite'],
      ]),
    );
  });

  it('lists the newest entry first, as the screen does', async () => {
    const workbook = await sheetOf([entry(0), entry(1), entry(2)]);
    expect(rowsOf(workbook).map((row) => row['Ricerche rimanenti dopo']?.value)).toEqual([8, 9, 10]);
  });

  it('keeps a multiple search on one row with its count, not its 47 codes, and one row per code aside', async () => {
    const codes = Array.from({ length: 47 }, (_, i) => String(10_000_000_000 + i));
    const workbook = await sheetOf([entry(0), entry(1, { taxCodes: codes, cost: 47 })]);
    const [many, one] = rowsOf(workbook);
    expect(many?.['N. codici']?.value).toBe(47);
    expect(many?.['Codici fiscali']?.value).toBe(
      '47 codici fiscali: uno per riga nel foglio «Codici fiscali»',
    );
    expect(many?.['Costo']?.value).toBe(47);
    expect(one?.['N. codici']?.value).toBe(1);
    // the costs still add up: one row per entry on the main sheet
    expect(rowsOf(workbook)).toHaveLength(2);
    const perCode = rowsOf(workbook, 'Codici fiscali');
    expect(perCode.map((row) => row['Codice fiscale']?.value)).toEqual([...codes, '01234567897']);
    expect(perCode[0]?.['Eseguito da']?.value).toBe('mario@studio.it (Cliente)');
    expect((perCode[0]?.['Data e ora']?.value as Date).toISOString()).toBe('2026-03-02T10:16:00.000Z');
  });
});
