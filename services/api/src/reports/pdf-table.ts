/**
 * The report's table pages, drawn as PDF operators instead of laid out by Chromium (about 1.5 ms a
 * row there, so 15 s for 10,000 aids). Same page box and margins as the Chromium pages, the same
 * columns, header on every page and rows never split across pages. Pure: text in, operators out.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AidRowDto } from '@rna/domain';
import { formatEuroAmount } from './format';
import { PdfTextFont, wrapText } from './pdf-text';

const MM = 72 / 25.4;
/** A4, with the margins Chromium prints the report with (footer in the bottom one). */
export const PAGE = {
  width: 595.28,
  height: 841.89,
  top: 12 * MM,
  bottom: 18 * MM,
  left: 10 * MM,
  right: 10 * MM,
} as const;
const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;

/** 8 CSS px, as in the HTML table. */
const FONT_SIZE = 6;
const LINE_HEIGHT = 6.9;
/** 3 CSS px. */
const PADDING = 2.25;
const BASELINE = 0.8 * FONT_SIZE + (LINE_HEIGHT - FONT_SIZE) / 2;
const TITLE_SIZE = 9;
const TITLE_GAP = 8;
const TEXT_GREY = '0.133 g';
const BORDER = '0.867 G 0.75 w';

/** Rows measured between two turns of the event loop (about 10 ms of work). */
const PAGINATION_SLICE = 2_000;

/** Resource names of the two fonts on every drawn page (distinct from Chromium's own names). */
export const FONT_REGULAR = 'RnaHelv';
export const FONT_BOLD = 'RnaHelvB';

interface Column {
  header: string;
  align: 'left' | 'right';
  /** Share of the width left to the text columns; the date and amounts are measured instead. */
  weight?: number;
}

const COLUMNS: readonly Column[] = [
  { header: 'Data concessione', align: 'left' },
  { header: 'Beneficiario', align: 'left', weight: 0.27 },
  { header: 'Titolo misura', align: 'left', weight: 0.33 },
  { header: 'Soggetto concedente', align: 'left', weight: 0.22 },
  { header: 'Procedimento', align: 'left', weight: 0.18 },
  { header: 'Importo nominale', align: 'right' },
  { header: 'Elemento di aiuto', align: 'right' },
];
const AMOUNTS = [5, 6];

/** '#RRGGBB' → PDF colour operands. */
export function rgbOperands(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return [value >> 16, (value >> 8) & 0xff, value & 0xff].map((c) => (c / 255).toFixed(3)).join(' ');
}

const n = (value: number) => (Math.round(value * 100) / 100).toString();

export function cellTexts(row: AidRowDto): string[] {
  return [
    row.dataConcessione,
    // whose row it is, in a report of several companies too
    `${row.denominazioneBeneficiario} (${row.codiceFiscaleBeneficiario})`,
    row.titoloMisura,
    row.soggettoConcedente,
    row.desProcedimento,
    formatEuroAmount(Number(row.importoNominale)),
    formatEuroAmount(Number(row.elementoDiAiuto)),
  ];
}

/**
 * The table of a report's rows: pagination first (how many pages, so that every footer can say
 * "di Y"), then one page's operators at a time, so that only one page of them exists at once.
 */
export class ReportTable {
  readonly regular = new PdfTextFont('Helvetica');
  readonly bold = new PdfTextFont('Helvetica-Bold');
  private readonly widths: number[];
  private readonly headerLines: string[][];
  private readonly headerHeight: number;
  /** Index of each page's first row, and one past the last page's last row. */
  private readonly pageStarts: number[] = [];
  /** Lines of a cell beyond what an empty page holds are cut, so that every row fits a page. */
  private readonly maxLines: number;

  /** The table of `rows`, paginated a slice at a time so that a large report does not hold the event loop. */
  static async paginated(rows: readonly AidRowDto[], colour: string, title: string): Promise<ReportTable> {
    const table = new ReportTable(rows, colour, title);
    await table.paginate();
    return table;
  }

  private constructor(
    private readonly rows: readonly AidRowDto[],
    private readonly colour: string,
    private readonly title: string,
  ) {
    this.widths = this.columnWidths();
    this.headerLines = COLUMNS.map((column, i) =>
      wrapText(this.bold, column.header, FONT_SIZE, this.widths[i]! - 2 * PADDING),
    );
    this.headerHeight =
      Math.max(...this.headerLines.map((lines) => lines.length)) * LINE_HEIGHT + 2 * PADDING;
    const firstPageRoom = this.roomOn(0);
    this.maxLines = Math.max(1, Math.floor((firstPageRoom - 2 * PADDING) / LINE_HEIGHT));
  }

  get pageCount(): number {
    return this.pageStarts.length - 1;
  }

  /** The first row and one past the last row of a page (0-based). */
  rowsOf(page: number): [number, number] {
    return [this.pageStarts[page]!, this.pageStarts[page + 1]!];
  }

  /** The operators drawing table page `page` (0-based), without its footer. */
  pageOperators(page: number): string {
    const [from, to] = this.rowsOf(page);
    const graphics: string[] = [];
    const text: string[] = [];
    let top = PAGE.height - PAGE.top;
    if (page === 0) {
      text.push(
        `/${FONT_BOLD} ${TITLE_SIZE} Tf ${rgbOperands(this.colour)} rg`,
        `1 0 0 1 ${n(PAGE.left)} ${n(top - TITLE_SIZE)} Tm ${this.bold.literal(this.bold.printable(this.title))} Tj`,
      );
      top -= TITLE_SIZE + TITLE_GAP;
    }
    graphics.push(
      `${rgbOperands(this.colour)} rg ${n(PAGE.left)} ${n(top - this.headerHeight)} ${n(CONTENT_WIDTH)} ${n(this.headerHeight)} re f`,
    );
    text.push(`/${FONT_BOLD} ${FONT_SIZE} Tf 1 g`);
    this.cellOperators(text, this.bold, this.headerLines, top);
    top -= this.headerHeight;
    text.push(`/${FONT_REGULAR} ${FONT_SIZE} Tf ${TEXT_GREY}`);
    graphics.push(BORDER);
    for (let i = from; i < to; i++) {
      const lines = this.rowLines(this.rows[i]!);
      this.cellOperators(text, this.regular, lines, top);
      top -= this.rowHeight(lines);
      graphics.push(`${n(PAGE.left)} ${n(top)} m ${n(PAGE.width - PAGE.right)} ${n(top)} l`);
    }
    graphics.push('S');
    return `q\n${graphics.join('\n')}\nQ\nBT\n${text.join('\n')}\nET\n`;
  }

  private cellOperators(out: string[], font: PdfTextFont, cells: string[][], top: number): void {
    let x = PAGE.left;
    cells.forEach((lines, c) => {
      const width = this.widths[c]!;
      const right = COLUMNS[c]!.align === 'right';
      lines.forEach((line, l) => {
        if (line === '') return;
        const lineX = right ? x + width - PADDING - font.width(line, FONT_SIZE) : x + PADDING;
        const y = top - PADDING - l * LINE_HEIGHT - BASELINE;
        out.push(`1 0 0 1 ${n(lineX)} ${n(y)} Tm ${font.literal(line)} Tj`);
      });
      x += width;
    });
  }

  private rowLines(row: AidRowDto): string[][] {
    return cellTexts(row).map((text, c) => {
      const printable = this.regular.printable(text);
      if (AMOUNTS.includes(c)) return [printable]; // amounts never wrap
      const lines = wrapText(this.regular, printable, FONT_SIZE, this.widths[c]! - 2 * PADDING);
      if (lines.length <= this.maxLines) return lines;
      const kept = lines.slice(0, this.maxLines);
      kept[kept.length - 1] = `${kept[kept.length - 1]!.slice(0, -1)}…`;
      return kept;
    });
  }

  private rowHeight(lines: string[][]): number {
    let most = 1;
    for (const cell of lines) if (cell.length > most) most = cell.length;
    return most * LINE_HEIGHT + 2 * PADDING;
  }

  /** Height for rows on a page, below its header (and the title on the first page). */
  private roomOn(page: number): number {
    const usable = PAGE.height - PAGE.top - PAGE.bottom - this.headerHeight;
    return page === 0 ? usable - TITLE_SIZE - TITLE_GAP : usable;
  }

  private async paginate(): Promise<void> {
    this.pageStarts.push(0);
    let room = this.roomOn(0);
    for (let i = 0; i < this.rows.length; i++) {
      if (i % PAGINATION_SLICE === PAGINATION_SLICE - 1) await nextTurn();
      const height = this.rowHeight(this.rowLines(this.rows[i]!));
      if (height > room && i > this.pageStarts[this.pageStarts.length - 1]!) {
        this.pageStarts.push(i);
        room = this.roomOn(this.pageStarts.length - 1);
      }
      room -= height;
    }
    this.pageStarts.push(this.rows.length);
  }

  /** The date and amount columns as wide as their widest text; the rest shared by weight. */
  private columnWidths(): number[] {
    const headerWordWidth = (header: string) =>
      Math.max(...header.split(' ').map((word) => this.bold.width(word, FONT_SIZE)));
    let amountWidth = Math.max(...AMOUNTS.map((c) => headerWordWidth(COLUMNS[c]!.header)));
    let dateWidth = headerWordWidth(COLUMNS[0]!.header);
    for (const row of this.rows) {
      const texts = cellTexts(row);
      dateWidth = Math.max(dateWidth, this.regular.width(this.regular.printable(texts[0]!), FONT_SIZE));
      for (const c of AMOUNTS) amountWidth = Math.max(amountWidth, this.regular.width(texts[c]!, FONT_SIZE));
    }
    // a date column or amounts wider than a third of the page would be data gone wrong: wrap it
    dateWidth = Math.min(dateWidth, CONTENT_WIDTH / 6) + 2 * PADDING;
    amountWidth = Math.min(amountWidth, CONTENT_WIDTH / 6) + 2 * PADDING;
    const rest = CONTENT_WIDTH - dateWidth - 2 * amountWidth;
    return COLUMNS.map((column, c) =>
      c === 0 ? dateWidth : AMOUNTS.includes(c) ? amountWidth : rest * (column.weight ?? 0),
    );
  }
}
