/**
 * The PDF renderer contract: what every renderer of the reports must do (today Chromium through
 * playwright-core; a chunked or library renderer for large reports would run the same suite).
 */
import pdfParse from 'pdf-parse';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PdfRenderError, type PdfRenderer } from './port';

export function describePdfRendererContract(name: string, factory: () => PdfRenderer): void {
  describe(`PdfRenderer contract: ${name}`, () => {
    const renderer = factory();
    afterAll(() => renderer.close());

    it('renders HTML to a PDF whose text and page numbers can be read back', async () => {
      const pdf = await renderer.render('<h1>Aiuti di Stato</h1><p>Totale: 1.234,56 €</p>', {
        footerTemplate:
          '<div style="font-size:8px">Pagina <span class="pageNumber"></span> di <span class="totalPages"></span></div>',
      });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const parsed = await pdfParse(pdf);
      expect(parsed.text).toContain('Aiuti di Stato');
      expect(parsed.text).toContain('1.234,56 €');
      expect(parsed.text).toContain('Pagina 1 di 1');
    });

    it('serves more concurrent requests than its pool, each with its own content', async () => {
      const texts = Array.from({ length: 7 }, (_, i) => `Documento numero ${i}`);
      const pdfs = await Promise.all(texts.map((text) => renderer.render(`<p>${text}</p>`)));
      const parsed = await Promise.all(pdfs.map((pdf) => pdfParse(pdf)));
      parsed.forEach((result, i) => expect(result.text).toContain(texts[i]));
    });

    it('numbers every page of a long report in its footer', async () => {
    const rows = Array.from({ length: 120 }, (_, i) => `<tr><td>Aiuto ${i + 1}</td><td>${i + 1}.000,00 €</td></tr>`);
    const pdf = await renderer.render(`<table>${rows.join('')}</table>`, {
      footerTemplate: '<div style="font-size:8px">Pagina <span class="pageNumber"></span> di <span class="totalPages"></span></div>',
    });
    const parsed = await pdfParse(pdf);
    expect(parsed.numpages).toBeGreaterThan(1);
    expect(parsed.text).toContain(`Pagina ${parsed.numpages} di ${parsed.numpages}`);
    expect(parsed.text).toContain('Aiuto 120');
  }); // prettier-ignore

    it('runs no script of the report and fetches nothing but inline data', async () => {
      const requests: string[] = [];
      const server = http.createServer((req, res) => {
        requests.push(req.url ?? '');
        res.end('x');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const pdf = await renderer.render(
          `<p id="t">testo originale</p>` +
            `<script>document.getElementById('t').textContent = 'ESEGUITO';</script>` +
            `<img src="${origin}/leak.png"><link rel="stylesheet" href="${origin}/leak.css">` +
            `<img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7">`,
        );
        const text = (await pdfParse(pdf)).text;
        expect(text).toContain('testo originale');
        expect(text).not.toContain('ESEGUITO');
        expect(requests).toEqual([]);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('fails with a PdfRenderError, not a hang, once closed', async () => {
      const closing = factory();
      await closing.render('<p>prima</p>');
      await closing.close();
      await expect(closing.render('<p>dopo</p>')).rejects.toBeInstanceOf(PdfRenderError);
    });
  });
}
