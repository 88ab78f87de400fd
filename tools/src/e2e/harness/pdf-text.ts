/**
 * The text of a downloaded PDF, page by page, as a reader would copy it. pdf.js 2.16's Node build
 * (legacy, CommonJS), not pdf-parse: the pdf.js 1.10 that pdf-parse bundles failed now and then with
 * "bad XRef entry" on the very same bytes of a PDF written by pdf-lib, once the machine was busy.
 */
import { readFile } from 'node:fs/promises';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.js';

export async function pdfPagesText(file: string): Promise<string[]> {
  const document = await getDocument({
    data: new Uint8Array(await readFile(file)),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
    }
    return pages;
  } finally {
    await document.destroy();
  }
}

export async function pdfText(file: string): Promise<string> {
  return (await pdfPagesText(file)).join('\n');
}
