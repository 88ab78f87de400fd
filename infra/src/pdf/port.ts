/** PDF renderer port: HTML in, PDF bytes out. */

export interface PdfRenderOptions {
  /** Chromium print footer (may use the classes pageNumber / totalPages). */
  footerTemplate?: string;
  headerTemplate?: string;
  landscape?: boolean;
}

export interface PdfRenderer {
  render(html: string, options?: PdfRenderOptions): Promise<Buffer>;
  /** Frees the browser; renders asked for afterwards fail. */
  close(): Promise<void>;
}

/** Too many PDFs already waiting: the caller should answer 429 rather than queue without end. */
export class PdfQueueFullError extends Error {
  readonly code = 'PDF_QUEUE_FULL' as const;
  constructor(public readonly waiting: number) {
    super(`${waiting} PDF reports already waiting`);
    this.name = 'PdfQueueFullError';
  }
}

/** The renderer could not produce the PDF (browser missing, crashed, timed out). */
export class PdfRenderError extends Error {
  readonly code = 'PDF_RENDER_FAILED' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PdfRenderError';
  }
}
