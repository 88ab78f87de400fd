/** Opening a SQLite file the way every embedded adapter needs it. */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

/**
 * WAL lets readers (the API) run while a writer (sync, projector) commits; synchronous=NORMAL is
 * durable across process crashes in WAL mode and much faster than FULL. The busy timeout makes a
 * second writer (another adapter instance or process on the same file) wait instead of failing.
 */
export function openSqliteFile(file: string, options: { cacheMb?: number } = {}): SqliteDatabase {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  // A bigger page cache keeps the upper index levels of large tables (millions of aids) in memory.
  if (options.cacheMb !== undefined) db.pragma(`cache_size = -${Math.round(options.cacheMb * 1024)}`);
  return db;
}
