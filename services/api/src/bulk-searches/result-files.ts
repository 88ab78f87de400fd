/**
 * A bulk search's results: the workbook (sheet "Riepilogo per impresa", one row per company with the
 * ones over the ceiling highlighted and a totals row; sheet "Aiuti", every aid) written by exceljs'
 * streaming writer, and the branded PDF summary (the client's logo, colour and footers; a table of the
 * companies drawn by the reports' pdf-lib pieces).
 */
import { PassThrough } from 'node:stream';
import type ExcelJS from 'exceljs';
import { excelLibrary, pdfLibrary } from '../http/document-libraries';
import type { PDFDocument, PDFImage } from 'pdf-lib';
import {
  DE_MINIMIS_WINDOW_NOTE,
  BULK_RESULT_DAYS,
  DE_MINIMIS_CEILING_EURO,
  formatInteger,
  formatItalianDateTime,
  isDeMinimisProcedure,
  parseIsoDay,
  type AidRecord,
  type BulkCompanySummary,
  type HeadroomDto,
  type DataSource,
} from '@rna/domain';
import { formatEuroAmount } from '../reports/format';
import {
  commitStreamed,
  DATE_FORMAT,
  DATE_TIME_FORMAT,
  dayCell,
  EURO_FORMAT,
  romeDateTimeCell,
} from '../reports/excel';
import { footerOperators, setPortalMetadata } from '../reports/pdf-report';
import {
  FONT_BOLD,
  FONT_REGULAR,
  PAGE,
  ReportTable,
  rgbOperands,
  type TableLayout,
} from '../reports/pdf-table';
import { PdfTextFont, wrapText } from '../reports/pdf-text';
import { dataSourceLabel, safeColour, yesNo, type ReportBranding } from '../reports/report-input';

export interface BulkResult {
  jobId: string;
  sourceName: string;
  dataSource: DataSource;
  generatedAt: Date;
  summaries: readonly BulkCompanySummary[];
}

/**
 * Rows of the "Aiuti" sheet at most: Excel's own limit (1,048,576 rows, the header one of them). The
 * aids past it are counted in a last row, and the summary counts every aid all the same.
 */
export const MAX_AID_ROWS = 1_048_574;

const XLSX_TITLE = 'Ricerca massiva';
const EXCEEDED_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFE4E4' } };

/**
 * One name per figure, in the workbook's sheets and the PDF's table alike, as the report and the
 * screen name it (docs/glossary.md: «De minimis residuo», «Beneficiario»).
 */
export const BULK_HEADERS = {
  taxCode: 'Codice fiscale',
  name: 'Beneficiario',
  aids: 'Numero aiuti',
  totalLast3Years: 'Importo (ultimi 3 anni)',
  deMinimisUsed: 'De minimis utilizzato',
  remainingNow: 'De minimis residuo',
  remainingIn6Months: 'Residuo tra 6 mesi',
  remainingIn12Months: 'Residuo tra 12 mesi',
  exceeded: 'Massimale superato',
  warnings: 'Avvisi',
} as const satisfies Record<keyof BulkCompanySummary, string>;

const euro = { numFmt: EURO_FORMAT };
const SUMMARY_COLUMNS: Partial<ExcelJS.Column>[] = [
  { header: BULK_HEADERS.taxCode, key: 'taxCode', width: 20 },
  { header: BULK_HEADERS.name, key: 'name', width: 40 },
  { header: BULK_HEADERS.aids, key: 'aids', width: 14 },
  { header: BULK_HEADERS.totalLast3Years, key: 'totalLast3Years', width: 22, style: euro },
  { header: BULK_HEADERS.deMinimisUsed, key: 'deMinimisUsed', width: 20, style: euro },
  { header: BULK_HEADERS.remainingNow, key: 'remainingNow', width: 20, style: euro },
  { header: BULK_HEADERS.remainingIn6Months, key: 'remainingIn6Months', width: 20, style: euro },
  { header: BULK_HEADERS.remainingIn12Months, key: 'remainingIn12Months', width: 20, style: euro },
  { header: BULK_HEADERS.exceeded, key: 'exceeded', width: 18 },
  { header: BULK_HEADERS.warnings, key: 'warnings', width: 60 },
];

const AID_COLUMNS: Partial<ExcelJS.Column>[] = [
  { header: BULK_HEADERS.taxCode, key: 'taxCode', width: 20 },
  { header: BULK_HEADERS.name, key: 'name', width: 40 },
  { header: 'Data concessione', key: 'day', width: 16, style: { numFmt: DATE_FORMAT } },
  { header: 'COR', key: 'cor', width: 14 },
  { header: 'CAR', key: 'car', width: 12 },
  { header: 'ID componente aiuto', key: 'id', width: 20 },
  { header: 'Soggetto concedente', key: 'grantor', width: 36 },
  { header: 'Titolo misura', key: 'measure', width: 40 },
  { header: 'Titolo progetto', key: 'project', width: 40 },
  { header: 'Procedimento', key: 'procedure', width: 22 },
  { header: 'Codice regolamento', key: 'regulationCode', width: 16 },
  { header: 'Regolamento', key: 'regulation', width: 30 },
  { header: 'CUP', key: 'cup', width: 18 },
  { header: 'Obiettivo', key: 'objective', width: 30 },
  { header: 'Settore di attività', key: 'sector', width: 16 },
  { header: 'Regione', key: 'region', width: 16 },
  { header: 'Importo nominale', key: 'nominal', width: 18, style: { numFmt: EURO_FORMAT } },
  { header: 'Elemento di aiuto', key: 'element', width: 18, style: { numFmt: EURO_FORMAT } },
  { header: 'De minimis', key: 'deMinimis', width: 12 },
  { header: 'File del registro', key: 'sourceFile', width: 14 },
];

/** A job's workbook, written while the job runs: the aids as they are found, the summary at the end. */
export interface BulkWorkbook {
  /** Streams these aids' rows into the "Aiuti" sheet (in the order given). */
  addAids(aids: readonly AidRecord[]): void;
  /** Writes the summary sheet (and the groups', when the list named groups) and closes the file. */
  finish(summaries: readonly BulkCompanySummary[], groups?: readonly HeadroomDto[]): Promise<Buffer>;
}

/** Each group's (impresa unica) de minimis together today: the sums a grant file needs per group. */
function writeGroupsSheet(sheet: ExcelJS.Worksheet, groups: readonly HeadroomDto[]): void {
  sheet.columns = [
    { header: 'Impresa unica', key: 'name', width: 32 },
    { header: 'Imprese', key: 'members', width: 10 },
    { header: 'Codici fiscali', key: 'codes', width: 40 },
    { header: 'Aiuti contati dal', key: 'since', width: 16, style: { numFmt: DATE_FORMAT } },
    {
      header: 'Generale + agricoltura + pesca utilizzato',
      key: 'usedAll',
      width: 22,
      style: { numFmt: EURO_FORMAT },
    },
    { header: 'Generale + SIEG utilizzato', key: 'usedSieg', width: 20, style: { numFmt: EURO_FORMAT } },
    {
      header: 'Residuo concedibile oggi (regime generale)',
      key: 'headroom',
      width: 24,
      style: { numFmt: EURO_FORMAT },
    },
  ];
  sheet.getRow(1).font = { bold: true };
  commitStreamed(sheet.getRow(1));
  for (const group of groups)
    commitStreamed(
      sheet.addRow({
        name: group.group?.name ?? '',
        members: group.taxCodes.length,
        codes: group.taxCodes.join(', '),
        since: dayCell(parseIsoDay(group.windowStart), group.windowStart),
        usedAll: Number(group.limits[0]?.used ?? 0),
        usedSieg: Number(group.limits[1]?.used ?? 0),
        headroom: Number(group.headroom),
      }),
    );
  commitStreamed(sheet);
}

/**
 * The workbook by exceljs' streaming writer. The summary is the first sheet but is written last: its
 * rows are only known at the end, while the aids' rows go into the zip as they come, so that a job
 * holds one chunk of aids at a time, not every aid of 5,000 companies (a zip entry's data is buffered
 * until the entries opened before it are done: the aids' sheet is opened first).
 */
export function startBulkWorkbook(generatedAt: Date, maxAidRows = MAX_AID_ROWS): BulkWorkbook {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  const workbook = new (excelLibrary().stream.xlsx.WorkbookWriter)({
    stream: sink,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Portale Aiuti di Stato';
  workbook.title = XLSX_TITLE;
  workbook.created = generatedAt;
  const frozen = { views: [{ state: 'frozen' as const, ySplit: 1 }] };
  const summary = workbook.addWorksheet('Riepilogo per impresa', frozen);
  const sheet = workbook.addWorksheet('Aiuti', frozen);
  sheet.columns = AID_COLUMNS;
  sheet.getRow(1).font = { bold: true };
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: AID_COLUMNS.length } };
  commitStreamed(sheet.getRow(1));
  let written = 0;
  let left = 0;

  return {
    addAids(aids) {
      for (const aid of aids) {
        if (written >= maxAidRows) {
          left += 1;
          continue;
        }
        const row = sheet.addRow({
          taxCode: aid.codiceFiscaleBeneficiario,
          name: aid.denominazioneBeneficiario,
          day: dayCell(parseIsoDay(aid.dataConcessione), aid.dataConcessione),
          measure: aid.titoloMisura,
          grantor: aid.soggettoConcedente,
          procedure: aid.desProcedimento,
          regulation: aid.desRegolamento,
          regulationCode: aid.codRegolamento,
          cor: aid.cor,
          car: aid.car,
          project: aid.titoloProgetto,
          cup: aid.cup,
          objective: aid.desObiettivo,
          sector: aid.settoreAttivita,
          region: aid.regioneBeneficiario,
          sourceFile: aid.sourceFile,
          nominal: aid.importoNominaleCents / 100,
          element: aid.elementoDiAiutoCents / 100,
          deMinimis: yesNo(isDeMinimisProcedure(aid.codProcedimento, aid.desProcedimento)),
          id: aid.idComponenteAiuto,
        });
        commitStreamed(row);
        written += 1;
      }
    },
    async finish(summaries, groups = []) {
      if (left > 0) {
        const note = sheet.addRow({
          taxCode: `${left === 1 ? 'Un altro aiuto non elencato' : `Altri ${formatInteger(left)} aiuti non elencati`}: il foglio ha raggiunto il numero massimo di righe di Excel. Il riepilogo li conta tutti; la ricerca della singola impresa li elenca.`,
        });
        note.font = { italic: true };
        commitStreamed(note);
      }
      commitStreamed(sheet);

      summary.columns = SUMMARY_COLUMNS;
      summary.getRow(1).font = { bold: true };
      commitStreamed(summary.getRow(1));
      const totals = { aids: 0, totalLast3Years: 0, deMinimisUsed: 0, exceeded: 0 };
      for (const company of summaries) {
        const row = summary.addRow({
          ...company,
          exceeded: yesNo(company.exceeded),
          warnings: company.warnings.join('; '),
        });
        if (company.exceeded) row.eachCell({ includeEmpty: true }, (cell) => (cell.fill = EXCEEDED_FILL));
        commitStreamed(row);
        totals.aids += company.aids;
        totals.totalLast3Years += Math.round(company.totalLast3Years * 100);
        totals.deMinimisUsed += Math.round(company.deMinimisUsed * 100);
        if (company.exceeded) totals.exceeded += 1;
      }
      const totalRow = summary.addRow({
        taxCode: 'Totale',
        name: `${formatInteger(summaries.length)} imprese`,
        aids: totals.aids,
        totalLast3Years: totals.totalLast3Years / 100,
        deMinimisUsed: totals.deMinimisUsed / 100,
        exceeded: `${formatInteger(totals.exceeded)} superati`,
      });
      totalRow.font = { bold: true };
      commitStreamed(totalRow);
      // when the figures were taken, as the report's summary says it: a date cell, Rome's wall clock
      commitStreamed(summary.addRow({}));
      const made = summary.addRow({ taxCode: 'Data generazione', name: romeDateTimeCell(generatedAt) });
      made.getCell('name').numFmt = DATE_TIME_FORMAT;
      made.getCell('name').alignment = { horizontal: 'left' };
      commitStreamed(made);
      commitStreamed(summary);
      if (groups.length > 0) writeGroupsSheet(workbook.addWorksheet('Imprese uniche', frozen), groups);
      await workbook.commit();
      return Buffer.concat(chunks);
    },
  };
}

// ---- PDF ----

const COMPANY_TABLE: TableLayout<BulkCompanySummary> = {
  columns: [
    { header: BULK_HEADERS.taxCode, align: 'left' },
    { header: BULK_HEADERS.name, align: 'left', weight: 0.55 },
    { header: BULK_HEADERS.aids, align: 'right' },
    { header: BULK_HEADERS.totalLast3Years, align: 'right' },
    { header: BULK_HEADERS.deMinimisUsed, align: 'right' },
    { header: BULK_HEADERS.remainingNow, align: 'right' },
    { header: BULK_HEADERS.remainingIn6Months, align: 'right' },
    { header: BULK_HEADERS.remainingIn12Months, align: 'right' },
    { header: BULK_HEADERS.warnings, align: 'left', weight: 0.45 },
  ],
  cells: (row) => [
    row.taxCode,
    row.name || '—',
    formatInteger(row.aids),
    formatEuroAmount(row.totalLast3Years),
    formatEuroAmount(row.deMinimisUsed),
    formatEuroAmount(row.remainingNow),
    formatEuroAmount(row.remainingIn6Months),
    formatEuroAmount(row.remainingIn12Months),
    row.warnings.join('; '),
  ],
  highlighted: (row) => row.exceeded,
};

export const BULK_PDF_TITLE = 'Ricerca massiva — riepilogo per impresa';
const BULK_PDF_SUBJECT =
  'Aiuti di Stato delle imprese di un elenco: de minimis utilizzato e residuo per impresa';

/** The logo of a data: URL, when it is a PNG or a JPEG pdf-lib can embed. */
async function embedLogo(doc: PDFDocument, dataUrl: string | null): Promise<PDFImage | null> {
  const match = dataUrl ? /^data:(image\/(?:png|jpeg));base64,(.*)$/s.exec(dataUrl) : null;
  if (!match) return null;
  // a buffer of its own: a small decoded Buffer is a slice of Node's shared pool, and pdf-lib read the
  // whole pool's bytes as the image (a 1.2 KB JPEG logo was silently dropped from the PDF)
  const bytes = new Uint8Array(Buffer.from(match[2]!, 'base64'));
  try {
    return match[1] === 'image/png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
  } catch {
    return null; // a logo pdf-lib cannot read: the summary goes without it
  }
}

/**
 * The branded PDF, in the report's design (pdf-template.ts): the title and the logo over a rule of
 * the client's colour, the list's parameters, the figures as cards, the note, then the companies'
 * table, starting on the same first page; the report's footers and numbering on every page.
 */
export async function bulkPdf(result: BulkResult, branding: ReportBranding): Promise<Buffer> {
  const { PDFDocument, PDFName } = pdfLibrary();
  const doc = await PDFDocument.create({ updateMetadata: false });
  setPortalMetadata(doc, {
    title: `${BULK_PDF_TITLE} – ${result.sourceName || 'elenco incollato'}`,
    subject: BULK_PDF_SUBJECT,
    organisation: branding.organisation,
    madeAt: result.generatedAt,
  });
  const context = doc.context;
  const fontDict = (baseFont: string) =>
    context.register(
      context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: baseFont, Encoding: 'WinAnsiEncoding' }),
    );
  const fonts = { regular: fontDict('Helvetica'), bold: fontDict('Helvetica-Bold') };
  const regular = new PdfTextFont('Helvetica');
  const bold = new PdfTextFont('Helvetica-Bold');
  const colour = safeColour(branding.primaryColor);
  const logo = await embedLogo(doc, branding.logoDataUrl);
  const logoScale = logo ? Math.min(LOGO_MAX_WIDTH / logo.width, LOGO_MAX_HEIGHT / logo.height, 1) : 0;
  const logoSize = logo ? { width: logo.width * logoScale, height: logo.height * logoScale } : null;

  const summary = summaryOperators(result, regular, bold, colour, logoSize?.height ?? 0);
  const table =
    result.summaries.length > 0
      ? await ReportTable.paginated(
          result.summaries,
          colour,
          `Riepilogo per impresa (${formatInteger(result.summaries.length)})`,
          COMPANY_TABLE,
          summary.bottom - SECTION_GAP,
        )
      : null;
  // the table's first page is the summary's when it starts under it
  const shared = table?.startsMidPage ? 1 : 0;
  const total = 1 + (table?.pageCount ?? 0) - shared;

  const addPage = (operators: string) => {
    const page = doc.addPage([PAGE.width, PAGE.height]);
    page.node.setFontDictionary(PDFName.of(FONT_REGULAR), fonts.regular);
    page.node.setFontDictionary(PDFName.of(FONT_BOLD), fonts.bold);
    page.node.addContentStream(context.register(context.flateStream(operators)));
    return page;
  };

  const first = addPage(
    summary.operators +
      (shared ? table!.pageOperators(0) : '') +
      footerOperators(regular, branding, 1, total),
  );
  if (logo && logoSize) {
    first.drawImage(logo, {
      x: PAGE.width - PAGE.right - logoSize.width,
      y: PAGE.height - PAGE.top - logoSize.height,
      ...logoSize,
    });
  }
  for (let i = shared; i < (table?.pageCount ?? 0); i++) {
    addPage(table!.pageOperators(i) + footerOperators(regular, branding, i + 2 - shared, total));
  }
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** The report's sizes (pdf-template.ts' CSS pixels at 0.75 pt each). */
const LOGO_MAX_WIDTH = 150;
const LOGO_MAX_HEIGHT = 36;
const TITLE_SIZE = 12;
const HEADING_SIZE = 9;
const TEXT_SIZE = 7.5;
const TEXT_LINE = 9.4;
const SECTION_GAP = 10.5;
const RULE_WIDTH = 2.25;
const CARD_GAP = 6;
const CARD_PADDING = 4.5;
const CARD_LABEL_SIZE = 6;
const CARD_VALUE_SIZE = 9.75;
const NOTE_SIZE = 6;
const NOTE_LINE = 7.5;
const GREY = '0.133 g';
const LABEL_GREY = '0.333 g';

/**
 * The first page's summary, drawn as the report lays its own out: header (title left, logo right,
 * coloured rule), "Parametri della ricerca", the figures as cards, the note. Returns the operators and
 * the height on the page where the summary ends.
 */
function summaryOperators(
  result: BulkResult,
  regular: PdfTextFont,
  bold: PdfTextFont,
  colour: string,
  logoHeight: number,
): { operators: string; bottom: number } {
  const companies = result.summaries.length;
  let withAids = 0;
  let aids = 0;
  let over = 0;
  for (const row of result.summaries) {
    if (row.aids > 0) withAids += 1;
    aids += row.aids;
    if (row.exceeded) over += 1;
  }
  const left = PAGE.left;
  const right = PAGE.width - PAGE.right;
  const width = right - left;
  const rgb = rgbOperands(colour);
  const text: string[] = [];
  const graphics: string[] = [];
  const n = (value: number) => value.toFixed(2);
  const write = (font: PdfTextFont, name: string, size: number, x: number, y: number, value: string) =>
    text.push(`/${name} ${size} Tf 1 0 0 1 ${n(x)} ${n(y)} Tm ${font.literal(value)} Tj`);
  const heading = (y: number, value: string) => {
    text.push(`${rgb} rg`);
    write(bold, FONT_BOLD, HEADING_SIZE, left, y - HEADING_SIZE, bold.printable(value));
    text.push(GREY);
    return y - HEADING_SIZE - 4.5;
  };

  // header: the title beside the logo, centred on it, and the coloured rule under both
  let y = PAGE.height - PAGE.top;
  const headerHeight = Math.max(logoHeight, TITLE_SIZE * 1.2);
  text.push(`${rgb} rg`);
  write(
    bold,
    FONT_BOLD,
    TITLE_SIZE,
    left,
    y - headerHeight / 2 - TITLE_SIZE * 0.35,
    bold.printable(BULK_PDF_TITLE),
  );
  y -= headerHeight + 4.5;
  graphics.push(`${rgb} rg ${n(left)} ${n(y - RULE_WIDTH)} ${n(width)} ${n(RULE_WIDTH)} re f`);
  y -= RULE_WIDTH + SECTION_GAP;

  // the list's parameters, as the report's "Parametri della ricerca"
  y = heading(y, 'Parametri della ricerca');
  const parameters: [string, string][] = [
    ['Elenco', result.sourceName || 'Elenco incollato'],
    ['Codici fiscali', formatInteger(companies)],
    ['Fonte dati', dataSourceLabel(result.dataSource)],
    ['Data generazione', formatItalianDateTime(result.generatedAt)],
    ['Scaricabile per', `${BULK_RESULT_DAYS} giorni`],
  ];
  const labelWidth = Math.max(...parameters.map(([label]) => bold.width(label, TEXT_SIZE))) + 9;
  for (const [label, value] of parameters) {
    write(bold, FONT_BOLD, TEXT_SIZE, left, y - TEXT_SIZE, bold.printable(label));
    const lines = wrapText(regular, regular.printable(value), TEXT_SIZE, width - labelWidth);
    lines.forEach((line, i) =>
      write(regular, FONT_REGULAR, TEXT_SIZE, left + labelWidth, y - TEXT_SIZE - i * TEXT_LINE, line),
    );
    y -= Math.max(1, lines.length) * TEXT_LINE;
  }
  y -= SECTION_GAP - 4.5;

  // the figures, as the report's cards
  y = heading(y, 'Totali');
  const cards: [string, string][] = [
    ['Imprese con almeno un aiuto', formatInteger(withAids)],
    ['Aiuti trovati', formatInteger(aids)],
    [`Oltre il massimale (${formatEuroAmount(DE_MINIMIS_CEILING_EURO, 0)})`, formatInteger(over)],
    ['Senza aiuti', formatInteger(companies - withAids)],
  ];
  const cardWidth = (width - CARD_GAP * (cards.length - 1)) / cards.length;
  const cardHeight = CARD_PADDING * 2 + CARD_LABEL_SIZE * 1.2 + 3 + CARD_VALUE_SIZE;
  graphics.push(`${rgb} RG 0.75 w`);
  cards.forEach(([label, value], i) => {
    const x = left + i * (cardWidth + CARD_GAP);
    graphics.push(`${n(x)} ${n(y - cardHeight)} ${n(cardWidth)} ${n(cardHeight)} re S`);
    const caption = bold.printable(label.toUpperCase());
    text.push(LABEL_GREY);
    write(
      regular,
      FONT_REGULAR,
      CARD_LABEL_SIZE,
      x + CARD_PADDING,
      y - CARD_PADDING - CARD_LABEL_SIZE,
      caption,
    );
    text.push(GREY);
    write(
      bold,
      FONT_BOLD,
      CARD_VALUE_SIZE,
      x + CARD_PADDING,
      y - cardHeight + CARD_PADDING + 1,
      bold.printable(value),
    );
  });
  y -= cardHeight + SECTION_GAP;

  // the note, with the report's coloured bar beside it
  const note =
    `${DE_MINIMIS_WINDOW_NOTE} I residui tra 6 e 12 mesi considerano solo l’uscita dalla finestra degli ` +
    'aiuti più vecchi, senza nuovi aiuti. Il dettaglio di ogni aiuto è nel file Excel della stessa ricerca.';
  const noteLines = wrapText(regular, regular.printable(note), NOTE_SIZE, width - 6.75);
  text.push('0.267 g');
  noteLines.forEach((line, i) =>
    write(regular, FONT_REGULAR, NOTE_SIZE, left + 6.75, y - NOTE_SIZE - i * NOTE_LINE, line),
  );
  const noteHeight = noteLines.length * NOTE_LINE;
  graphics.push(`${rgb} rg ${n(left)} ${n(y - noteHeight)} ${n(RULE_WIDTH)} ${n(noteHeight)} re f`);
  y -= noteHeight;

  return {
    operators: `q\n${graphics.join('\n')}\nQ\nBT\n${text.join('\n')}\nET\n`,
    bottom: y,
  };
}
