/** The aid index's writer thread: bulk upserts on its own connection to the index file. */
import { parentPort, workerData } from 'node:worker_threads';
import type { AidRecord } from '@rna/domain';
import { openSqliteFile } from '../embedded/sqlite';
import { aidIndexWrites, buildSearchIndex, tuneForBulkWrites } from './aid-index-writes';

export type ToAidIndexWriter =
  | { id: number; op: 'upsert'; records: AidRecord[] }
  | { id: number; op: 'upsertEncoded'; aidsJson: string[] }
  | { id: number; op: 'buildSearchIndex' }
  | { id: number; op: 'close' };
export type FromAidIndexWriter = { id: number; result?: unknown; error?: string };

if (parentPort) {
  const port = parentPort;
  // Half the reader's cache: inserts touch mostly the right edge of the table and the upper index
  // levels, and a sync must stay well under 400 MB whatever the file size.
  const db = openSqliteFile((workerData as { file: string }).file, { cacheMb: 32 });
  tuneForBulkWrites(db);
  const writes = aidIndexWrites(db);
  port.on('message', (message: ToAidIndexWriter) => {
    const reply: FromAidIndexWriter = { id: message.id };
    try {
      if (message.op === 'upsert') reply.result = writes.upsert(message.records);
      else if (message.op === 'upsertEncoded') reply.result = writes.upsertEncoded(message.aidsJson);
      else if (message.op === 'buildSearchIndex') buildSearchIndex(db);
      else db.close();
    } catch (error) {
      reply.error = error instanceof Error ? error.message : String(error);
    }
    port.postMessage(reply);
  });
}
