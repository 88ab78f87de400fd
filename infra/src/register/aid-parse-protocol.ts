/** Messages between parseAidStream and its parse worker thread. */
import type { AidRecord } from '@rna/domain';
import type { ExtractorReport } from './aid-extractor';

export interface ParseWorkerData {
  sourceFile: string;
  importId: string;
  batchSize: number;
}

export type ToParseWorker = { type: 'chunk'; bytes: Uint8Array } | { type: 'end' };

export type FromParseWorker =
  | { type: 'ack'; bytes: number }
  | { type: 'batch'; records: AidRecord[] }
  | { type: 'done'; report: ExtractorReport }
  | { type: 'error'; message: string; line: number | null; formatError: boolean };
