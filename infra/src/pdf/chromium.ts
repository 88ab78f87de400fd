/**
 * Chromium adapter of the PDF renderer: one headless browser kept warm, a small pool of reused
 * pages (a fresh page per PDF costs several hundred ms more), bounded concurrency, and a relaunch
 * when the browser dies. Uses the system's Chromium; never downloads one.
 */
import type { Browser, Page } from 'playwright-core';
import { PdfQueueFullError, PdfRenderError, type PdfRenderOptions, type PdfRenderer } from './port';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

export interface ChromiumPdfOptions {
  /** Defaults to CHROMIUM_PATH, then /usr/bin/chromium. */
  executablePath?: string;
  /** Pages rendering at once; further requests wait their turn. */
  poolSize?: number;
  /** Per PDF, including the wait for a page. */
  timeoutMs?: number;
  /** Renders that may wait for a page; past it render() fails at once with PdfQueueFullError. */
  maxWaiting?: number;
}

interface Waiter {
  resolve: (page: Page) => void;
  reject: (error: Error) => void;
}

export function chromiumExecutablePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH && env.CHROMIUM_PATH.trim() !== '' ? env.CHROMIUM_PATH : '/usr/bin/chromium';
}

export class ChromiumPdfRenderer implements PdfRenderer {
  private readonly executablePath: string;
  private readonly poolSize: number;
  private readonly timeoutMs: number;
  private readonly maxWaiting: number;
  private browser: Promise<Browser> | null = null;
  private readonly idle: Page[] = [];
  private readonly waiters: Waiter[] = [];
  private pagesOpen = 0;
  private closed = false;

  constructor(options: ChromiumPdfOptions = {}) {
    this.executablePath = options.executablePath ?? chromiumExecutablePath();
    this.poolSize = Math.max(1, options.poolSize ?? 3);
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.maxWaiting = Math.max(0, options.maxWaiting ?? 20);
  }

  async render(html: string, options: PdfRenderOptions = {}): Promise<Buffer> {
    const page = await this.acquirePage();
    let healthy = true;
    let timer: NodeJS.Timeout | undefined;
    try {
      const work = (async () => {
        await page.setContent(html, { waitUntil: 'load', timeout: this.timeoutMs });
        const withFooter = options.footerTemplate !== undefined || options.headerTemplate !== undefined;
        return page.pdf({
          format: 'A4',
          landscape: options.landscape ?? false,
          printBackground: true,
          displayHeaderFooter: withFooter,
          headerTemplate: options.headerTemplate ?? '<span></span>',
          footerTemplate: options.footerTemplate ?? '<span></span>',
          margin: withFooter
            ? { top: '12mm', bottom: '18mm', left: '10mm', right: '10mm' }
            : { top: '10mm', bottom: '10mm', left: '10mm', right: '10mm' },
        });
      })();
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new PdfRenderError('PDF rendering timed out')), this.timeoutMs);
      });
      return await Promise.race([work, timeout]);
    } catch (error) {
      healthy = false;
      if (error instanceof PdfRenderError) throw error;
      throw new PdfRenderError('PDF rendering failed', { cause: error });
    } finally {
      if (timer) clearTimeout(timer);
      this.releasePage(page, healthy);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new PdfRenderError('PDF renderer closed'));
    const browser = this.browser;
    this.browser = null;
    this.idle.length = 0;
    this.pagesOpen = 0;
    if (browser) {
      try {
        await (await browser).close();
      } catch {
        // already gone: nothing to free
      }
    }
  }

  private launch(): Promise<Browser> {
    if (!this.browser) {
      // playwright-core is loaded with the first PDF, not with the API: requiring it costs a process
      // ~30 MB of heap and ~70 MB resident (7 MB of bundled source), which every process composing
      // the API carried — the portal through a whole-register sync, a rebuild — PDF or not
      const launching = import('playwright-core')
        .then(({ chromium }) =>
          chromium.launch({ executablePath: this.executablePath, headless: true, args: [...CHROMIUM_ARGS] }),
        )
        .then((browser) => {
          // A crashed or killed browser is forgotten: the next render launches a new one.
          browser.on('disconnected', () => {
            if (this.browser === launching) this.forgetBrowser();
          });
          return browser;
        });
      launching.catch(() => {
        if (this.browser === launching) this.forgetBrowser();
      });
      this.browser = launching;
    }
    return this.browser;
  }

  private forgetBrowser(): void {
    this.browser = null;
    this.idle.length = 0;
    this.pagesOpen = 0;
    // Waiters were promised a page of the dead browser: serve them from the next one.
    const waiting = this.waiters.splice(0);
    for (const waiter of waiting) this.openPage().then(waiter.resolve, waiter.reject);
  }

  private async acquirePage(): Promise<Page> {
    if (this.closed) throw new PdfRenderError('PDF renderer closed');
    const page = this.idle.pop();
    if (page && !page.isClosed()) return page;
    if (page) this.pagesOpen -= 1;
    if (this.pagesOpen < this.poolSize) return this.openPage();
    if (this.waiters.length >= this.maxWaiting) throw new PdfQueueFullError(this.waiters.length);
    return new Promise<Page>((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private async openPage(): Promise<Page> {
    this.pagesOpen += 1;
    try {
      const browser = await this.launch();
      // A report is HTML the portal wrote, with its images inline: it needs no script and no
      // network. Both are off, so that nothing in a report's data can run or fetch anything.
      const page = await browser.newPage({ javaScriptEnabled: false });
      await page.route('**/*', (route) =>
        route.request().url().startsWith('data:') ? route.continue() : route.abort('blockedbyclient'),
      );
      return page;
    } catch (error) {
      this.pagesOpen = Math.max(0, this.pagesOpen - 1);
      throw new PdfRenderError(`Cannot start Chromium at ${this.executablePath}`, { cause: error });
    }
  }

  private releasePage(page: Page, healthy: boolean): void {
    if (!healthy || page.isClosed() || this.closed) {
      this.pagesOpen = Math.max(0, this.pagesOpen - 1);
      page.close().catch(() => undefined);
      const waiter = this.waiters.shift();
      if (waiter && !this.closed) this.openPage().then(waiter.resolve, waiter.reject);
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(page);
    else this.idle.push(page);
  }
}
