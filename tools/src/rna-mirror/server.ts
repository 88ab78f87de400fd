/**
 * A local stand-in for the register (www.rna.gov.it) at its own paths: listing page, zip flow,
 * plain XML, conditional GET/HEAD, live look-up; with fault knobs for tests and benches.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { LISTING_PATH, XML_PATH_PREFIX, ZIP_REQUEST_PATH } from '@rna/infra/register';
import { hashString } from '../generator/random';
import {
  RepresentationCache,
  scanFolder,
  type Representation,
  type RepresentationHeaders,
  type ServedFile,
} from './archive-folder';
import { renderListing } from './listing-page';
import { LiveIndex } from './live-lookup';

export const LIVE_LOOKUP_PATH = '/rna/oracle/query/trasparenza/aiuti';
const ZIP_DOWNLOAD_PREFIX = '/sites/rna.mise.gov.it/files/opendata/download_zips/';

export interface MirrorFaults {
  /** Throttle file transfers to this many bytes per second. */
  bytesPerSecond: number | null;
  /** Drop the connection after this many body bytes of a file transfer. */
  resetAfterBytes: number | null;
  /** How many transfers to reset before behaving again (default: all). */
  resetTimes: number;
  /** Answer 503 (maintenance) to every request. */
  maintenance: boolean;
  /** Serve zips cut at 60 % of their length. */
  truncateZip: boolean;
  /** Files (names without prefix, e.g. 2024_01_002) answered with 503 while the others are served. */
  unavailableFiles: readonly string[];
}

export interface MirrorOptions {
  dir: string;
  port?: number;
  host?: string;
  faults?: Partial<MirrorFaults>;
}

export interface MirrorStats {
  downloads: number;
  notModified: number;
  bytesSent: number;
}

export interface RunningMirror {
  url: string;
  setFaults(faults: Partial<MirrorFaults>): void;
  stats(): MirrorStats;
  close(): Promise<void>;
}

const NO_FAULTS: MirrorFaults = {
  bytesPerSecond: null,
  resetAfterBytes: null,
  resetTimes: Number.POSITIVE_INFINITY,
  maintenance: false,
  truncateZip: false,
  unavailableFiles: [],
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function isNotModified(request: http.IncomingMessage, representation: RepresentationHeaders): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch) return ifNoneMatch.split(',').some((tag) => tag.trim() === representation.etag);
  const ifModifiedSince = request.headers['if-modified-since'];
  if (ifModifiedSince) {
    const since = Date.parse(ifModifiedSince);
    return !Number.isNaN(since) && representation.lastModified.getTime() <= since;
  }
  return false;
}

export async function startMirror(options: MirrorOptions): Promise<RunningMirror> {
  let faults: MirrorFaults = { ...NO_FAULTS, ...options.faults };
  const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'rna-mirror-'));
  const cache = new RepresentationCache(cacheDir);
  const live = new LiveIndex();
  const zipTokens = new Map<string, string>(); // hex → file name
  const stats: MirrorStats = { downloads: 0, notModified: 0, bytesSent: 0 };

  const findFile = async (name: string | undefined): Promise<ServedFile | null> => {
    if (!name) return null;
    return (await scanFolder(options.dir)).find((f) => f.name === name) ?? null;
  };

  async function sendFile(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    representation: Representation | RepresentationHeaders,
    contentType: string,
    truncate: boolean,
  ): Promise<void> {
    const length = truncate ? Math.floor(representation.size * 0.6) : representation.size;
    const headers = {
      'content-type': contentType,
      'last-modified': representation.lastModified.toUTCString(),
      etag: representation.etag,
      'accept-ranges': 'none',
    };
    if (isNotModified(request, representation)) {
      stats.notModified++;
      response.writeHead(304, headers).end();
      return;
    }
    response.writeHead(200, { ...headers, 'content-length': String(length) });
    if (request.method === 'HEAD' || length === 0) {
      response.end();
      return;
    }
    if (!('path' in representation)) throw new Error('representation without a body');
    stats.downloads++;
    const resetAt = faults.resetAfterBytes !== null && faults.resetTimes > 0 ? faults.resetAfterBytes : null;
    if (resetAt !== null) faults.resetTimes--;
    const throttle = faults.bytesPerSecond;
    const chunkSize = throttle ? Math.max(1024, Math.min(64 * 1024, Math.floor(throttle / 10))) : 64 * 1024;
    let sent = 0;
    for await (const chunk of createReadStream(representation.path, {
      end: length - 1,
      highWaterMark: chunkSize,
    })) {
      let piece = chunk as Buffer;
      if (resetAt !== null && sent + piece.length >= resetAt) {
        piece = piece.subarray(0, Math.max(0, resetAt - sent));
        if (piece.length > 0) response.write(piece);
        stats.bytesSent += piece.length;
        await sleep(20); // let the partial body reach the client before the reset
        response.socket?.destroy();
        return;
      }
      if (!response.write(piece)) await once(response, 'drain');
      sent += piece.length;
      stats.bytesSent += piece.length;
      if (throttle) await sleep((piece.length / throttle) * 1000);
      if (response.destroyed) return;
    }
    response.end();
  }

  const unavailable = (response: http.ServerResponse) => {
    response.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'retry-after': '60' });
    response.end('<html><body><h1>Servizio temporaneamente non disponibile</h1></body></html>');
  };

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://mirror');
    if (faults.maintenance) {
      request.resume();
      response.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'retry-after': '3600' });
      response.end('<html><body><h1>Sito in manutenzione</h1></body></html>');
      return;
    }
    if ((request.method === 'GET' || request.method === 'HEAD') && url.pathname === LISTING_PATH) {
      const html = renderListing(await scanFolder(options.dir));
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(request.method === 'HEAD' ? undefined : html);
      return;
    }
    if (request.method === 'POST' && url.pathname === ZIP_REQUEST_PATH) {
      let nid: unknown;
      try {
        const body = JSON.parse(await readBody(request)) as { nids?: unknown; file_extension?: unknown };
        nid = body.file_extension === 'zip' ? body.nids : undefined;
      } catch {
        nid = undefined;
      }
      const file = (await scanFolder(options.dir)).find((f) => f.nid === String(nid));
      if (file && faults.unavailableFiles.includes(file.name)) {
        unavailable(response);
        return;
      }
      if (!file) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      const hex = hashString(`${file.name}:${file.mtimeMs}:${file.size}`).toString(16).padStart(8, '0');
      zipTokens.set(hex, file.name);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ content: `${ZIP_DOWNLOAD_PREFIX}Opendata-${hex}.zip` }));
      return;
    }
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      url.pathname.startsWith(ZIP_DOWNLOAD_PREFIX)
    ) {
      const hex = /^Opendata-([0-9a-f]+)\.zip$/.exec(url.pathname.slice(ZIP_DOWNLOAD_PREFIX.length))?.[1];
      const file = await findFile(hex ? zipTokens.get(hex) : undefined);
      if (file && faults.unavailableFiles.includes(file.name)) {
        unavailable(response);
        return;
      }
      if (!file) {
        response.writeHead(404).end();
        return;
      }
      await sendFile(request, response, await cache.zip(file), 'application/zip', faults.truncateZip);
      return;
    }
    if ((request.method === 'GET' || request.method === 'HEAD') && url.pathname.startsWith(XML_PATH_PREFIX)) {
      const match = /^OpenData_Aiuti_(\d{4}_\d{2}(?:_\d{3})?)\.xml$/.exec(
        url.pathname.slice(XML_PATH_PREFIX.length),
      );
      const file = await findFile(match?.[1]);
      if (file && faults.unavailableFiles.includes(file.name)) {
        unavailable(response);
        return;
      }
      if (!file) {
        response.writeHead(404).end();
        return;
      }
      const xml = request.method === 'HEAD' ? await cache.xmlHeaders(file) : await cache.xml(file);
      await sendFile(request, response, xml, 'application/xml', false);
      return;
    }
    if (request.method === 'POST' && url.pathname === LIVE_LOOKUP_PATH) {
      const form = new URLSearchParams(await readBody(request));
      const taxCode = form.get('values[cfBen]') ?? '';
      const data = taxCode ? await live.lookup(await scanFolder(options.dir), taxCode) : [];
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ recordsTotal: data.length, recordsFiltered: data.length, data, sleep: 30 }),
      );
      return;
    }
    request.resume();
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(error instanceof Error ? error.message : 'errore');
    });
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    setFaults: (next) => {
      faults = { ...faults, ...next };
    },
    stats: () => ({ ...stats }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(cacheDir, { recursive: true, force: true });
    },
  };
}
