/** Reading a PDF's text back, page by page (tests only). */
import pdfParse from 'pdf-parse';

interface TextItem {
  str: string;
  transform: number[];
}

/**
 * The text of each page, in order (pdf-parse renders the pages one after another): pieces on one
 * baseline joined as they are (Chromium splits words), a new line for each new baseline.
 */
export async function pageTexts(pdf: Buffer): Promise<string[]> {
  const pages: string[] = [];
  await pdfParse(pdf, {
    pagerender: async (page: { getTextContent(): Promise<{ items: TextItem[] }> }) => {
      let text = '';
      let lastY: number | undefined;
      for (const item of (await page.getTextContent()).items) {
        if (lastY !== undefined && item.transform[5] !== lastY) text += '\n';
        text += item.str;
        lastY = item.transform[5];
      }
      pages.push(text);
      return text;
    },
  });
  return pages;
}
