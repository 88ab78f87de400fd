/** The aid index's writer thread: every upsert, on its own connection to the index file. */
import { parentPort, workerData } from 'node:worker_threads';
import type { AidRecord } from '@rna/domain';
import { openSqliteFile } from '../embedded/sqlite';
import type { PackedTexts } from '../packed-texts/packed-texts';
import { aidIndexWrites, buildSearchIndex, tuneForBulkWrites } from './aid-index-writes';
import { toWriterError, type WriterError } from './writer-errors';

export type ToAidIndexWriter =
  | { id: number; op: 'upsert'; records: AidRecord[] }
  | { id: number; op: 'upsertEncoded'; messages: PackedTexts }
  | { id: number; op: 'buildSearchIndex' }
  | { id: number; op: 'close' };
export type FromAidIndexWriter = { id: number; result?: unknown; error?: WriterError };
/** What the writer thread may hold besides its work (defaults: 32 MB of pages, 100,000 texts). */
export interface WriterMemory {
  /** Page cache of its connection, in MB. */
  cacheMb?: number;
  /** Texts whose id it keeps at hand (two generations of this many). */
  textMemoEntries?: number;
}
/** What the thread is started with: the index file and its memory. */
export interface WriterData extends WriterMemory {
  file: string;
}

if (parentPort) {
  const port = parentPort;
  // Half the reader's cache by default: inserts touch mostly the right edge of the table and the
  // upper index levels, and a sync must stay well under 400 MB whatever the file size.
  const { file, cacheMb, textMemoEntries } = workerData as WriterData;
  const db = openSqliteFile(file, { cacheMb: cacheMb ?? 32 });
  tuneForBulkWrites(db);
  const writes = aidIndexWrites(db, { textMemoEntries });
  port.on('message', (message: ToAidIndexWriter) => {
    const reply: FromAidIndexWriter = { id: message.id };
    try {
      if (message.op === 'upsert') reply.result = writes.upsert(message.records);
      else if (message.op === 'upsertEncoded') reply.result = writes.upsertEncoded(message.messages);
      else if (message.op === 'buildSearchIndex') buildSearchIndex(db);
      else db.close();
    } catch (error) {
      reply.error = toWriterError(error);
    }
    port.postMessage(reply);
  });
}
