/**
 * The background checkpointer's thread (see wal-checkpointer.ts): one connection per registered
 * file, a PASSIVE checkpoint of each every interval. Errors are not fatal: a file that cannot be
 * checkpointed now (busy, or being closed) is tried again at the next tick.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { CheckpointerMessage } from './wal-checkpointer';

const connections = new Map<string, Database.Database>();
const { intervalMs } = workerData as { intervalMs: number };

function close(file: string): void {
  const db = connections.get(file);
  connections.delete(file);
  try {
    db?.close();
  } catch {
    // already unusable: nothing left to release
  }
}

const ticker = setInterval(() => {
  for (const db of connections.values()) {
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // busy or closing: the next tick tries again
    }
  }
}, intervalMs);

parentPort?.on('message', (message: CheckpointerMessage) => {
  if (message.kind === 'add') {
    if (connections.has(message.file)) return;
    try {
      // Never wait for a lock here: a checkpoint that cannot run now runs at the next tick.
      connections.set(message.file, new Database(message.file, { fileMustExist: true, timeout: 0 }));
    } catch {
      // the file vanished between open and registration: nothing to checkpoint
    }
  } else if (message.kind === 'remove') {
    close(message.file);
  } else {
    clearInterval(ticker);
    for (const file of [...connections.keys()]) close(file);
    parentPort?.close();
  }
});
