/**
 * The bulk search's files read back: the PDF (the client's logo whatever its format, the report's
 * design, the portal's document properties) and the workbook (date cells, one name per figure).
 */
import ExcelJS from 'exceljs';
import { PDFDict, PDFDocument, PDFName, PDFStream, PDFString } from 'pdf-lib';
import sharp from 'sharp';
import type { BulkCompanySummary, HeadroomDto } from '@rna/domain';
import { anAid } from '../documents/testing';
import { buildExcelReport, DATE_FORMAT, DATE_TIME_FORMAT } from '../reports/excel';
import { DEFAULT_BRANDING } from '../reports/report-input';
import { aReportInput, aReportRow } from '../reports/testing';
import { pageTexts } from '../reports/testing/pdf-pages';
import { bulkPdf, startBulkWorkbook, type BulkResult } from './result-files';

const result: BulkResult = {
  jobId: 'job-1',
  sourceName: 'clienti.xlsx',
  dataSource: 'ARCHIVE',
  generatedAt: new Date('2026-03-02T10:00:00Z'),
  summaries: [],
};

/** The images drawn on the PDF's first page. */
async function imagesOnFirstPage(pdf: Buffer): Promise<number> {
  const doc = await PDFDocument.load(pdf);
  const resources = doc.getPage(0).node.Resources();
  const xObjects = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict);
  if (!xObjects) return 0;
  return xObjects
    .keys()
    .filter((key) => xObjects.lookup(key, PDFStream).dict.get(PDFName.of('Subtype')) === PDFName.of('Image'))
    .length;
}

const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

describe('the bulk PDF’s logo', () => {
  it.each([
    [
      'a small JPEG',
      'image/jpeg',
      () =>
        sharp({ create: { width: 40, height: 20, channels: 3, background: '#c00' } })
          .jpeg()
          .toBuffer(),
    ],
    [
      'a small PNG',
      'image/png',
      () =>
        sharp({ create: { width: 40, height: 20, channels: 4, background: '#0c0' } })
          .png()
          .toBuffer(),
    ],
  ])('%s is drawn on the first page', async (_what, type, make) => {
    const logo = await make();
    expect(logo.length).toBeLessThan(4096); // small enough to come from Node's shared buffer pool
    const pdf = await bulkPdf(result, { ...DEFAULT_BRANDING, logoDataUrl: dataUrl(type, logo) });
    expect(await imagesOnFirstPage(pdf)).toBe(1);
  });

  it('goes without a logo it cannot read', async () => {
    const pdf = await bulkPdf(result, {
      ...DEFAULT_BRANDING,
      logoDataUrl: dataUrl('image/jpeg', Buffer.from('no')),
    });
    expect(await imagesOnFirstPage(pdf)).toBe(0);
  });
});

const companies = (count: number): BulkCompanySummary[] =>
  Array.from({ length: count }, (_, i) => ({
    taxCode: `0000000${String(i).padStart(4, '0')}`,
    name: `Impresa ${i} S.r.l.`,
    aids: i % 3,
    totalLast3Years: 1000 * i,
    deMinimisUsed: 500 * i,
    remainingNow: 300_000 - 500 * i,
    remainingIn6Months: 300_000,
    remainingIn12Months: 300_000,
    exceeded: i === 2,
    warnings: [],
  }));

describe('the bulk PDF', () => {
  const branded = { ...DEFAULT_BRANDING, organisation: 'Studio Rossi', footer1: 'Studio Rossi & Associati' };

  it('opens on the summary and the start of the companies’ table, in the report’s design, numbered', async () => {
    const pdf = await bulkPdf({ ...result, summaries: companies(30) }, branded);
    const pages = await pageTexts(pdf);
    expect(pages).toHaveLength(1);
    const first = pages[0]!;
    // the report's sections and footer, then the table on the same page
    for (const text of [
      'Ricerca massiva — riepilogo per impresa',
      'Parametri della ricerca',
      'clienti.xlsx',
      'Totali',
      'Riepilogo per impresa (30)',
      'Impresa 0 S.r.l.',
      'Impresa 29 S.r.l.',
      'Studio Rossi & Associati',
      'Pagina 1 di 1',
    ])
      expect(first).toContain(text);
  });

  it('has the portal’s document properties, like the report', async () => {
    const pdf = await bulkPdf({ ...result, summaries: companies(3) }, branded);
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    expect(doc.getTitle()).toBe('Ricerca massiva — riepilogo per impresa – clienti.xlsx');
    expect(doc.getSubject()).toContain('de minimis');
    expect(doc.getAuthor()).toBe('Studio Rossi');
    expect(doc.getCreator()).toBe('Portale Aiuti di Stato');
    expect(doc.getProducer()).toBe('Portale Aiuti di Stato');
    expect(doc.getCreationDate()).toEqual(result.generatedAt);
    expect(doc.catalog.lookup(PDFName.of('Lang'), PDFString).decodeText()).toBe('it-IT');
    expect(pdf.toString('latin1')).not.toMatch(/pdf-lib|HeadlessChrome|Skia/);
  });
});

describe('the bulk workbook', () => {
  const generatedAt = new Date('2026-03-02T10:00:00Z');
  const group = {
    taxCodes: ['00000000000', '00000000001'],
    windowStart: '2023-03-02',
    limits: [{ used: '1000.00' }, { used: '0.00' }],
    headroom: '299000.00',
    group: { id: 'g', name: 'Gruppo Rossi' },
  } as unknown as HeadroomDto;

  async function workbookOf(): Promise<ExcelJS.Workbook> {
    const book = startBulkWorkbook(generatedAt);
    book.addAids([anAid({ dataConcessione: '2024-05-17' })]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await book.finish(companies(2), [group])) as unknown as ArrayBuffer);
    return workbook;
  }
  const headers = (sheet: ExcelJS.Worksheet | undefined) =>
    ((sheet?.getRow(1).values ?? []) as unknown[]).filter(Boolean);

  it('writes every date as a date cell shown the Italian way, the generation date too', async () => {
    const workbook = await workbookOf();
    const aids = workbook.getWorksheet('Aiuti')!;
    const granted = aids.getRow(2).getCell(headers(aids).indexOf('Data concessione') + 1);
    expect(granted.value).toEqual(new Date(Date.UTC(2024, 4, 17)));
    expect(granted.numFmt).toBe(DATE_FORMAT);

    const groups = workbook.getWorksheet('Imprese uniche')!;
    const since = groups.getRow(2).getCell(headers(groups).indexOf('Aiuti contati dal') + 1);
    expect(since.value).toEqual(new Date(Date.UTC(2023, 2, 2)));
    expect(since.numFmt).toBe(DATE_FORMAT);

    const summary = workbook.getWorksheet('Riepilogo per impresa')!;
    let made: ExcelJS.Cell | undefined;
    summary.eachRow((row) => {
      if (row.getCell(1).value === 'Data generazione') made = row.getCell(2);
    });
    // 11:00 in Rome, as the report's summary writes it
    expect(made?.value).toEqual(new Date(Date.UTC(2026, 2, 2, 11, 0)));
    expect(made?.numFmt).toBe(DATE_TIME_FORMAT);
  });

  it('names each figure one way, in its sheets, its PDF and the report alike', async () => {
    const workbook = await workbookOf();
    const summary = headers(workbook.getWorksheet('Riepilogo per impresa'));
    const report = new ExcelJS.Workbook();
    await report.xlsx.load((await buildExcelReport(aReportInput([aReportRow(1)]))) as unknown as ArrayBuffer);
    const reportCompanies = headers(report.getWorksheet('Riepilogo per impresa'));
    for (const name of [
      'Codice fiscale',
      'Beneficiario',
      'Importo (ultimi 3 anni)',
      'De minimis utilizzato',
      'De minimis residuo',
    ]) {
      expect(summary).toContain(name);
      expect(reportCompanies).toContain(name);
    }
    expect(summary).toContain('Numero aiuti');
    expect(summary).not.toContain('Totale ultimi 3 anni');
    expect(summary).not.toContain('De minimis residuo oggi');
    // the PDF's table, header by header (each header's words, however the column wraps them)
    const pdfText = (await pageTexts(await bulkPdf({ ...result, summaries: companies(2) }, DEFAULT_BRANDING)))
      .join('\n')
      .replace(/\s+/g, ' ');
    for (const name of ['Numero', 'aiuti', 'Importo', '(ultimi 3', 'residuo'])
      expect(pdfText).toContain(name);
    expect(pdfText).not.toContain('Residuo oggi');
    expect(pdfText).not.toContain('Totale ultimi');
  });
});
