import ExcelJS from 'exceljs';
import pdfParse from 'pdf-parse';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import { addReportSheets, buildExcelReport, DATE_FORMAT, EURO_FORMAT } from './excel';
import { escapeHtml, pdfFooterTemplate, pdfReportHtml, pdfSummaryHtml } from './pdf-template';
import { aReportInput as input, aReportRow as row } from './testing';

describe('Excel report', () => {
  it('holds the rows with euro amounts, a frozen header, the parameters, totals and series', async () => {
    const bytes = await buildExcelReport(input([row(1), row(2, { elementoDiAiuto: '0.50' })]));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);

    const aids = workbook.getWorksheet('Aiuti');
    expect(aids?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(aids?.getRow(1).getCell(1).value).toBe('Data concessione');
    expect(aids?.rowCount).toBe(3);
    const column = (header: string) => (aids?.getRow(1).values as unknown[]).indexOf(header);
    const elemento = aids?.getRow(3).getCell(column('Elemento di aiuto'));
    expect(elemento?.value).toBe(0.5);
    expect(elemento?.numFmt).toBe(EURO_FORMAT);
    expect(aids?.getRow(2).getCell(3).value).toBe('Beneficiario 1');
    // grant days are date cells, sortable as dates, shown dd-mm-yyyy
    const granted = aids?.getRow(2).getCell(1);
    expect(granted?.value).toEqual(new Date(Date.UTC(2024, 2, 15)));
    expect(granted?.numFmt).toBe(DATE_FORMAT);

    const summary = workbook.getWorksheet('Riepilogo');
    const values = new Map<string, unknown>();
    summary?.eachRow((r) => values.set(String(r.getCell(1).value), r.getCell(2).value));
    expect(values.get('Codici fiscali')).toBe('01234567897, RSSMRA80A01H501U');
    expect(values.get('Solo de minimis')).toBe('Sì');
    expect(values.get('Data generazione')).toEqual(new Date(Date.UTC(2025, 5, 10, 10, 30)));
    expect(values.get('Fonte 01234567897')).toBe(
      'Registro (RNA) in tempo reale, consultato il 10-06-2025 10:00',
    );
    expect(values.get('Fonte RSSMRA80A01H501U')).toMatch(
      /^Archivio aggiornato al 01-06-2025 06:15 .*in coda/,
    );
    expect(values.get('Importo totale')).toBe(1234567.89);
    expect(String(values.get('Nota'))).toContain('2023/2831');

    const series = workbook.getWorksheet('De minimis');
    expect(series?.rowCount).toBe(37);
    expect(series?.getRow(2).getCell(2).value).toBe(45000);

    // whose figures are whose: one row per searched company
    const companies = workbook.getWorksheet('Riepilogo per impresa');
    expect(companies?.getRow(2).values).toEqual([
      undefined,
      '01234567897',
      'Alfa S.r.l.',
      2,
      1234567.89,
      45000,
      255000,
      'No',
    ]);
    expect(companies?.getRow(3).getCell(6).value).toBe(-10000);
    expect(companies?.getRow(3).getCell(7).value).toBe('Sì');
  });
});

describe('Excel report, streamed', () => {
  /** Each row of a sheet as its cells' values and formats. */
  const cellsOf = (sheet: ExcelJS.Worksheet | undefined) => {
    const rows: unknown[][] = [];
    sheet?.eachRow((r) =>
      rows.push(
        r.values as unknown[],
        [1, 2, 3].map((c) => r.getCell(c).numFmt),
      ),
    );
    return rows;
  };

  it('holds every row, and the same summary and series as the workbook built in memory', async () => {
    const count = 5_000;
    const data = input(Array.from({ length: count }, (_, i) => row(i, { importoNominale: `${i}.25` })));
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await buildExcelReport(data)) as unknown as ArrayBuffer);
    const inMemory = new ExcelJS.Workbook();
    addReportSheets(inMemory, data);

    const aids = workbook.getWorksheet('Aiuti');
    expect(aids?.rowCount).toBe(count + 1);
    const column = (header: string) => (aids?.getRow(1).values as unknown[]).indexOf(header);
    const ids = new Set<unknown>();
    aids?.eachRow((r, n) => {
      if (n > 1) ids.add(r.getCell(column('ID componente aiuto')).value);
    });
    expect(ids.size).toBe(count);
    const last = aids?.getRow(count + 1);
    expect(last?.getCell(3).value).toBe(`Beneficiario ${count - 1}`);
    expect(last?.getCell(column('Importo nominale')).value).toBe(count - 1 + 0.25);
    expect(last?.getCell(column('Importo nominale')).numFmt).toBe(EURO_FORMAT);
    // every column filterable: the aid's references through to the register file it came from
    expect(aids?.autoFilter).toBe('A1:S1');
    expect(aids?.getRow(1).font).toMatchObject({ bold: true });
    expect(aids?.columns.map((c) => c.width)).toEqual(
      inMemory.getWorksheet('Aiuti')?.columns.map((c) => c.width),
    );
    for (const name of ['Riepilogo', 'De minimis']) {
      expect(cellsOf(workbook.getWorksheet(name))).toEqual(cellsOf(inMemory.getWorksheet(name)));
      expect(workbook.getWorksheet(name)?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    }
  });
});

describe('PDF report', () => {
  const renderer = new ChromiumPdfRenderer({ poolSize: 1 });
  afterAll(() => renderer.close());

  it('escapes register and client texts so that they cannot inject markup', () => {
    const html = pdfReportHtml(input([row(1, { denominazioneBeneficiario: '<script>alert(1)</script>' })]));
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain(escapeHtml('<script>alert(1)</script>'));
    expect(pdfFooterTemplate({ ...input([]).branding, footer1: '<b>x</b>' })).toContain(
      '&lt;b&gt;x&lt;/b&gt;',
    );
  });

  it('never prints a non-http renewal link or a colour that is not a colour', () => {
    const base = input([]);
    const html = pdfReportHtml({
      ...base,
      branding: {
        ...base.branding,
        subRenewUrl: 'javascript:alert(1)',
        primaryColor: 'red;}</style><script>',
      },
    });
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('</style><script>');
  });

  it('renders the parameters, totals, table, De Minimis note, footers and page numbers', async () => {
    const data = input(Array.from({ length: 120 }, (_, i) => row(i)));
    const pdf = await renderer.render(pdfReportHtml(data), {
      footerTemplate: pdfFooterTemplate(data.branding),
    });
    const { text, numpages } = await pdfParse(pdf);
    expect(numpages).toBeGreaterThan(1);
    expect(text).toContain('01234567897, RSSMRA80A01H501U');
    expect(text).toContain('1.234.567,89 €');
    expect(text).toContain('Beneficiario 119');
    expect(text).toContain('12.345,67 €');
    expect(text).toContain('2023/2831');
    expect(text).toContain('Studio Rossi & Associati');
    expect(text).toContain(`Pagina 2 di ${numpages}`);
    expect(text).toContain('https://example.com/rinnovo');
    // each code says where its rows come from
    expect(text).toMatch(/Registro \(RNA\) in tempo reale, consultato il\s*10-06-2025 10:00/);
    expect(text).toMatch(/Archivio aggiornato al 01-06-2025 06:15/);
  });

  it('gives a search of several companies a summary per company, the exceeded ceiling flagged', () => {
    const html = pdfSummaryHtml(input([row(1)]));
    expect(html).toContain('Riepilogo per impresa');
    expect(html).toMatch(/Mario Rossi.*-10\.000,00 € \(massimale superato\)/s);
    const single = input([row(1)]);
    single.result = { ...single.result, perCode: single.result.perCode.slice(0, 1) };
    expect(pdfSummaryHtml(single)).not.toContain('Riepilogo per impresa');
  });
});
