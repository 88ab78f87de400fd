/**
 * Lists read from real files: workbooks as other tools write them (their parts in another order),
 * and files built to make the reader work for nothing (thousands of zip entries, a CSV line of
 * millions of fields), which must be refused or cut before they are parsed.
 */
import ExcelJS from 'exceljs';
import unzipper from 'unzipper';
import yazl from 'yazl';
import { MAX_CSV_LINE_CHARS, MAX_XLSX_ENTRIES, readCodeList, readListFile } from './file-reading';

const CODES = ['01234567897', 'RSSMRA85T10A562S', '98765432109'];

async function workbookOf(rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Clienti');
  rows.forEach((row) => sheet.addRow(row));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The same workbook with its entries written again in `order` (names listed first, the rest after). */
async function reordered(xlsx: Buffer, first: string[], last: string[] = []): Promise<Buffer> {
  const entries = (await unzipper.Open.buffer(xlsx)).files.filter((file) => file.type === 'File');
  const byName = new Map(await Promise.all(entries.map(async (e) => [e.path, await e.buffer()] as const)));
  const middle = [...byName.keys()].filter((name) => !first.includes(name) && !last.includes(name));
  const zip = new yazl.ZipFile();
  for (const name of [...first, ...middle, ...last]) zip.addBuffer(byName.get(name)!, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const SHEET = 'xl/worksheets/sheet1.xml';
const STRINGS = 'xl/sharedStrings.xml';
const WORKBOOK = 'xl/workbook.xml';
const RELS = 'xl/_rels/workbook.xml.rels';

describe('reading a workbook whatever the order of its parts', () => {
  const rows = [['Ragione sociale', 'Codice fiscale'], ...CODES.map((code, i) => [`Società ${i}`, code])];

  it.each([
    ['shared strings after the sheet', [RELS, WORKBOOK, SHEET], [STRINGS]],
    ['the workbook part after the sheet', [RELS, STRINGS, SHEET], [WORKBOOK]],
    ['the sheet first, everything after it', [SHEET], [STRINGS, WORKBOOK, RELS]],
    ['relationships last', [STRINGS, WORKBOOK, SHEET], [RELS]],
  ])('%s: every text cell is read', async (_what, first, last) => {
    const xlsx = await reordered(await workbookOf(rows), first, last);
    expect(await readListFile(xlsx)).toEqual(rows);
    const list = await readCodeList({ bytes: xlsx, column: null });
    expect(list.taxCodes).toEqual(CODES);
  });
});

describe('inputs built to make the reader work', () => {
  it('refuses a zip of thousands of entries (B002) without reading them', async () => {
    const zip = new yazl.ZipFile();
    for (let i = 0; i <= MAX_XLSX_ENTRIES; i++) zip.addBuffer(Buffer.alloc(0), `e${i}.xml`);
    zip.addBuffer(Buffer.from('<workbook/>'), WORKBOOK);
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
    await expect(readListFile(Buffer.concat(chunks))).rejects.toMatchObject({ code: 'B002' });
  });

  it('reads a CSV whose line holds millions of fields up to its first columns', async () => {
    const huge = `${CODES[0]};${'x;'.repeat(2_500_000)}\n${CODES[1]};nota\n`;
    const rows = await readListFile(Buffer.from(huge));
    expect(rows[0]![0]).toBe(CODES[0]);
    expect(rows[0]!.join(';').length).toBeLessThanOrEqual(MAX_CSV_LINE_CHARS);
    expect(rows[1]).toEqual([CODES[1], 'nota']);
  });

  it('closes a quote a cut line left open, so the next lines are still read', async () => {
    const open = `${CODES[0]};"${'a'.repeat(MAX_CSV_LINE_CHARS * 2)}"\n${CODES[2]};ok\n`;
    const list = await readCodeList({ bytes: Buffer.from(open), column: null });
    expect(list.taxCodes).toEqual([CODES[0], CODES[2]]);
  });
});
