import pdfParse from 'pdf-parse';
import type { Browser } from 'playwright-core';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChromiumPdfRenderer } from './chromium';
import { PdfQueueFullError } from './port';

describe('ChromiumPdfRenderer', () => {
  const renderer = new ChromiumPdfRenderer({ poolSize: 2 });
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

  it('launches a new browser when the running one dies', async () => {
    await renderer.render('<p>prima</p>');
    const internals = renderer as unknown as { browser: Promise<Browser> | null };
    const browser = await internals.browser;
    await browser?.close();
    const pdf = await renderer.render('<p>dopo il riavvio</p>');
    expect((await pdfParse(pdf)).text).toContain('dopo il riavvio');
  });

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

  it('refuses at once, instead of queueing without end, when too many reports wait', async () => {
    const small = new ChromiumPdfRenderer({ poolSize: 1, maxWaiting: 2 });
    try {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => small.render(`<p>Documento ${i}</p>`)),
      );
      const refused = outcomes.filter((o) => o.status === 'rejected');
      expect(outcomes.filter((o) => o.status === 'fulfilled').length).toBeGreaterThanOrEqual(3);
      expect(refused.length).toBeGreaterThan(0);
      for (const outcome of refused)
        expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(PdfQueueFullError);
    } finally {
      await small.close();
    }
  });

  it('fails clearly when Chromium is missing', async () => {
    const broken = new ChromiumPdfRenderer({ executablePath: '/nonexistent/chromium' });
    await expect(broken.render('<p>x</p>')).rejects.toThrow('Cannot start Chromium');
    await broken.close();
  });
});
