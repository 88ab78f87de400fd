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

export function encodeAidBatch(records: AidRecord[]): EncodedAidBatch {
  const json = new Array<string>(records.length);
  const taxCodes = new Array<string>(records.length);
  for (let i = 0; i < records.length; i++) {
    json[i] = JSON.stringify(records[i]);
    taxCodes[i] = records[i]!.codiceFiscaleBeneficiario;
  }
  return { json, taxCodes };
}

export type ToParseWorker = { type: 'chunk'; bytes: Uint8Array } | { type: 'end' };

export type FromParseWorker =
  | { type: 'ack'; bytes: number }
  | { type: 'batch'; records: AidRecord[] }
  | { type: 'encoded'; batch: EncodedAidBatch }
  | { type: 'done'; report: ExtractorReport }
  | { type: 'error'; message: string; line: number | null; formatError: boolean };
