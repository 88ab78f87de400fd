/** The bulk PDF carries the client's logo, whatever its format and size. */
import { PDFDict, PDFDocument, PDFName, PDFStream } from 'pdf-lib';
import sharp from 'sharp';
import { DEFAULT_BRANDING } from '../reports/report-input';
import { bulkPdf, type BulkResult } from './result-files';

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
