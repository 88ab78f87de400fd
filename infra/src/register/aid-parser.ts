/**
 * Streaming parser of the register's open-data XML (`LISTA_AIUTI`): one AidRecord per
 * COMPONENTE_AIUTO, with the concession's fields and the sum of its instruments' amounts.
 * Parsing runs in a worker thread (its own core) fed with the raw bytes, while this thread
 * keeps downloading, unzipping and handling batches. Memory stays flat: at most 4 MB of XML
 * (by default) are in flight to the worker, and the stream is read on only while the batch handler keeps up.
 */
import { PassThrough, type Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { AidRecord } from '@rna/domain';
import { workerScript, type WorkerScript } from '../embedded/worker-script';
import { AidExtractor, RegisterFileFormatError, type ExtractorReport } from './aid-extractor';
import { handsOverChunks } from './unzipped-xml';
import {
  encodeAidBatch,
  type EncodedAidBatch,
  type FromParseWorker,
  type ParseWorkerData,
  type ToParseWorker,
} from './aid-parse-protocol';

export { decimalToCents, RegisterFileFormatError } from './aid-extractor';
export type { EncodedAidBatch } from './aid-parse-protocol';

/** XML bytes handed to the worker and not parsed yet: bounds memory and how far it runs ahead. */
export const MAX_IN_FLIGHT_BYTES = 4 * 1024 * 1024;

interface CommonParseOptions {
  sourceFile: string;
  importId: string;
  /** The sync's clock: a record granted more than a year after it is rejected. */
  now: Date | number;
  batchSize?: number;
  /** Parse on this thread instead of a worker thread (default: worker when available). */
  inline?: boolean;
  /**
   * XML bytes that may wait in the worker (default MAX_IN_FLIGHT_BYTES). Streams parsed at once
   * share the default between them: each one's parsed batches wait on this thread as well.
   */
  maxInFlightBytes?: number;
}

/** Batches as records, or already encoded as JSON (what a publisher stores); awaited before the parser reads on. */
export type ParseOptions = CommonParseOptions &
  (
    | { onBatch: (records: AidRecord[]) => Promise<void> }
    | { onEncodedBatch: (batch: EncodedAidBatch) => Promise<void> }
  );

/** Hands `records` to whichever handler the caller gave. */
function deliver(options: ParseOptions, records: AidRecord[]): Promise<void> {
  return 'onBatch' in options ? options.onBatch(records) : options.onEncodedBatch(encodeAidBatch(records));
}

export type ParseReport = ExtractorReport;

/** Parses one register XML stream; rejects with RegisterFileFormatError on ill-formed XML. */
export async function parseAidStream(xml: Readable, options: ParseOptions): Promise<ParseReport> {
  const batchSize = options.batchSize ?? 2000;
  const worker = options.inline ? null : workerScript(__dirname, 'aid-parse-worker');
  try {
    return worker
      ? await parseInWorker(xml, options, batchSize, worker)
      : await parseInline(xml, options, batchSize);
  } catch (error) {
    xml.destroy();
    throw error;
  }
}

/** Some producers (unzipper's entries) are streams of an older kind, without async iteration. */
function iterable(xml: Readable): AsyncIterable<Buffer | string> {
  if (typeof (xml as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function') {
    return xml as AsyncIterable<Buffer | string>;
  }
  const through = new PassThrough();
  xml.on('error', (error) => through.destroy(error));
  return xml.pipe(through);
}

const toBytes = (chunk: Buffer | string): Uint8Array =>
  typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;

/**
 * A chunk's bytes in a buffer of their own, which can be transferred to the parser's thread: the
 * chunk itself when it spans the whole of its ArrayBuffer and its stream hands its chunks over
 * (handsOverChunks), else a copy. Each copy is memory outside V8's heap that this thread's
 * collector counts: the XML's own bytes once more, for nothing.
 */
function ownBytes(chunk: Uint8Array, handedOver: boolean): Uint8Array {
  const whole = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
  return handedOver && whole && chunk.buffer instanceof ArrayBuffer ? chunk : new Uint8Array(chunk);
}

async function parseInline(xml: Readable, options: ParseOptions, batchSize: number): Promise<ParseReport> {
  const extractor = new AidExtractor(options.sourceFile, options.importId, options.now);
  for await (const chunk of iterable(xml)) {
    extractor.write(toBytes(chunk));
    while (extractor.pendingCount >= batchSize) await deliver(options, extractor.take(batchSize));
  }
  const report = extractor.end();
  while (extractor.pendingCount > 0) await deliver(options, extractor.take(batchSize));
  return report;
}

/** Messages from the worker, in order, awaited one at a time. */
class Inbox {
  private readonly queue: FromParseWorker[] = [];
  private waiter: ((message: FromParseWorker) => void) | null = null;

  constructor(worker: Worker) {
    const fail = (message: string) => this.push({ type: 'error', message, line: null, formatError: false });
    worker.on('message', (message: FromParseWorker) => this.push(message));
    worker.on('error', (error) => fail(`parser thread failed: ${error.message}`));
    worker.on('exit', (code) => fail(`parser thread exited (${code})`));
  }

  get ready(): boolean {
    return this.queue.length > 0;
  }

  next(): Promise<FromParseWorker> {
    const message = this.queue.shift();
    if (message) return Promise.resolve(message);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  private push(message: FromParseWorker): void {
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter) waiter(message);
    else this.queue.push(message);
  }
}

async function parseInWorker(
  xml: Readable,
  options: ParseOptions,
  batchSize: number,
  script: WorkerScript,
): Promise<ParseReport> {
  const workerData: ParseWorkerData = {
    sourceFile: options.sourceFile,
    importId: options.importId,
    now: typeof options.now === 'number' ? options.now : options.now.getTime(),
    batchSize,
    encoded: !('onBatch' in options),
  };
  const worker = new Worker(script.code, {
    eval: script.eval,
    workerData,
    // Short-lived strings only: a small young generation keeps the process's memory flat.
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  const inbox = new Inbox(worker);
  const send = (message: ToParseWorker, transfer: ArrayBuffer[] = []) =>
    worker.postMessage(message, transfer);
  const maxInFlightBytes = options.maxInFlightBytes ?? MAX_IN_FLIGHT_BYTES;
  let inFlightBytes = 0;
  let report: ParseReport | null = null;
  const handle = async (message: FromParseWorker): Promise<void> => {
    if (message.type === 'ack') inFlightBytes -= message.bytes;
    else if (message.type === 'batch') await deliver(options, message.records);
    else if (message.type === 'encoded') {
      // Posted only when the caller asked for encoded batches (workerData.encoded).
      if ('onEncodedBatch' in options) await options.onEncodedBatch(message.batch);
    } else if (message.type === 'done') report = message.report;
    else if (message.formatError) throw new RegisterFileFormatError(message.message, message.line);
    else throw new Error(message.message);
  };
  const handedOver = handsOverChunks(xml);
  try {
    for await (const chunk of iterable(xml)) {
      // transferred, not copied on the way (pooled Buffers cannot be: they get a copy of their own)
      const bytes = ownBytes(toBytes(chunk), handedOver || typeof chunk === 'string');
      inFlightBytes += bytes.length;
      send({ type: 'chunk', bytes }, [bytes.buffer as ArrayBuffer]);
      while (inbox.ready || inFlightBytes > maxInFlightBytes) await handle(await inbox.next());
    }
    send({ type: 'end' });
    while (report === null) await handle(await inbox.next());
    return report;
  } finally {
    await worker.terminate();
  }
}
