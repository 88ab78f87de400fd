import { PdfRenderError, type PdfRenderer } from '@rna/infra/pdf';
import { PDFDocument } from 'pdf-lib';
import { footerOperators, preparePdfReport } from './pdf-report';
import { pdfSummaryHtml } from './pdf-template';
import { PdfTextFont } from './pdf-text';
import { aReportInput, aReportRow } from './testing';

const rendering = (render: PdfRenderer['render']): PdfRenderer => ({ render, close: async () => {} });

describe('preparePdfReport', () => {
  it('fails before the first byte when Chromium fails, with the renderer’s own error', async () => {
    const failure = new PdfRenderError('PDF rendering timed out');
    const report = preparePdfReport(
      aReportInput([aReportRow(1)]),
      rendering(() => Promise.reject(failure)),
    );
    await expect(report).rejects.toBe(failure);
  });

  it('fails with a PdfRenderError when what Chromium gave is not a PDF', async () => {
    const report = preparePdfReport(
      aReportInput([aReportRow(1)]),
      rendering(() => Promise.resolve(Buffer.from('<html>not a pdf</html>'))),
    );
    await expect(report).rejects.toBeInstanceOf(PdfRenderError);
  });
});

describe('footerOperators', () => {
  const font = new PdfTextFont('Helvetica');
  const branding = aReportInput([]).branding;

  it('numbers the page out of the total and writes both client footer lines', () => {
    const footer = footerOperators(font, branding, 7, 120);
    expect(footer).toContain('(Pagina 7 di 120)');
    expect(footer).toContain('(Studio Rossi & Associati)');
    expect(footer).toContain('(Via Roma 1, Milano)');
  });

  it('leaves out empty footer lines and escapes what would close a PDF string', () => {
    const footer = footerOperators(font, { ...branding, footer1: ' ', footer2: 'Rossi (Milano)' }, 1, 1);
    expect(footer.match(/ Tj/g)).toHaveLength(2);
    expect(footer).toContain('(Rossi \\(Milano\\))');
  });

  it('carries the report’s verification code under the page number, so that any page on its own can be checked', () => {
    const { verification } = aReportInput([]);
    const footer = footerOperators(font, branding, 3, 9, verification);
    expect(footer).toContain(
      '(Codice di verifica ABCD-2345-WXYZ-G \\267 https://portale.example/verifica/ABCD2345WXYZG)',
    );
    expect(footerOperators(font, branding, 3, 9)).not.toContain('Codice di verifica');
  });
});

describe('the summary of a verifiable report', () => {
  it('states the archive it was made from and where to verify it', () => {
    const html = pdfSummaryHtml(aReportInput([]));
    expect(html).toContain('3 file del registro, dal 2025_03 al 2025_05');
    expect(html).toContain('Codice di verifica ABCD-2345-WXYZ-G');
    expect(html).toContain('https://portale.example/verifica/ABCD2345WXYZG');
  });

  it('says nothing of the archive when every code was answered live, and names what the live answer lacks', () => {
    const input = aReportInput([]);
    input.result = {
      ...input.result,
      sources: input.result.sources.map((source) => ({
        ...source,
        source: 'LIVE' as const,
        asOf: 1,
        missingFields: ['soggettoConcedente' as const, 'cup' as const],
      })),
    };
    const html = pdfSummaryHtml(input);
    expect(html).not.toContain('file del registro');
    expect(html).toContain('la risposta non riporta: soggetto concedente, CUP');
  });
});

describe('the summary of several unrelated companies', () => {
  it('names the company whose remaining allowance and chart it shows, never a sum of them', () => {
    const input = aReportInput([]);
    input.result = { ...input.result, deMinimisOf: { taxCode: '01234567897', name: 'ALFA SRL' } };
    const html = pdfSummaryHtml(input);
    expect(html).toContain('De minimis residuo di ALFA SRL (il più basso)');
    // its used amount beside its remaining, not the companies' de minimis added up
    expect(html).toContain('De minimis utilizzato di ALFA SRL');
    expect(html).not.toContain('Totale de minimis');
    expect(html).toContain('De minimis di ALFA SRL: andamento su 36 mesi');
    expect(html).toContain('le imprese non si sommano');
    expect(pdfSummaryHtml(aReportInput([]))).not.toContain('il più basso');
  });
});

describe('the summary of one company', () => {
  it('names the company beside its tax code, as the register writes it', () => {
    const input = aReportInput([]);
    input.result = { ...input.result, taxCodes: ['01234567897'], perCode: input.result.perCode.slice(0, 1) };
    expect(pdfSummaryHtml(input)).toMatch(/Beneficiario<\/dt><dd>Alfa S\.r\.l\.<\/dd>/);
    // and under the title of the first page
    expect(pdfSummaryHtml(input)).toMatch(
      /<h1>Resoconto degli aiuti di Stato<\/h1><p class="company">Alfa S\.r\.l\.<\/p>/,
    );
    expect(pdfSummaryHtml(aReportInput([]))).not.toContain('class="company"');
    // several companies: each is named in the summary per company instead
    expect(pdfSummaryHtml(aReportInput([]))).not.toMatch(/Beneficiario<\/dt><dd>Alfa/);
  });
});

describe('the report’s document properties', () => {
  it('name the portal and the search, not HeadlessChrome', async () => {
    const chromium = await PDFDocument.create();
    chromium.addPage();
    chromium.setCreator('HeadlessChrome');
    chromium.setProducer('Skia/PDF m120');
    const bytes = Buffer.from(await chromium.save());
    const input = aReportInput([aReportRow(1), aReportRow(2)]);
    const report = await preparePdfReport(
      input,
      rendering(() => Promise.resolve(bytes)),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of report.chunks()) chunks.push(chunk);
    const pdf = await PDFDocument.load(Buffer.concat(chunks), { updateMetadata: false });
    expect(pdf.getCreator()).toBe('Portale Aiuti di Stato');
    expect(pdf.getProducer()).toBe('Portale Aiuti di Stato');
    expect(pdf.getTitle()).toBe('Resoconto degli aiuti di Stato – 01234567897, RSSMRA80A01H501U');
    expect(pdf.getAuthor()).toBe(input.branding.organisation);
    expect(pdf.getPageCount()).toBe(report.pageCount);
  });
});
