/** Messages between parseAidStream and its parse worker thread. */
import { AID_RECORDED_PREFIX, type AidRecord } from '@rna/domain';
import { TextPacker, type PackedTexts } from '../packed-texts/packed-texts';
import type { ExtractorReport } from './aid-extractor';

export interface ParseWorkerData {
  sourceFile: string;
  importId: string;
  /** the sync's clock (ms), for the record check */
  now: number;
  batchSize: number;
  /** Post batches encoded (EncodedAidBatch) instead of record objects. */
  encoded: boolean;
}

/**
 * A batch of aids encoded once, on the parser's thread, as the AidRecorded messages the log stores
 * (packed-texts.ts: one buffer, handed between threads without a copy). Record objects would be
 * serialized field by field, then decoded and encoded again on the main thread.
 */
export interface EncodedAidBatch {
  /** Each aid's AidRecorded message: the text of JSON.stringify({ type: 'AidRecorded', aid }). */
  messages: PackedTexts;
  /** Each aid's codiceFiscaleBeneficiario, in the same order (the key it is published under). */
  taxCodes: string[];
}

/**
 * Encodes records one by one as they are parsed and hands back full batches. Encoding at once lets
 * each record die young: a record waiting for its batch to fill would survive scavenges, and its
 * field strings (slices of the decoded text) would keep whole decoded chunks alive with it. The
 * encoded texts wait outside the heap; the tax code is copied out for the same reason.
 */
export class AidBatchEncoder {
  private readonly packer: TextPacker;
  private taxCodes: string[] = [];

  constructor(private readonly batchSize: number) {
    // about a kilobyte an aid: a batch seldom makes its buffer grow
    this.packer = new TextPacker(Number.isFinite(batchSize) ? batchSize * 1280 : undefined);
  }

  /** Encodes `record`; returns the batch it filled, if it did. */
  add(record: AidRecord): EncodedAidBatch | null {
    this.packer.add(AID_RECORDED_PREFIX, JSON.stringify(record), '}');
    this.taxCodes.push(Buffer.from(record.codiceFiscaleBeneficiario, 'utf8').toString('utf8'));
    return this.packer.count >= this.batchSize ? this.flush() : null;
  }

  /** The records encoded since the last batch, or null when there are none. */
  flush(): EncodedAidBatch | null {
    const messages = this.packer.take();
    if (!messages) return null;
    const batch = { messages, taxCodes: this.taxCodes };
    this.taxCodes = [];
    return batch;
  }
}

/** All of `records` as one batch. */
export function encodeAidBatch(records: AidRecord[]): EncodedAidBatch {
  const encoder = new AidBatchEncoder(Infinity);
  for (const record of records) encoder.add(record);
  return encoder.flush() ?? { messages: { bytes: new Uint8Array(0), lengths: [] }, taxCodes: [] };
}

export type ToParseWorker = { type: 'chunk'; bytes: Uint8Array } | { type: 'end' };

export type FromParseWorker =
  | { type: 'ack'; bytes: number }
  | { type: 'batch'; records: AidRecord[] }
  | { type: 'encoded'; batch: EncodedAidBatch }
  | { type: 'done'; report: ExtractorReport }
  | { type: 'error'; message: string; line: number | null; formatError: boolean };
