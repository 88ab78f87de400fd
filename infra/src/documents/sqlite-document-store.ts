/** Embedded document store: every collection in one SQLite table keyed by (collection, id), with a revision for compare-and-set. */
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../embedded/sqlite';
import { openSqliteFile } from '../embedded/sqlite';
import { checkpointInBackground } from '../embedded/wal-checkpointer';
import { FENCES_SCHEMA, sqliteFenceCheck, type Fence } from '../fencing';
import {
  assertDocumentIds,
  ConflictError,
  type Collection,
  type Doc,
  type DocumentStore,
  type FindOptions,
} from './port';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS documents (
  collection TEXT NOT NULL,
  id TEXT NOT NULL,
  revision INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (collection, id)
) WITHOUT ROWID;
${FENCES_SCHEMA}`;

type SqlValue = string | number | null;

/** Field names go into a JSON path: only plain identifiers, so a filter can never address anything else. */
const FIELD_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function jsonPath(field: string): string {
  if (!FIELD_NAME.test(field))
    throw new TypeError(`Invalid field name for a document query: ${JSON.stringify(field)}`);
  return `$.${field}`;
}

/** One equality condition on a top-level field: null also matches a missing field. */
function condition(field: string, value: unknown): { sql: string; params: SqlValue[] } {
  const path = jsonPath(field);
  if (value === null) return { sql: 'json_extract(body, ?) IS NULL', params: [path] };
  if (typeof value === 'boolean') {
    return { sql: 'json_type(body, ?) = ?', params: [path, value ? 'true' : 'false'] };
  }
  if (typeof value === 'number' || typeof value === 'string') {
    return { sql: 'json_extract(body, ?) = ?', params: [path, value] };
  }
  // Objects and arrays compare as their JSON text.
  return { sql: 'json_extract(body, ?) = json(?)', params: [path, JSON.stringify(value)] };
}

function whereClause(collection: string, filter: Record<string, unknown> = {}) {
  const parts = ['collection = ?'];
  const params: SqlValue[] = [collection];
  for (const [field, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    const c = condition(field, value);
    parts.push(c.sql);
    params.push(...c.params);
  }
  return { sql: parts.join(' AND '), params };
}

class SqliteCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly store: SqliteDocumentStore,
    private readonly name: string,
  ) {}

  async get(id: string): Promise<T | null> {
    return (await this.getWithRevision(id))?.doc ?? null;
  }

  async getWithRevision(id: string): Promise<{ doc: T; revision: number } | null> {
    const row = this.store.readOne(this.name, id);
    return row ? { doc: JSON.parse(row.body) as T, revision: row.revision } : null;
  }

  async put(doc: T, options: { expectedRevision?: number; fence?: Fence } = {}): Promise<number> {
    assertDocumentIds(this.name, [doc]);
    return this.store.write(this.name, doc.id, JSON.stringify(doc), options.expectedRevision, options.fence);
  }

  async putMany(docs: T[], options: { fence?: Fence } = {}): Promise<void> {
    assertDocumentIds(this.name, docs);
    // with a fence and no document, the fence is still checked and raised (as the other stores do)
    if (docs.length === 0 && !options.fence) return;
    this.store.writeMany(
      this.name,
      docs.map((doc) => ({ id: doc.id, body: JSON.stringify(doc) })),
      options.fence,
    );
  }

  async delete(id: string, options: { fence?: Fence } = {}): Promise<boolean> {
    return this.store.remove(this.name, id, options.fence);
  }

  async find(filter?: Partial<T>, options: FindOptions<T> = {}): Promise<T[]> {
    const where = whereClause(this.name, filter as Record<string, unknown> | undefined);
    const params = [...where.params];
    let sql = `SELECT body FROM documents WHERE ${where.sql}`;
    if (options.afterId !== undefined) {
      sql += ' AND id > ?';
      params.push(options.afterId);
    }
    if (options.sortBy !== undefined) {
      const direction = options.order === 'desc' ? 'DESC' : 'ASC';
      sql += ` ORDER BY json_extract(body, ?) ${direction}, id ${direction}`;
      params.push(jsonPath(options.sortBy));
    } else {
      sql += ' ORDER BY id';
    }
    if (options.limit !== undefined || options.offset !== undefined) {
      sql += ' LIMIT ? OFFSET ?';
      params.push(options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit)));
      params.push(Math.max(0, Math.floor(options.offset ?? 0)));
    }
    return this.store.all<{ body: string }>(sql, params).map((row) => JSON.parse(row.body) as T);
  }

  async count(filter?: Partial<T>): Promise<number> {
    const where = whereClause(this.name, filter as Record<string, unknown> | undefined);
    return (
      this.store.all<{ n: number }>(`SELECT COUNT(*) AS n FROM documents WHERE ${where.sql}`, where.params)[0]
        ?.n ?? 0
    );
  }

  async clear(): Promise<void> {
    this.store.run('DELETE FROM documents WHERE collection = ?', [this.name]);
  }

  async increment(id: string, field: keyof T & string): Promise<number> {
    assertDocumentIds(this.name, [{ id }]);
    return this.store.increment(this.name, id, field);
  }
}

export class SqliteDocumentStore implements DocumentStore {
  private readonly db: SqliteDatabase;
  private readonly statementCache = new Map<string, Statement<SqlValue[]>>();
  private readonly writeTransaction;
  private readonly writeManyTransaction;
  private readonly deleteTransaction;
  private incrementStatement: Statement<
    [string, string, string, string, string, string, string],
    { value: number }
  > | null = null;
  private closed = false;
  private readonly stopBackgroundCheckpoints: () => void;

  constructor(file: string) {
    this.db = openSqliteFile(file, { schema: SCHEMA });
    this.stopBackgroundCheckpoints = checkpointInBackground(file);
    // Bulk projections write many documents per commit: with the default 4 MB threshold such commits
    // also checkpointed (copy + fsync). The background checkpointer normally keeps the WAL well below
    // this; it is the safety net.
    this.db.pragma('wal_autocheckpoint = 10000');
    const readRevision = this.db.prepare<[string, string], { revision: number }>(
      'SELECT revision FROM documents WHERE collection = ? AND id = ?',
    );
    const upsert = this.db.prepare<[string, string, number, string]>(
      'INSERT INTO documents (collection, id, revision, body) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (collection, id) DO UPDATE SET revision = excluded.revision, body = excluded.body',
    );
    // Check and write under one write lock, so two writers with the same expected revision cannot both win.
    const checkFence = sqliteFenceCheck(this.db);
    this.writeTransaction = this.db.transaction(
      (
        collection: string,
        id: string,
        body: string,
        expectedRevision: number | undefined,
        fence: Fence | undefined,
      ): number => {
        if (fence) checkFence(fence);
        const current = readRevision.get(collection, id)?.revision ?? 0;
        if (expectedRevision !== undefined && expectedRevision !== current)
          throw new ConflictError(collection, id);
        upsert.run(collection, id, current + 1, body);
        return current + 1;
      },
    );
    // One commit for the whole set: each document's revision still goes up by one.
    const upsertBumping = this.db.prepare<[string, string, string]>(
      'INSERT INTO documents (collection, id, revision, body) VALUES (?, ?, 1, ?) ' +
        'ON CONFLICT (collection, id) DO UPDATE SET revision = revision + 1, body = excluded.body',
    );
    this.writeManyTransaction = this.db.transaction(
      (collection: string, docs: { id: string; body: string }[], fence: Fence | undefined) => {
        if (fence) checkFence(fence);
        for (const doc of docs) upsertBumping.run(collection, doc.id, doc.body);
      },
    );
    const deleteOne = this.db.prepare<[string, string]>(
      'DELETE FROM documents WHERE collection = ? AND id = ?',
    );
    this.deleteTransaction = this.db.transaction(
      (collection: string, id: string, fence: Fence | undefined): boolean => {
        if (fence) checkFence(fence);
        return deleteOne.run(collection, id).changes === 1;
      },
    );
  }

  collection<T extends Doc>(name: string): Collection<T> {
    if (typeof name !== 'string' || name === '') throw new TypeError('A collection needs a name');
    return new SqliteCollection<T>(this, name);
  }

  async replaceCollection(from: string, to: string): Promise<void> {
    this.assertOpen();
    if (!from || !to || from === to) throw new TypeError('replaceCollection needs two different names');
    this.db
      .transaction(() => {
        this.db.prepare('DELETE FROM documents WHERE collection = ?').run(to);
        this.db.prepare('UPDATE documents SET collection = ? WHERE collection = ?').run(to, from);
      })
      .immediate();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopBackgroundCheckpoints();
    this.db.close();
  }

  // ---- used by the collections ----
  readOne(collection: string, id: string): { body: string; revision: number } | undefined {
    return this.all<{ body: string; revision: number }>(
      'SELECT body, revision FROM documents WHERE collection = ? AND id = ?',
      [collection, id],
    )[0];
  }

  /** One statement: atomic between connections and processes, as SQLite serialises writers. */
  increment(collection: string, id: string, field: string): number {
    this.assertOpen();
    const path = jsonPath(field);
    this.incrementStatement ??= this.db.prepare<
      [string, string, string, string, string, string, string],
      { value: number }
    >(
      "INSERT INTO documents (collection, id, revision, body) VALUES (?, ?, 1, json_object('id', ?, ?, 1)) " +
        'ON CONFLICT (collection, id) DO UPDATE SET revision = revision + 1, ' +
        'body = json_set(body, ?, COALESCE(json_extract(body, ?), 0) + 1) ' +
        'RETURNING json_extract(body, ?) AS value',
    );
    return Number(this.incrementStatement.get(collection, id, id, field, path, path, path)?.value);
  }

  write(
    collection: string,
    id: string,
    body: string,
    expectedRevision: number | undefined,
    fence?: Fence,
  ): number {
    this.assertOpen();
    return this.writeTransaction.immediate(collection, id, body, expectedRevision, fence);
  }

  writeMany(collection: string, docs: { id: string; body: string }[], fence?: Fence): void {
    this.assertOpen();
    this.writeManyTransaction.immediate(collection, docs, fence);
  }

  remove(collection: string, id: string, fence?: Fence): boolean {
    this.assertOpen();
    return this.deleteTransaction.immediate(collection, id, fence);
  }

  all<Row>(sql: string, params: SqlValue[]): Row[] {
    return this.statement(sql).all(...params) as Row[];
  }

  run(sql: string, params: SqlValue[]): number {
    return this.statement(sql).run(...params).changes;
  }

  /** Queries vary only by filter shape: prepare each distinct SQL text once. */
  private statement(sql: string): Statement<SqlValue[]> {
    this.assertOpen();
    let statement = this.statementCache.get(sql);
    if (!statement) {
      statement = this.db.prepare<SqlValue[]>(sql);
      if (this.statementCache.size < 500) this.statementCache.set(sql, statement);
    }
    return statement;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Document store is closed');
  }
}

export function openSqliteDocumentStore(file: string): SqliteDocumentStore {
  return new SqliteDocumentStore(file);
}
