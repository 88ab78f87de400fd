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

/** A column of a drawn table. */
export interface TableColumn {
  header: string;
  align: 'left' | 'right';
  /**
   * Share of the width left to the text columns. Without one the column is as wide as its widest
   * text (a third of the page at most); right-aligned ones (amounts) share one width and never wrap.
   */
  weight?: number;
}

/** What a table draws: its columns, each row's cell texts, and the rows to tint (optional). */
export interface TableLayout<Row> {
  columns: readonly TableColumn[];
  cells(row: Row): string[];
  highlighted?(row: Row): boolean;
}

/** Each row cites the aid: its COR (the number a granting body quotes) and its regulation. */
const COLUMNS: readonly TableColumn[] = [
  { header: 'Data concessione', align: 'left' },
  { header: 'COR', align: 'left' },
  { header: 'Beneficiario', align: 'left', weight: 0.24 },
  { header: 'Titolo misura', align: 'left', weight: 0.28 },
  { header: 'Soggetto concedente', align: 'left', weight: 0.2 },
  { header: 'Procedimento', align: 'left', weight: 0.14 },
  { header: 'Regolamento', align: 'left', weight: 0.14 },
  { header: 'Importo nominale', align: 'right' },
  { header: 'Elemento di aiuto', align: 'right' },
];

/** '#RRGGBB' → PDF colour operands. */
export function rgbOperands(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return [value >> 16, (value >> 8) & 0xff, value & 0xff].map((c) => (c / 255).toFixed(3)).join(' ');
}

const n = (value: number) => (Math.round(value * 100) / 100).toString();

export function cellTexts(row: AidRowDto): string[] {
  return [
    row.dataConcessione,
    row.cor ?? '',
    // whose row it is, in a report of several companies too
    `${row.denominazioneBeneficiario} (${row.codiceFiscaleBeneficiario})`,
    row.titoloMisura,
    row.soggettoConcedente,
    row.desProcedimento,
    // the code the register gives ('CE2831/23'), else its text
    row.codRegolamento || row.desRegolamento,
    formatEuroAmount(Number(row.importoNominale)),
    formatEuroAmount(Number(row.elementoDiAiuto)),
  ];
}

/** The report's table of aids. */
export const AID_TABLE: TableLayout<AidRowDto> = { columns: COLUMNS, cells: cellTexts };

/** A tinted row (a company over the de minimis ceiling). */
const HIGHLIGHT = '1 0.894 0.894 rg';

/**
 * The table of a report's rows: pagination first (how many pages, so that every footer can say
 * "di Y"), then one page's operators at a time, so that only one page of them exists at once.
 */
export class ReportTable<Row = AidRowDto> {
  readonly regular = new PdfTextFont('Helvetica');
  readonly bold = new PdfTextFont('Helvetica-Bold');
  private readonly widths: number[];
  private readonly headerLines: string[][];
  private readonly headerHeight: number;
  /** Index of each page's first row, and one past the last page's last row. */
  private readonly pageStarts: number[] = [];
  /** Lines of a cell beyond what an empty page holds are cut, so that every row fits a page. */
  private readonly maxLines: number;

  /**
   * The table of `rows`, paginated a slice at a time so that a large report does not hold the event
   * loop. With `startAt` (a height on the page, in points) its first page is the rest of a page
   * already begun (the summary's last one), when the title, the header and the first row fit there;
   * otherwise, or without it, the table starts on a page of its own.
   */
  static async paginated<Row = AidRowDto>(
    rows: readonly Row[],
    colour: string,
    title: string,
    layout?: TableLayout<Row>,
    startAt?: number,
  ): Promise<ReportTable<Row>> {
    const make = (top?: number) =>
      new ReportTable<Row>(rows, colour, title, layout ?? (AID_TABLE as unknown as TableLayout<Row>), top);
    let table = make(startAt);
    if (table.startsMidPage && !table.firstRowFits()) table = make();
    await table.paginate();
    return table;
  }

  private readonly columns: readonly TableColumn[];
  /** Columns sized to their text: the left ones each on its own, the right ones (amounts) together. */
  private readonly measured: number[];
  private readonly amounts: number[];

  private constructor(
    private readonly rows: readonly Row[],
    private readonly colour: string,
    private readonly title: string,
    private readonly layout: TableLayout<Row>,
    startAt?: number,
  ) {
    this.firstTop =
      startAt === undefined ? PAGE.height - PAGE.top : Math.min(startAt, PAGE.height - PAGE.top);
    this.columns = layout.columns;
    this.measured = this.columns.flatMap((c, i) => (c.weight === undefined && c.align === 'left' ? [i] : []));
    this.amounts = this.columns.flatMap((c, i) => (c.weight === undefined && c.align === 'right' ? [i] : []));
    this.widths = this.columnWidths();
    this.headerLines = this.columns.map((column, i) =>
      wrapText(this.bold, column.header, FONT_SIZE, this.widths[i]! - 2 * PADDING),
    );
    this.headerHeight =
      Math.max(...this.headerLines.map((lines) => lines.length)) * LINE_HEIGHT + 2 * PADDING;
    // as on a first page of its own: a row cut to fit a shorter one would lose text
    const pageRoom = PAGE.height - PAGE.top - PAGE.bottom - this.headerHeight - TITLE_SIZE - TITLE_GAP;
    this.maxLines = Math.max(1, Math.floor((pageRoom - 2 * PADDING) / LINE_HEIGHT));
  }

  /** Where the first page's title is drawn from (the top margin, or below what the page already holds). */
  private readonly firstTop: number;

  /** Its first page is the rest of a page already begun, not a page of its own. */
  get startsMidPage(): boolean {
    return this.firstTop < PAGE.height - PAGE.top;
  }

  private firstRowFits(): boolean {
    const first = this.rows[0];
    return first === undefined || this.rowHeight(this.rowLines(first)) <= this.roomOn(0);
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
    let top = page === 0 ? this.firstTop : PAGE.height - PAGE.top;
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
    const tints: string[] = [];
    const borders: string[] = [BORDER];
    for (let i = from; i < to; i++) {
      const row = this.rows[i]!;
      const lines = this.rowLines(row);
      this.cellOperators(text, this.regular, lines, top);
      const height = this.rowHeight(lines);
      if (this.layout.highlighted?.(row))
        tints.push(`${HIGHLIGHT} ${n(PAGE.left)} ${n(top - height)} ${n(CONTENT_WIDTH)} ${n(height)} re f`);
      top -= height;
      borders.push(`${n(PAGE.left)} ${n(top)} m ${n(PAGE.width - PAGE.right)} ${n(top)} l`);
    }
    graphics.push(...tints, ...borders, 'S');
    return `q\n${graphics.join('\n')}\nQ\nBT\n${text.join('\n')}\nET\n`;
  }

  private cellOperators(out: string[], font: PdfTextFont, cells: string[][], top: number): void {
    let x = PAGE.left;
    cells.forEach((lines, c) => {
      const width = this.widths[c]!;
      const right = this.columns[c]!.align === 'right';
      lines.forEach((line, l) => {
        if (line === '') return;
        const lineX = right ? x + width - PADDING - font.width(line, FONT_SIZE) : x + PADDING;
        const y = top - PADDING - l * LINE_HEIGHT - BASELINE;
        out.push(`1 0 0 1 ${n(lineX)} ${n(y)} Tm ${font.literal(line)} Tj`);
      });
      x += width;
    });
  }

  private rowLines(row: Row): string[][] {
    return this.layout.cells(row).map((text, c) => {
      const printable = this.regular.printable(text);
      if (this.amounts.includes(c)) return [printable]; // amounts never wrap
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
    if (page === 0) return this.firstTop - PAGE.bottom - this.headerHeight - TITLE_SIZE - TITLE_GAP;
    return PAGE.height - PAGE.top - PAGE.bottom - this.headerHeight;
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
    let amountWidth = Math.max(0, ...this.amounts.map((c) => headerWordWidth(this.columns[c]!.header)));
    const own = new Map(this.measured.map((c) => [c, headerWordWidth(this.columns[c]!.header)]));
    for (const row of this.rows) {
      const texts = this.layout.cells(row);
      for (const [c, width] of own)
        own.set(c, Math.max(width, this.regular.width(this.regular.printable(texts[c]!), FONT_SIZE)));
      for (const c of this.amounts)
        amountWidth = Math.max(amountWidth, this.regular.width(texts[c]!, FONT_SIZE));
    }
    // a date column or amounts wider than a sixth of the page would be data gone wrong: wrap it
    for (const [c, width] of own) own.set(c, Math.min(width, CONTENT_WIDTH / 6) + 2 * PADDING);
    amountWidth = Math.min(amountWidth, CONTENT_WIDTH / 6) + 2 * PADDING;
    let rest = CONTENT_WIDTH - amountWidth * this.amounts.length;
    for (const width of own.values()) rest -= width;
    return this.columns.map((column, c) =>
      own.has(c) ? own.get(c)! : this.amounts.includes(c) ? amountWidth : rest * (column.weight ?? 0),
    );
  }
}
