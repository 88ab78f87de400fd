/**
 * An uploaded list of tax codes as rows of cell texts. What the file is comes from its bytes, never
 * from its name or declared type: an .xlsx is a zip that exceljs reads (only the first worksheet,
 * with the streaming reader, so that a large sheet never sits whole in memory); a password-protected
 * workbook is an OLE compound file holding an "EncryptedPackage" stream (B002), as is a damaged zip;
 * a legacy .xls, a PDF, an image or other binary is no list (B001); anything else is CSV text (UTF-8
 * with or without BOM, UTF-16 with BOM, else Windows-1252), its delimiter ; , or tab found from its
 * first lines. A workbook is inflated and counted before exceljs reads it: a 300 KB zip can hold
 * 300 MB of sheet XML (measured: 3.4 s and 730 MB of RSS to read it), and 5 MB would take the
 * process down (B009 past MAX_XLSX_INFLATED_BYTES).
 */
import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { excelLibrary } from '../http/document-libraries';
import { parse as parseCsv } from 'csv-parse/sync';
import unzipper from 'unzipper';
import yazl from 'yazl';
import { BULK_MAX_CODES, DomainError, readCodeCells, readPastedCodes, type BulkCodeList } from '@rna/domain';

/** Rows past this many are not read: a list of 5,000 codes with blank rows and notes stays far below. */
export const MAX_SHEET_ROWS = BULK_MAX_CODES * 4;
/** Cells per row kept (the columns a user may choose among). */
export const MAX_SHEET_COLUMNS = 50;

/** The most a workbook may inflate to: a list of 5,000 codes with a few columns of notes is a few MB. */
export const MAX_XLSX_INFLATED_BYTES = 64 * 1024 * 1024;

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const startsWith = (bytes: Buffer, magic: readonly number[]) =>
  bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);

export type SheetKind = 'xlsx' | 'encrypted' | 'csv';

/** B001 for what is no spreadsheet at all. */
export function sniffListFile(bytes: Buffer): SheetKind {
  if (startsWith(bytes, ZIP)) return 'xlsx';
  if (startsWith(bytes, OLE)) {
    // the directory of an encrypted OOXML file names its streams in UTF-16LE
    if (bytes.includes(Buffer.from('EncryptedPackage', 'utf16le'))) return 'encrypted';
    throw new DomainError('B001'); // a legacy .xls, .doc…
  }
  if (isUtf16(bytes)) return 'csv';
  // PDF, images, executables, archives…: text files hold no NUL byte
  if (bytes.subarray(0, 8192).includes(0)) throw new DomainError('B001');
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') throw new DomainError('B001');
  return 'csv';
}

const isUtf16 = (bytes: Buffer) =>
  bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));

/** The rows of the list file, as cell texts (B001, B002 as the module says). */
export async function readListFile(bytes: Buffer): Promise<string[][]> {
  const kind = sniffListFile(bytes);
  if (kind === 'encrypted') throw new DomainError('B002');
  if (kind === 'xlsx')
    return readFirstWorksheet(await workbookInReadingOrder(bytes, MAX_XLSX_INFLATED_BYTES));
  return readCsv(decodeText(bytes));
}

// ---- xlsx ----

/** What a cell holds, as text: integers without exponent or decimals (a partita IVA typed as a number). */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('text' in value && typeof value.text === 'string') return value.text; // hyperlink
  if ('result' in value) return cellText((value.result ?? null) as ExcelJS.CellValue); // formula
  if ('error' in value) return '';
  return '';
}

/** A list workbook has a dozen entries; thousands are no spreadsheet but work for the reader. */
export const MAX_XLSX_ENTRIES = 1_000;

/** The parts of a workbook the reader needs, in the order its streaming reader needs them. */
const WORKBOOK_PARTS = ['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/sharedStrings.xml'];
const WORKSHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/**
 * The workbook's parts exceljs reads (its relationships, the workbook, the shared strings and the
 * first worksheet), inflated and counted, then written again as a zip in the order exceljs' streaming
 * reader needs: a valid workbook whose shared strings come after its sheet lost every text cell
 * (read as `{ sharedString: n }`), one whose workbook part comes last could not be read at all.
 * B002 when the zip cannot be read (damaged, its entries encrypted) or holds more than
 * MAX_XLSX_ENTRIES entries; B009 when the parts inflate past `budget` bytes in all, counted as they
 * inflate (the sizes a zip declares are the sender's word; they are checked first only to refuse early).
 */
async function workbookInReadingOrder(bytes: Buffer, budget: number): Promise<Readable> {
  let files: unzipper.File[];
  try {
    files = (await unzipper.Open.buffer(bytes)).files.filter((file) => file.type === 'File');
  } catch {
    throw new DomainError('B002');
  }
  if (files.length > MAX_XLSX_ENTRIES) throw new DomainError('B002');
  const firstSheet = files
    .map((file) => ({ file, number: Number(WORKSHEET.exec(file.path)?.[1] ?? NaN) }))
    .filter(({ number }) => Number.isFinite(number))
    .sort((a, b) => a.number - b.number)[0]?.file;
  const parts = [
    ...WORKBOOK_PARTS.map((name) => files.find((file) => file.path === name)),
    firstSheet,
  ].filter((file): file is unzipper.File => file !== undefined);
  if (parts.reduce((sum, file) => sum + file.uncompressedSize, 0) > budget) throw new DomainError('B009');
  const zip = new yazl.ZipFile();
  let inflated = 0;
  for (const file of parts) {
    const stream = file.stream();
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        inflated += chunk.length;
        if (inflated > budget) throw new DomainError('B009');
        chunks.push(chunk);
      }
    } catch (error) {
      throw error instanceof DomainError ? error : new DomainError('B002');
    } finally {
      stream.destroy();
    }
    // stored, not deflated again: the reader inflates nothing, and nothing is spent compressing
    zip.addBuffer(Buffer.concat(chunks), file.path, { compress: false });
  }
  zip.end();
  return zip.outputStream as Readable;
}

async function readFirstWorksheet(workbook: Readable): Promise<string[][]> {
  const rows: string[][] = [];
  let sawSheet = false;
  try {
    const reader = new (excelLibrary().stream.xlsx.WorkbookReader)(workbook, {
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    });
    for await (const worksheet of reader) {
      sawSheet = true;
      for await (const row of worksheet) {
        if (rows.length >= MAX_SHEET_ROWS) break;
        const values = (row as ExcelJS.Row).values as ExcelJS.CellValue[];
        // row.values is 1-based: [empty, A, B, …]
        const cells = values.slice(1, MAX_SHEET_COLUMNS + 1).map((value) => cellText(value).trim());
        rows.push(Array.from(cells, (cell) => cell ?? ''));
      }
      break; // the first worksheet only
    }
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('B002'); // a zip or a workbook that cannot be read to the end
  }
  // a zip that is no workbook (a .docx, a .zip of anything)
  if (!sawSheet) throw new DomainError('B001');
  return rows;
}

// ---- CSV ----

/** UTF-16 with its BOM, UTF-8 (BOM dropped) when it decodes cleanly, else Windows-1252 (Excel's "CSV"). */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** The delimiter found most often, outside quotes, in the first lines; none → one column. */
export function detectDelimiter(text: string): string {
  const sample = text
    .slice(0, 16_384)
    .split(/\r\n|\r|\n/)
    .slice(0, 20)
    .join('\n');
  const counts = new Map<string, number>([
    [';', 0],
    [',', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const char of sample) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ';';
  let most = 0;
  for (const [delimiter, count] of counts) {
    if (count > most) {
      best = delimiter;
      most = count;
    }
  }
  return best;
}

/** Characters of a CSV line read: 50 columns of notes fit; a line of millions of fields is cut. */
export const MAX_CSV_LINE_CHARS = 20_000;

/**
 * Each line cut to MAX_CSV_LINE_CHARS (a quote left open by the cut is closed), and only the first
 * MAX_SHEET_ROWS lines: the CSV parser then never builds a record of millions of fields.
 */
export function boundedCsvText(text: string): string {
  const lines = text.split(/\r\n|\r|\n/, MAX_SHEET_ROWS * 2);
  return lines
    .map((line) => {
      if (line.length <= MAX_CSV_LINE_CHARS) return line;
      const cut = line.slice(0, MAX_CSV_LINE_CHARS);
      return (cut.split('"').length - 1) % 2 === 1 ? `${cut}"` : cut;
    })
    .join('\n');
}

/** Rows of cell texts of a CSV text (B001 when it cannot be read as CSV). */
export function readCsv(text: string): string[][] {
  const bounded = boundedCsvText(text);
  try {
    const records = parseCsv(bounded, {
      delimiter: detectDelimiter(bounded),
      bom: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      to: MAX_SHEET_ROWS,
    }) as string[][];
    return records.map((record) => record.slice(0, MAX_SHEET_COLUMNS));
  } catch {
    throw new DomainError('B001');
  }
}

// ---- a list, whichever way it came ----

/** What a preview reads: a file's bytes, or pasted text (a table when a column is chosen). */
export interface CodeListInput {
  bytes?: Uint8Array;
  text?: string;
  /** the column chosen by its header, or null for the likely one */
  column: string | null;
}

/** The list of a preview: a file's cells, a pasted table with a chosen column, or a pasted list. */
export async function readCodeList(input: CodeListInput): Promise<BulkCodeList> {
  if (input.bytes) {
    const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
    return readCodeCells(await readListFile(bytes), input.column);
  }
  const text = input.text ?? '';
  if (input.column === null) return readPastedCodes(text);
  // a table pasted from a spreadsheet (tab-separated) and a column chosen by its header
  return readCodeCells(readCsv(text), input.column);
}
