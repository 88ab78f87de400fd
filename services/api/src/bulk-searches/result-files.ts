/**
 * A bulk search's results: the workbook (sheet "Riepilogo per impresa", one row per company with the
 * ones over the ceiling highlighted and a totals row; sheet "Aiuti", every aid) written by exceljs'
 * streaming writer, and the branded PDF summary (the client's logo, colour and footers; a table of the
 * companies drawn by the reports' pdf-lib pieces).
 */
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { PDFDocument, PDFName, type PDFImage } from 'pdf-lib';
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
import { commitStreamed, DATE_FORMAT, dayCell, EURO_FORMAT } from '../reports/excel';
import { footerOperators } from '../reports/pdf-report';
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

const SUMMARY_COLUMNS: Partial<ExcelJS.Column>[] = [
  { header: 'Codice fiscale', key: 'taxCode', width: 20 },
  { header: 'Beneficiario', key: 'name', width: 40 },
  { header: 'Numero aiuti', key: 'aids', width: 14 },
  { header: 'Totale ultimi 3 anni', key: 'totalLast3Years', width: 20, style: { numFmt: EURO_FORMAT } },
  { header: 'De minimis utilizzato', key: 'deMinimisUsed', width: 20, style: { numFmt: EURO_FORMAT } },
  { header: 'De minimis residuo oggi', key: 'remainingNow', width: 22, style: { numFmt: EURO_FORMAT } },
  { header: 'Residuo tra 6 mesi', key: 'remainingIn6Months', width: 20, style: { numFmt: EURO_FORMAT } },
  { header: 'Residuo tra 12 mesi', key: 'remainingIn12Months', width: 20, style: { numFmt: EURO_FORMAT } },
  { header: 'Massimale superato', key: 'exceeded', width: 18 },
  { header: 'Avvisi', key: 'warnings', width: 60 },
];

const AID_COLUMNS: Partial<ExcelJS.Column>[] = [
  { header: 'Codice fiscale', key: 'taxCode', width: 20 },
  { header: 'Beneficiario', key: 'name', width: 40 },
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
    { header: 'Contati dal', key: 'since', width: 12 },
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
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
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
    { header: 'Codice fiscale', align: 'left' },
    { header: 'Beneficiario', align: 'left', weight: 0.55 },
    { header: 'Aiuti', align: 'right' },
    { header: 'Totale ultimi 3 anni', align: 'right' },
    { header: 'De minimis utilizzato', align: 'right' },
    { header: 'Residuo oggi', align: 'right' },
    { header: 'Residuo tra 6 mesi', align: 'right' },
    { header: 'Residuo tra 12 mesi', align: 'right' },
    { header: 'Avvisi', align: 'left', weight: 0.45 },
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

/** The branded PDF: a first page with the logo, the job's figures and the note, then the companies' table. */
export async function bulkPdf(result: BulkResult, branding: ReportBranding): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle('Ricerca massiva — riepilogo per impresa');
  doc.setCreator('Portale Aiuti di Stato');
  const context = doc.context;
  const fontDict = (baseFont: string) =>
    context.register(
      context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: baseFont, Encoding: 'WinAnsiEncoding' }),
    );
  const fonts = { regular: fontDict('Helvetica'), bold: fontDict('Helvetica-Bold') };
  const regular = new PdfTextFont('Helvetica');
  const bold = new PdfTextFont('Helvetica-Bold');
  const colour = safeColour(branding.primaryColor);

  const table =
    result.summaries.length > 0
      ? await ReportTable.paginated(
          result.summaries,
          colour,
          `Riepilogo per impresa (${formatInteger(result.summaries.length)})`,
          COMPANY_TABLE,
        )
      : null;
  const total = 1 + (table?.pageCount ?? 0);

  const addPage = (operators: string) => {
    const page = doc.addPage([PAGE.width, PAGE.height]);
    page.node.setFontDictionary(PDFName.of(FONT_REGULAR), fonts.regular);
    page.node.setFontDictionary(PDFName.of(FONT_BOLD), fonts.bold);
    page.node.addContentStream(context.register(context.flateStream(operators)));
    return page;
  };

  // first page: logo, title, the job's figures
  const first = addPage(
    summaryOperators(result, regular, bold, colour) + footerOperators(regular, branding, 1, total),
  );
  const logo = await embedLogo(doc, branding.logoDataUrl);
  if (logo) {
    const scale = Math.min(160 / logo.width, 50 / logo.height, 1);
    first.drawImage(logo, {
      x: PAGE.left,
      y: PAGE.height - PAGE.top - logo.height * scale,
      width: logo.width * scale,
      height: logo.height * scale,
    });
  }
  for (let i = 0; i < (table?.pageCount ?? 0); i++) {
    addPage(table!.pageOperators(i) + footerOperators(regular, branding, i + 2, total));
  }
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

function summaryOperators(
  result: BulkResult,
  regular: PdfTextFont,
  bold: PdfTextFont,
  colour: string,
): string {
  const lines: { text: string; font: 'regular' | 'bold'; size: number; gap?: number }[] = [];
  const companies = result.summaries.length;
  let withAids = 0;
  let aids = 0;
  let over = 0;
  for (const row of result.summaries) {
    if (row.aids > 0) withAids += 1;
    aids += row.aids;
    if (row.exceeded) over += 1;
  }
  lines.push({ text: 'Ricerca massiva — riepilogo per impresa', font: 'bold', size: 16, gap: 10 });
  const facts: [string, string][] = [
    ['Elenco', result.sourceName || 'Elenco incollato'],
    ['Generato il', formatItalianDateTime(result.generatedAt)],
    ['Fonte dati', dataSourceLabel(result.dataSource)],
    ['Codici fiscali', formatInteger(companies)],
    ['Imprese con almeno un aiuto', formatInteger(withAids)],
    ['Aiuti trovati', formatInteger(aids)],
    [
      `Imprese oltre il massimale de minimis (${formatEuroAmount(DE_MINIMIS_CEILING_EURO, 0)})`,
      formatInteger(over),
    ],
    ['Scaricabile per', `${BULK_RESULT_DAYS} giorni`],
  ];
  for (const [label, value] of facts) lines.push({ text: `${label}: ${value}`, font: 'regular', size: 9 });
  const note =
    `${DE_MINIMIS_WINDOW_NOTE} I residui tra 6 e 12 mesi considerano solo l’uscita dalla finestra degli ` +
    'aiuti più vecchi, senza nuovi aiuti. Il dettaglio di ogni aiuto è nel file Excel della stessa ricerca.';
  const width = PAGE.width - PAGE.left - PAGE.right;
  const out: string[] = ['BT', `${rgbOperands(colour)} rg`];
  let y = PAGE.height - PAGE.top - 70;
  for (const line of lines) {
    const font = line.font === 'bold' ? bold : regular;
    out.push(`/${line.font === 'bold' ? FONT_BOLD : FONT_REGULAR} ${line.size} Tf`);
    for (const piece of wrapText(font, font.printable(line.text), line.size, width)) {
      out.push(`1 0 0 1 ${PAGE.left.toFixed(2)} ${y.toFixed(2)} Tm ${font.literal(piece)} Tj`);
      y -= line.size * 1.4;
    }
    if (line.font === 'bold') out.push('0.133 g');
    y -= line.gap ?? 0;
  }
  y -= 8;
  out.push(`/${FONT_REGULAR} 7 Tf 0.333 g`);
  for (const piece of wrapText(regular, regular.printable(note), 7, width)) {
    out.push(`1 0 0 1 ${PAGE.left.toFixed(2)} ${y.toFixed(2)} Tm ${regular.literal(piece)} Tj`);
    y -= 9;
  }
  out.push('ET');
  return `${out.join('\n')}\n`;
}
