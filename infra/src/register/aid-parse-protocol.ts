/** Messages between parseAidStream and its parse worker thread. */
import type { AidRecord } from '@rna/domain';
import type { ExtractorReport } from './aid-extractor';

export interface ParseWorkerData {
  sourceFile: string;
  importId: string;
  /** the sync's clock (ms), for the record check */
  now: number;
  batchSize: number;
  /** Post batches as JSON text (EncodedAidBatch) instead of record objects. */
  encoded: boolean;
}

/**
 * A batch of aids encoded once, as JSON, on the parser's thread: the text the message log stores
 * and the index keeps. Strings cross threads as a plain copy, where record objects would be
 * serialized field by field, then decoded and encoded again on the main thread.
 */
export interface EncodedAidBatch {
  /** JSON.stringify of each AidRecord. */
  json: string[];
  /** Each aid's codiceFiscaleBeneficiario, in the same order (the key it is published under). */
  taxCodes: string[];
}

/**
 * Encodes records one by one as they are parsed and hands back full batches. Encoding at once lets
 * each record die young: a record waiting for its batch to fill would survive scavenges, and its
 * field strings (slices of the decoded text) would keep whole decoded chunks alive with it. The tax
 * code is copied out for the same reason: it is kept until the batch is posted.
 */
export class AidBatchEncoder {
  private json: string[] = [];
  private taxCodes: string[] = [];

  constructor(private readonly batchSize: number) {}

  /** Encodes `record`; returns the batch it filled, if it did. */
  add(record: AidRecord): EncodedAidBatch | null {
    this.json.push(JSON.stringify(record));
    this.taxCodes.push(Buffer.from(record.codiceFiscaleBeneficiario, 'utf8').toString('utf8'));
    return this.json.length >= this.batchSize ? this.flush() : null;
  }

  /** The records encoded since the last batch, or null when there are none. */
  flush(): EncodedAidBatch | null {
    if (this.json.length === 0) return null;
    const batch = { json: this.json, taxCodes: this.taxCodes };
    this.json = [];
    this.taxCodes = [];
    return batch;
  }
}

/** All of `records` as one batch. */
export function encodeAidBatch(records: AidRecord[]): EncodedAidBatch {
  const encoder = new AidBatchEncoder(Infinity);
  for (const record of records) encoder.add(record);
  return encoder.flush() ?? { json: [], taxCodes: [] };
}

export type ToParseWorker = { type: 'chunk'; bytes: Uint8Array } | { type: 'end' };

export type FromParseWorker =
  | { type: 'ack'; bytes: number }
  | { type: 'batch'; records: AidRecord[] }
  | { type: 'encoded'; batch: EncodedAidBatch }
  | { type: 'done'; report: ExtractorReport }
  | { type: 'error'; message: string; line: number | null; formatError: boolean };
