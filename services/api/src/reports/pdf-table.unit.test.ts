import { cellTexts, ReportTable } from './pdf-table';
import { aReportRow } from './testing';

const rows = (count: number, long: (i: number) => boolean = () => false) =>
  Array.from({ length: count }, (_, i) =>
    aReportRow(i, {
      titoloMisura: long(i) ? `Misura ${i} ${'con un titolo lungo '.repeat(12)}` : `Misura ${i}`,
    }),
  );

describe('ReportTable', () => {
  it('puts every row on exactly one page, in order, with fewer rows on pages of taller rows', async () => {
    const short = await ReportTable.paginated(rows(500), '#1F4E79', 'Documenti (500)');
    const tall = await ReportTable.paginated(
      rows(500, (i) => i % 2 === 0),
      '#1F4E79',
      'Documenti (500)',
    );
    for (const table of [short, tall]) {
      let next = 0;
      for (let page = 0; page < table.pageCount; page++) {
        const [from, to] = table.rowsOf(page);
        expect(from).toBe(next);
        expect(to).toBeGreaterThan(from);
        next = to;
      }
      expect(next).toBe(500);
    }
    expect(tall.pageCount).toBeGreaterThan(short.pageCount);
  });

  it('draws the title on the first page only, the header on every page and each row of the page', async () => {
    const table = await ReportTable.paginated(rows(200), '#aa3300', 'Documenti (200)');
    expect(table.pageCount).toBeGreaterThan(1);
    const first = table.pageOperators(0);
    const second = table.pageOperators(1);
    expect(first).toContain('(Documenti \\(200\\))');
    expect(second).not.toContain('Documenti');
    for (const page of [first, second]) expect(page).toContain('(Soggetto concedente)');
    expect(first).toContain('0.667 0.200 0.000 rg'); // the brand colour behind the header
    const [from, to] = table.rowsOf(1);
    // a cell is one string operand per line: the name starts one (its tax code may wrap to the next)
    const nameOf = (i: number) => new RegExp(`\\(Beneficiario ${i}[ )]`);
    for (let i = from; i < to; i++) expect(second).toMatch(nameOf(i));
    expect(second).not.toMatch(nameOf(to));
  });

  it('cuts a text too long for one page, so that its row still fits on one', async () => {
    const huge = [aReportRow(0, { titoloMisura: 'parola '.repeat(20_000) }), aReportRow(1)];
    const table = await ReportTable.paginated(huge, '#1F4E79', 'Documenti (2)');
    expect(table.pageCount).toBe(2);
    expect(table.rowsOf(0)).toEqual([0, 1]);
    expect(table.pageOperators(0)).toContain('\\205)'); // the ellipsis ending the cut text
  });
});

describe('a table row', () => {
  it('says whose the aid is: the beneficiary with its tax code', () => {
    expect(cellTexts(aReportRow(7))[2]).toBe('Beneficiario 7 (01234567897)');
  });
});
