/** Opening a SQLite file the way every embedded adapter needs it. */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

export interface OpenSqliteOptions {
  /** Page cache of this connection, in MB (SQLite's default is 2 MB). */
  cacheMb?: number;
  /** Idempotent DDL (CREATE … IF NOT EXISTS) run once the file is open. */
  schema?: string;
  /**
   * 'incremental': pages freed by deletes can be given back with `PRAGMA incremental_vacuum`. Takes
   * effect on a new file; an existing file is converted (VACUUM) when nothing else holds it open.
   */
  autoVacuum?: 'incremental';
  /** How long a start-up may wait for other processes opening the same file (default 15 s). */
  initBudgetMs?: number;
}

/**
 * WAL lets readers (the API) run while a writer (sync, projector) commits; synchronous=NORMAL is
 * durable across process crashes in WAL mode and much faster than FULL. The busy timeout makes a
 * second writer (another adapter instance or process on the same file) wait instead of failing.
 *
 * Several processes may start together on a fresh data directory (api ×2, projector ×2, sync):
 * switching to WAL and creating the schema can still meet SQLITE_BUSY without the busy handler being
 * consulted, so the whole start-up sequence is retried until it goes through.
 */
export function openSqliteFile(file: string, options: OpenSqliteOptions = {}): SqliteDatabase {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file, { timeout: 10_000 }); // the busy timeout
  retryWhileBusy(() => {
    if (options.autoVacuum) db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // A bigger page cache keeps the upper index levels of large tables (millions of aids) in memory.
    if (options.cacheMb !== undefined) db.pragma(`cache_size = -${Math.round(options.cacheMb * 1024)}`);
    if (options.schema) db.exec(options.schema);
  }, options.initBudgetMs ?? 15_000);
  if (options.autoVacuum && db.pragma('auto_vacuum', { simple: true }) !== 2) convertToIncremental(db);
  return db;
}

/** A file made before incremental vacuum was asked for: rewritten once, if no other process is in it. */
function convertToIncremental(db: SqliteDatabase): void {
  try {
    db.pragma('auto_vacuum = INCREMENTAL');
    db.exec('VACUUM');
  } catch (error) {
    if (!isBusyError(error)) throw error; // busy: another process has it open; a later start converts it
  }
}

/** Whether the file has an index of that name (migrations look for an earlier version's). */
export function hasIndex(db: SqliteDatabase, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== undefined;
}

/** SQLITE_BUSY or SQLITE_LOCKED: another connection holds the file's write lock (for now). */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** Runs `step` again after a short synchronous pause while it fails with SQLITE_BUSY/LOCKED. */
export function retryWhileBusy<T>(step: () => T, budgetMs: number): T {
  const deadline = Date.now() + budgetMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 1; ; attempt += 1) {
    try {
      return step();
    } catch (error) {
      if (!isBusyError(error) || Date.now() >= deadline) throw error;
      // Start-up only, before any request is served: blocking the thread briefly is harmless here.
      Atomics.wait(pause, 0, 0, Math.min(20 * attempt, 250));
    }
  }
}
