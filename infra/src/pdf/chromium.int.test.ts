import pdfParse from 'pdf-parse';
import type { Browser } from 'playwright-core';
import { ChromiumPdfRenderer } from './chromium';
import { describePdfRendererContract } from './contract';
import { PdfQueueFullError } from './port';

describePdfRendererContract(
  'Chromium (playwright-core, Debian chromium)',
  () => new ChromiumPdfRenderer({ poolSize: 2 }),
);

describe('ChromiumPdfRenderer', () => {
  const renderer = new ChromiumPdfRenderer({ poolSize: 2 });
  afterAll(() => renderer.close());

  it('launches a new browser when the running one dies', async () => {
    await renderer.render('<p>prima</p>');
    const internals = renderer as unknown as { browser: Promise<Browser> | null };
    const browser = await internals.browser;
    await browser?.close();
    const pdf = await renderer.render('<p>dopo il riavvio</p>');
    expect((await pdfParse(pdf)).text).toContain('dopo il riavvio');
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
