import { PDFDocument } from 'pdf-lib';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import { PAGES_PER_CHUNK, preparePdfReport, type PdfReport } from './pdf-report';
import { aReportInput, aReportRow } from './testing';
import { pageTexts } from './testing/pdf-pages';

const collect = async (report: PdfReport): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of report.chunks()) chunks.push(chunk);
  return Buffer.concat(chunks);
};

/** Every object the cross-reference table lists starts exactly where it says. */
function expectExactCrossReferences(pdf: Buffer): void {
  const text = pdf.toString('latin1');
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
  const table = /^xref\n0 (\d+)\n/.exec(text.slice(startxref));
  expect(table).not.toBeNull();
  const size = Number(table![1]);
  const entries = text
    .slice(startxref + table![0].length)
    .split('\n')
    .slice(0, size);
  let used = 0;
  entries.forEach((entry, number) => {
    const [offset, , kind] = entry.split(' ');
    if (kind !== 'n') return;
    used += 1;
    expect(text.startsWith(`${number} 0 obj\n`, Number(offset))).toBe(true);
  });
  expect(used).toBeGreaterThan(size / 2);
}

describe('report.pdf: Chromium summary joined with drawn table pages', () => {
  const renderer = new ChromiumPdfRenderer({ poolSize: 1 });
  afterAll(() => renderer.close());

  it('has every row once, a page count that adds up, and numbers and footers on every page', async () => {
    const count = 4_000;
    const input = aReportInput(
      Array.from({ length: count }, (_, i) =>
        aReportRow(i, { denominazioneBeneficiario: `Impresa ${String(i).padStart(5, '0')} S.p.A.` }),
      ),
    );
    const report = await preparePdfReport(input, renderer);
    const pdf = await collect(report);
    expect(report.pageCount).toBeGreaterThan(PAGES_PER_CHUNK * 2); // several chunks joined

    expectExactCrossReferences(pdf);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(report.pageCount);
    const pages = await pageTexts(pdf);
    expect(pages).toHaveLength(report.pageCount);
    pages.forEach((text, i) => {
      expect(text).toContain(`Pagina ${i + 1} di ${report.pageCount}`);
      expect(text).toContain('Studio Rossi & Associati');
      expect(text).toContain('Via Roma 1, Milano');
    });
    // the summary comes first, from Chromium, then the table, starting on the same page
    expect(pages[0]).toContain('1.234.567,89 €');
    expect(pages[0]).toContain('2023/2831');
    expect(pages[0]).toContain('https://example.com/rinnovo');
    expect(pages[0]).toContain('Documenti (4000)');
    const seen = pages.join('\n').match(/Impresa \d{5} S\.p\.A\./g) ?? [];
    expect(seen).toHaveLength(count);
    expect(new Set(seen).size).toBe(count);
    expect(seen[count - 1]).toBe('Impresa 03999 S.p.A.');
  });

  it('goes on from the summary to the table on the first page, leaving no page half empty', async () => {
    const input = aReportInput(Array.from({ length: 40 }, (_, i) => aReportRow(i)));
    const report = await preparePdfReport(input, renderer);
    const pdf = await collect(report);
    expectExactCrossReferences(pdf);
    const pages = await pageTexts(pdf);
    expect(pages).toHaveLength(report.pageCount);
    expect(pages[0]).toContain('Parametri della ricerca');
    expect(pages[0]).toContain('Documenti (40)');
    expect(pages[0]).toContain('Beneficiario 0 (01234567897)');
    // 40 rows: the rest of the first page and one more page, not a page for the summary alone
    expect(report.pageCount).toBe(2);
    // the mark of the summary's end is no link of the document
    expect(pdf.toString('latin1')).not.toContain('fine-del-riepilogo');
    pages.forEach((text, i) => expect(text).toContain(`Pagina ${i + 1} di 2`));
  });

  it('says which years the totals cover, from the search’s parameters', async () => {
    const firstPage = async (last3Years: boolean) => {
      const input = aReportInput([aReportRow(1)]);
      input.result = { ...input.result, last3Years };
      return (await pageTexts(await collect(await preparePdfReport(input, renderer))))[0]!;
    };
    const everyYear = await firstPage(false);
    expect(everyYear).toContain(
      'Totali degli ultimi 3 anni (l’elenco dei documenti comprende tutti gli anni trovati)',
    );
    const filtered = await firstPage(true);
    expect(filtered).toContain('Totali (ultimi 3 anni)');
    expect(filtered).not.toContain('tutti gli anni');
  });

  it('says there is no document, on a single numbered page, when the search found none', async () => {
    const report = await preparePdfReport(aReportInput([]), renderer);
    const pdf = await collect(report);
    expectExactCrossReferences(pdf);
    const pages = await pageTexts(pdf);
    expect(report.pageCount).toBe(1);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('Nessun documento trovato');
    expect(pages[0]).toContain('Pagina 1 di 1');
  });

  it('writes register texts it cannot encode as their base letters, never failing on them', async () => {
    const input = aReportInput([aReportRow(1, { denominazioneBeneficiario: 'Győr Kft. (Łódź)' })]);
    const pages = await pageTexts(await collect(await preparePdfReport(input, renderer)));
    expect(pages.join('\n')).toContain('Gyor Kft. (?ódz)');
  });
});
