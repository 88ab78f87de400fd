/**
 * report.pdf at any size: Chromium renders the summary (logo, parameters, totals, chart), whose
 * layout needs a browser; the table pages are drawn directly (pdf-table.ts), a few at a time, and
 * written after the summary's objects into one PDF with a single page tree and cross-reference
 * table. The table is paginated first, so every footer knows the total ("Pagina X di Y") before
 * the first byte goes out; then pages are produced as the reader takes them, so memory holds the
 * rows plus one chunk of pages, whatever the count.
 */
import { promisify } from 'node:util';
import { setImmediate as nextTurn } from 'node:timers/promises';
import zlib from 'node:zlib';
import type { PDFDocument, PDFObject, PDFPageLeaf, PDFRef } from 'pdf-lib';
import { PdfRenderError, type PdfRenderer } from '@rna/infra/pdf';
import { pdfLibrary } from '../http/document-libraries';
import { pdfSummaryHtml, SUMMARY_END_URL } from './pdf-template';
import { FONT_BOLD, FONT_REGULAR, PAGE, ReportTable } from './pdf-table';
import { PdfTextFont, wrapText } from './pdf-text';
import {
  safeColour,
  verificationLine,
  type ReportBranding,
  type ReportInput,
  type ReportVerification,
} from './report-input';

const deflate = promisify(zlib.deflate);

/** Table pages produced and compressed together: about 40 rows each. */
export const PAGES_PER_CHUNK = 25;

export interface PdfReport {
  pageCount: number;
  /** The PDF's bytes in order; each chunk is produced when the previous one has been taken. */
  chunks(): AsyncGenerator<Buffer>;
}

const FOOTER_SIZE = 6;
const FOOTER_LINE = 7.2;
const FOOTER_TOP = PAGE.bottom - 14;
const FOOTER_MAX_LINES = 4;

/**
 * The footer of page `page` of `total` (1-based): the client's footer lines left; numbering right,
 * with the report's verification code under it, so that any page on its own can be checked.
 */
export function footerOperators(
  font: PdfTextFont,
  branding: ReportBranding,
  page: number,
  total: number,
  verification?: ReportVerification,
): string {
  const label = `Pagina ${page} di ${total}`;
  const labelWidth = font.width(label, FOOTER_SIZE);
  const code = verification ? verificationLine(verification) : '';
  const codeWidth = code ? font.width(code, FOOTER_SIZE) : 0;
  const right = PAGE.width - PAGE.right;
  const room = right - PAGE.left - Math.max(labelWidth, codeWidth) - 12;
  const lines = [branding.footer1, branding.footer2]
    .filter((text) => text.trim() !== '')
    .flatMap((text) => wrapText(font, font.printable(text), FOOTER_SIZE, room))
    .slice(0, FOOTER_MAX_LINES);
  const at = (x: number, y: number, text: string) =>
    `1 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)} Tm ${font.literal(text)} Tj`;
  return [
    'BT',
    `/${FONT_REGULAR} ${FOOTER_SIZE} Tf 0.333 g`,
    ...lines.map((line, i) => at(PAGE.left, FOOTER_TOP - i * FOOTER_LINE, line)),
    at(right - labelWidth, FOOTER_TOP, label),
    ...(code ? [at(right - codeWidth, FOOTER_TOP - FOOTER_LINE, code)] : []),
    'ET',
  ].join('\n');
}

/**
 * Renders the summary with Chromium and paginates the table: any render error is thrown here,
 * before a byte of the answer is written.
 */
export async function preparePdfReport(input: ReportInput, renderer: PdfRenderer): Promise<PdfReport> {
  const rows = input.result.rows;
  // An empty footer template gives the summary the same margins as the drawn pages; the footer
  // itself is drawn later, when the total page count is known.
  const summaryBytes = renderer.render(pdfSummaryHtml(input), { footerTemplate: '<span></span>' });
  let summary: PDFDocument;
  try {
    summary = await pdfLibrary().PDFDocument.load(await summaryBytes, { updateMetadata: false });
  } catch (error) {
    if (error instanceof PdfRenderError) throw error;
    throw new PdfRenderError('The summary PDF could not be read', { cause: error });
  }
  // the table goes on under the summary, on its last page, rather than leaving the rest of it blank
  const summaryEnd = takeSummaryEnd(summary);
  const table =
    rows.length > 0
      ? await ReportTable.paginated(
          rows,
          safeColour(input.branding.primaryColor),
          `Documenti (${rows.length})`,
          undefined,
          summaryEnd === null ? undefined : summaryEnd - TABLE_GAP,
        )
      : null;
  // before joinedReport reserves the object numbers of the table pages: a new Info dictionary
  // takes the next one
  setPortalMetadata(summary, {
    title: reportTitle(input),
    subject: REPORT_SUBJECT,
    organisation: input.branding.organisation,
    madeAt: input.generatedAt,
  });
  return joinedReport(summary, table, input.branding, input.verification);
}

/** Space between the end of the summary and the table's title (an h2's top margin, 14 CSS px). */
const TABLE_GAP = 10.5;

/**
 * Where the summary ends on its last page (a height in points), read from the link Chromium writes
 * for the summary's end mark, which is then removed; null when there is no such mark.
 */
export function takeSummaryEnd(summary: PDFDocument): number | null {
  const { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFString } = pdfLibrary();
  const page = summary.getPages().at(-1);
  const annots = page?.node.Annots();
  if (!page || !annots) return null;
  let end: number | null = null;
  for (let i = annots.size() - 1; i >= 0; i--) {
    const annot = annots.lookupMaybe(i, PDFDict);
    const uri = annot
      ?.lookupMaybe(PDFName.of('A'), PDFDict)
      ?.lookupMaybe(PDFName.of('URI'), PDFString, PDFHexString);
    if (!annot || uri?.decodeText() !== SUMMARY_END_URL) continue;
    const rect = annot.lookup(PDFName.of('Rect'), PDFArray).asRectangle();
    end = end === null ? rect.y : Math.min(end, rect.y);
    const ref = annots.get(i);
    annots.remove(i);
    if (ref instanceof PDFRef) summary.context.delete(ref);
  }
  if (annots.size() === 0) page.node.delete(PDFName.of('Annots'));
  return end;
}

export const PORTAL_NAME = 'Portale Aiuti di Stato';

/** "Resoconto degli aiuti di Stato – 01234567897, RSSMRA80A01H501U": the PDF's title. */
export function reportTitle(input: ReportInput): string {
  const codes = input.result.taxCodes.join(', ');
  return codes ? `Resoconto degli aiuti di Stato – ${codes}` : 'Resoconto degli aiuti di Stato';
}

export const REPORT_SUBJECT = 'Aiuti di Stato registrati nel Registro Nazionale degli Aiuti di Stato';

export interface PortalDocument {
  title: string;
  /** what the document is about, as a PDF reader's properties show it */
  subject: string;
  /** the organisation of the client's brand ('' for none: the portal) */
  organisation: string;
  madeAt: Date;
}

/**
 * The document properties a PDF reader shows, the same on every PDF of the portal: Chromium's are
 * "HeadlessChrome" and "Skia/PDF", and no title. The portal made the document, for the organisation
 * of the client's brand.
 */
export function setPortalMetadata(pdf: PDFDocument, document: PortalDocument): void {
  pdf.setTitle(document.title, { showInWindowTitleBar: true });
  pdf.setSubject(document.subject);
  pdf.setAuthor(document.organisation || PORTAL_NAME);
  pdf.setCreator(PORTAL_NAME);
  pdf.setProducer(PORTAL_NAME);
  pdf.setLanguage('it-IT');
  pdf.setCreationDate(document.madeAt);
  pdf.setModificationDate(document.madeAt);
}

/** A PDF Chromium rendered, with the portal's document properties instead of Chromium's. */
export async function withPortalMetadata(pdf: Buffer, document: PortalDocument): Promise<Buffer> {
  let doc: PDFDocument;
  try {
    doc = await pdfLibrary().PDFDocument.load(pdf, { updateMetadata: false });
  } catch (error) {
    throw new PdfRenderError('The rendered PDF could not be read', { cause: error });
  }
  setPortalMetadata(doc, document);
  return Buffer.from(await doc.save({ updateFieldAppearances: false }));
}

function joinedReport(
  summary: PDFDocument,
  table: ReportTable | null,
  branding: ReportBranding,
  verification: ReportVerification | undefined,
): PdfReport {
  const { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef } = pdfLibrary();
  const context = summary.context;
  const footerFont = table?.regular ?? new PdfTextFont('Helvetica');
  const summaryPages = summary.getPages();
  // the table's first page is the summary's last one when it starts under the summary
  const shared = table?.startsMidPage ? 1 : 0;
  const tablePages = (table?.pageCount ?? 0) - shared;
  const total = summaryPages.length + tablePages;

  const fontDict = (baseFont: string) =>
    context.register(
      context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: baseFont, Encoding: 'WinAnsiEncoding' }),
    );
  const fonts = { regular: fontDict('Helvetica'), bold: fontDict('Helvetica-Bold') };

  // Chromium's own content may leave the graphics state changed: it is wrapped in q/Q first.
  summaryPages.forEach((page, i) => {
    const leaf: PDFPageLeaf = page.node;
    leaf.wrapContentStreams(context.register(context.stream('q')), context.register(context.stream('Q')));
    leaf.addContentStream(
      context.register(
        context.flateStream(footerOperators(footerFont, branding, i + 1, total, verification)),
      ),
    );
    leaf.setFontDictionary(PDFName.of(FONT_REGULAR), fonts.regular);
    if (table && shared && i === summaryPages.length - 1) {
      leaf.addContentStream(context.register(context.flateStream(table.pageOperators(0))));
      leaf.setFontDictionary(PDFName.of(FONT_BOLD), fonts.bold);
    }
  });

  // A new root holds Chromium's page tree, then the table pages, whose numbers are reserved now.
  const catalog = summary.catalog;
  const oldRoot = catalog.get(PDFName.of('Pages')) as PDFRef;
  const rootRef = context.nextRef();
  const firstTableObject = rootRef.objectNumber + 1;
  const pageObject = (i: number) => firstTableObject + 2 * i;
  const kids = PDFArray.withContext(context);
  kids.push(oldRoot);
  for (let i = 0; i < tablePages; i++) kids.push(PDFRef.of(pageObject(i)));
  context.assign(rootRef, context.obj({ Type: 'Pages', Kids: kids, Count: PDFNumber.of(total) }));
  context.lookup(oldRoot, PDFDict).set(PDFName.of('Parent'), rootRef);
  catalog.set(PDFName.of('Pages'), rootRef);
  const size = pageObject(tablePages);

  const pageResources =
    `/Resources << /Font << /${FONT_REGULAR} ${fonts.regular.objectNumber} 0 R ` +
    `/${FONT_BOLD} ${fonts.bold.objectNumber} 0 R >> >>`;

  async function* chunks(): AsyncGenerator<Buffer> {
    const writer = new ObjectWriter(size);
    yield writer.header();
    // Chromium's objects, the footers and the page tree: a few hundred kB at most.
    const parts: Buffer[] = [];
    for (const [ref, object] of context.enumerateIndirectObjects()) {
      const bytes = new Uint8Array(object.sizeInBytes());
      object.copyBytesInto(bytes, 0);
      parts.push(writer.object(ref.objectNumber, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)));
    }
    yield Buffer.concat(parts);
    if (table) {
      for (let first = 0; first < tablePages; first += PAGES_PER_CHUNK) {
        const last = Math.min(tablePages, first + PAGES_PER_CHUNK);
        const contents: Promise<Buffer>[] = [];
        for (let i = first; i < last; i++) {
          const operators =
            table.pageOperators(i + shared) +
            footerOperators(table.regular, branding, summaryPages.length + i + 1, total, verification);
          contents.push(deflate(Buffer.from(operators, 'latin1')));
        }
        const out: Buffer[] = [];
        const compressed = await Promise.all(contents);
        compressed.forEach((content, k) => {
          const i = first + k;
          out.push(
            writer.object(
              pageObject(i),
              `<< /Type /Page /Parent ${rootRef.objectNumber} 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] ` +
                `${pageResources} /Contents ${pageObject(i) + 1} 0 R >>`,
            ),
            writer.stream(pageObject(i) + 1, content),
          );
        });
        yield Buffer.concat(out);
        await nextTurn(); // other requests get the event loop between chunks
      }
    }
    yield writer.trailer(context.trailerInfo.Root, context.trailerInfo.Info);
  }

  return { pageCount: total, chunks };
}

/** Writes numbered objects and remembers where each one starts, for the cross-reference table. */
class ObjectWriter {
  private readonly offsets: number[];
  private position = 0;

  constructor(private readonly size: number) {
    this.offsets = new Array<number>(size).fill(-1);
  }

  header(): Buffer {
    return this.advance(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n\n', 'latin1'));
  }

  object(number: number, body: string | Buffer): Buffer {
    this.offsets[number] = this.position;
    const bytes = Buffer.concat([
      Buffer.from(`${number} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n\n', 'latin1'),
    ]);
    return this.advance(bytes);
  }

  stream(number: number, compressed: Buffer): Buffer {
    return this.object(
      number,
      Buffer.concat([
        Buffer.from(`<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n`, 'latin1'),
        compressed,
        Buffer.from('\nendstream', 'latin1'),
      ]),
    );
  }

  trailer(root: PDFObject | undefined, info: PDFObject | undefined): Buffer {
    const entries = this.offsets.map((offset, number) =>
      number === 0 || offset < 0 ? '0000000000 65535 f \n' : `${String(offset).padStart(10, '0')} 00000 n \n`,
    );
    const xref = this.position;
    return Buffer.from(
      `xref\n0 ${this.size}\n${entries.join('')}trailer\n<< /Size ${this.size}` +
        `${root ? ` /Root ${root.toString()}` : ''}${info ? ` /Info ${info.toString()}` : ''} >>\n` +
        `startxref\n${xref}\n%%EOF\n`,
      'latin1',
    );
  }

  private advance(bytes: Buffer): Buffer {
    this.position += bytes.length;
    return bytes;
  }
}
