/**
 * HTTP client of the register's open-data archive. Transfers are streams end to end
 * (socket → byte counter → unzip → caller), so a 1 GB month never sits in memory.
 */
import http from 'node:http';
import https from 'node:https';
import { finished, pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { DomainError } from '@rna/domain';
import { parseListingHtml } from './listing';
import { unzippedXml } from './unzipped-xml';
import type { DownloadOptions, DownloadResult, RegisterClient, RegisterFileInfo } from './port';

export interface HttpRegisterOptions {
  baseUrl: string;
  /** Attempts per request on network errors and 5xx (default 4). */
  attempts?: number;
  /** First back-off delay in ms, doubled each attempt (default 500). */
  backoffMs?: number;
  /** Per-request inactivity timeout in ms (default 60 s). */
  timeoutMs?: number;
}

export const LISTING_PATH = '/open-data/aiuti';
export const ZIP_REQUEST_PATH = '/opendata/misure-agevolative/download';
export const XML_PATH_PREFIX = '/sites/rna.mise.gov.it/files/opendata/';

interface RequestSpec {
  method: 'GET' | 'HEAD' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/** A failure worth retrying: the network, or the register answering 5xx. */
class TransientError extends Error {
  constructor(
    message: string,
    public readonly status: number | null,
  ) {
    super(message);
  }
}

function send(spec: RequestSpec, timeoutMs: number): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const url = new URL(spec.url);
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, { method: spec.method, headers: spec.headers }, resolve);
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    request.on('error', (error) => reject(new TransientError(error.message, null)));
    request.end(spec.body);
  });
}

async function readText(response: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class ByteCounter extends Transform {
  received = 0;
  constructor(private readonly report: (received: number) => void) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    this.report(this.received);
    callback(null, chunk);
  }
}

const header = (response: http.IncomingMessage, name: string): string | null => {
  const value = response.headers[name];
  return typeof value === 'string' ? value : null;
};
const contentLength = (response: http.IncomingMessage): number | null => {
  const value = header(response, 'content-length');
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
};

export class HttpRegisterClient implements RegisterClient {
  private readonly baseUrl: string;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly timeoutMs: number;

  constructor(options: HttpRegisterOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.attempts = options.attempts ?? 4;
    this.backoffMs = options.backoffMs ?? 500;
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  /**
   * Sends with retries on network errors and 5xx. Answers below 500 are returned as they are.
   * When every attempt failed the register counts as unavailable: DomainError G007.
   */
  private async request(spec: RequestSpec): Promise<http.IncomingMessage> {
    let last: TransientError | null = null;
    for (let attempt = 0; attempt < this.attempts; attempt++) {
      if (attempt > 0) await sleep(this.backoffMs * 2 ** (attempt - 1));
      try {
        const response = await send(spec, this.timeoutMs);
        if ((response.statusCode ?? 500) >= 500) {
          response.resume();
          throw new TransientError(`HTTP ${response.statusCode}`, response.statusCode ?? 500);
        }
        return response;
      } catch (error) {
        if (!(error instanceof TransientError)) throw error;
        last = error;
      }
    }
    throw new DomainError('G007', `Registro RNA non disponibile (${last?.message ?? 'errore di rete'})`);
  }

  private url(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  async listFiles(): Promise<RegisterFileInfo[]> {
    const response = await this.request({ method: 'GET', url: this.url(LISTING_PATH) });
    if (response.statusCode !== 200) {
      response.resume();
      throw new DomainError('G007', `Elenco dei file RNA non disponibile (HTTP ${response.statusCode})`);
    }
    const entries = parseListingHtml(await readText(response));
    const files: RegisterFileInfo[] = [];
    for (const entry of entries) {
      let head: http.IncomingMessage | null;
      try {
        head = await this.request({ method: 'HEAD', url: this.url(XML_PATH_PREFIX + entry.fileName) });
        head.resume();
      } catch (error) {
        // One file the register cannot serve now is that file's failure (its download fails and is
        // retried next run), not the whole register's: the listing answered.
        if (!(error instanceof DomainError && error.code === 'G007')) throw error;
        head = null;
      }
      const ok = head?.statusCode === 200;
      files.push({
        ...entry,
        etag: ok && head ? header(head, 'etag') : null,
        lastModified: ok && head ? header(head, 'last-modified') : null,
        size: ok && head ? contentLength(head) : null,
      });
    }
    return files;
  }

  /** The zip flow: ask the register for a zip of the file, then fetch the path it answers. */
  private async zipUrl(file: RegisterFileInfo): Promise<string> {
    const response = await this.request({
      method: 'POST',
      url: this.url(ZIP_REQUEST_PATH),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        origin: this.baseUrl,
        referer: this.url(LISTING_PATH),
      },
      body: JSON.stringify({ nids: file.nid, file_extension: 'zip' }),
    });
    const text = await readText(response);
    if (response.statusCode !== 200) {
      throw new Error(`richiesta zip di ${file.name} rifiutata (HTTP ${response.statusCode})`);
    }
    let content: unknown;
    try {
      content = (JSON.parse(text) as { content?: unknown }).content;
    } catch {
      content = undefined;
    }
    if (typeof content !== 'string' || content === '') {
      throw new Error(`risposta zip di ${file.name} senza percorso del file`);
    }
    return content.startsWith('http') ? content : this.url(content);
  }

  async download(file: RegisterFileInfo, options: DownloadOptions = {}): Promise<DownloadResult> {
    const useZip = (options.preferZip ?? true) && file.formats.includes('zip') && file.nid !== null;
    const url = useZip ? await this.zipUrl(file) : this.url(XML_PATH_PREFIX + file.fileName);
    const headers: Record<string, string> = {};
    if (options.ifNoneMatch) headers['if-none-match'] = options.ifNoneMatch;
    if (options.ifModifiedSince) headers['if-modified-since'] = options.ifModifiedSince;
    const response = await this.request({ method: 'GET', url, headers });
    if (response.statusCode === 304) {
      response.resume();
      return { status: 'unchanged' };
    }
    if (response.statusCode !== 200) {
      response.resume();
      throw new Error(`download di ${file.name} rifiutato (HTTP ${response.statusCode})`);
    }
    const totalBytes = contentLength(response);
    const counter = new ByteCounter((receivedBytes) => options.onProgress?.({ receivedBytes, totalBytes }));
    // A body that ends before Content-Length (connection reset) must fail, not look complete.
    response.on('aborted', () => response.destroy(new Error('connessione interrotta durante il download')));
    response.on('end', () => {
      if (totalBytes !== null && counter.received < totalBytes) {
        counter.destroy(
          new Error(`download di ${file.name} incompleto (${counter.received}/${totalBytes} byte)`),
        );
      }
    });
    const noop = () => undefined;
    const original = options.keepOriginal?.(useZip ? 'zip' : 'xml');
    if (original) {
      // the same bytes to a second reader; a failure of either side fails the download
      counter.pipe(original);
      // an error or a reader that gave up (premature close) ends the copy too: nothing half kept
      finished(counter, (error) => error && original.destroy(error));
      original.once('error', (error) => counter.destroy(error));
    }
    const downloaded = pipeline(response, counter, noop);
    const xml: Readable = useZip ? unzippedXml(downloaded) : downloaded;
    return { status: 'ok', xml, totalBytes, format: useZip ? 'zip' : 'xml' };
  }
}
