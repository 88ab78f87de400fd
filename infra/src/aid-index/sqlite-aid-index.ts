/**
 * Embedded aid index: one SQLite table of compact rows keyed by idComponenteAiuto (the texts that
 * repeat across aids are kept once, see compact-aid-rows.ts), with an index by tax code and date
 * that carries the rows' columns (a company's aids are read from it alone).
 * New aids go in with one INSERT; only aids already present are read back and compared.
 * Every upsert, a sync's batches as a file's last few aids, runs on a writer thread with its own
 * connection, so that the main thread goes on parsing and publishing meanwhile, and never loads a
 * copy of the text dictionary of its own (every key into a filter, its pages and recent texts:
 * tens of MB at 25 million aids, and a load of seconds on the thread that answers requests).
 * Withdrawals, which look no text up, run here. Every write goes through one queue, in order, and
 * reads wait for the writes queued before them (read-your-writes as before).
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { normalizeTaxCode, type AidRecord } from '@rna/domain';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../embedded/sqlite';
import { openSqliteFile } from '../embedded/sqlite';
import { workerScript } from '../embedded/worker-script';
import type { PackedTexts } from '../packed-texts/packed-texts';
import {
  AID_INDEX_SCHEMA,
  addInlineProjectColumn,
  aidIndexWrites,
  buildSearchIndex,
  dropFormerSearchIndex,
  dropSearchIndex,
  hasSearchIndex,
  INLINE_PROJECT,
  tuneForBulkWrites,
  validate,
  type AidIndexWrites,
  type UpsertResult,
} from './aid-index-writes';
import { grantDateNumber, joinAid } from './compact-aid-rows';
import type {
  FromAidIndexWriter,
  ToAidIndexWriter,
  WriterData,
  WriterMemory,
} from './aid-index-writer.worker';
import type { AidIndex, AidIndexRebuild, AidSearch, SourceFileStats } from './port';
import { migrateJsonRows } from './legacy-json-rows';
import { migrateTextKeys } from './text-keys';
import { fromWriterError } from './writer-errors';

export { isDeMinimis } from './aid-index-writes';

/** A row with its dictionary texts joined in. */
interface FoundRow {
  id: string;
  tax_code: string;
  raw_tax_code: string | null;
  grant_date: number;
  cor: string | null;
  cup: string | null;
  aid_cents: number;
  nominal_cents: number;
  source_file: string;
  import_id: string;
  measure: string;
  beneficiary: string;
  project_ref: number;
  /** the title, when the row keeps it (project_ref = INLINE_PROJECT) */
  project_inline: string | null;
  /** the title's JSON from the dictionary, otherwise */
  project_text: string | null;
}

const FOUND_COLUMNS = `a.id, a.tax_code, a.raw_tax_code, a.grant_date, a.cor, a.cup, a.aid_cents, a.nominal_cents,
  i.source_file, i.import_id, m.text AS measure, b.text AS beneficiary,
  a.project_ref, a.project AS project_inline, p.text AS project_text`;
const FOUND_FROM = `aid_rows a
  JOIN imports i ON i.id = a.import_ref
  JOIN texts m ON m.id = a.measure_ref
  JOIN texts b ON b.id = a.beneficiary_ref
  LEFT JOIN texts p ON p.id = a.project_ref`;

/** The statement a search of these (normalized, distinct) tax codes runs, and its parameters. */
export function searchQuery(
  taxCodes: readonly string[],
  query: Omit<AidSearch, 'taxCodes'>,
): { sql: string; params: (string | number)[] } {
  const where = [`a.tax_code IN (${taxCodes.map(() => '?').join(', ')})`];
  const params: (string | number)[] = [...taxCodes];
  if (query.dateFrom !== undefined) {
    where.push('a.grant_date >= ?');
    params.push(grantDateNumber(query.dateFrom));
  }
  if (query.deMinimisOnly) where.push('a.de_minimis = 1');
  const select = `SELECT ${FOUND_COLUMNS} FROM ${FOUND_FROM} WHERE ${where.join(' AND ')}`;
  if (query.limit === undefined) return { sql: select, params };
  params.push(Math.max(0, Math.floor(query.limit)));
  return { sql: `${select} ORDER BY a.grant_date DESC, length(a.id) DESC, a.id DESC LIMIT ?`, params };
}

/** The index's order: newest grant day first, then the longer id, then the greater id (ids are numeric text). */
function newestFirstRow(a: FoundRow, b: FoundRow): number {
  if (a.grant_date !== b.grant_date) return b.grant_date - a.grant_date;
  if (a.id.length !== b.id.length) return b.id.length - a.id.length;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** The index file open: its connection and what is prepared on it (replaced when a rebuild swaps files). */
interface Connection {
  db: SqliteDatabase;
  writes: AidIndexWrites;
  statements: ReturnType<typeof readStatements>;
  searchStatements: Map<string, Statement<(string | number)[], FoundRow>>;
  /** Filled without the search index, which the first search or a pause in the writes builds. */
  filling: boolean;
}

function readStatements(db: SqliteDatabase) {
  return {
    get: db.prepare<[string], FoundRow>(`SELECT ${FOUND_COLUMNS} FROM ${FOUND_FROM} WHERE a.id = ?`),
    count: db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM aid_rows'),
    stats: db.prepare<[], { source_file: string; n: number }>(
      `SELECT i.source_file, SUM(n) AS n FROM
         (SELECT import_ref, COUNT(*) AS n FROM aid_rows GROUP BY import_ref) c
       JOIN imports i ON i.id = c.import_ref GROUP BY i.source_file ORDER BY i.source_file`,
    ),
  };
}

function hasRows(db: SqliteDatabase): boolean {
  return db.prepare('SELECT 1 FROM aid_rows LIMIT 1').get() !== undefined;
}

function connect(file: string): Connection {
  const db = openSqliteFile(file, { cacheMb: 64, schema: AID_INDEX_SCHEMA });
  // An empty index is about to be filled (a first sync, a rebuild): its rows go in without the
  // search index, which is built in one sort once they are in. A file without it and with rows is a
  // fill that was interrupted, or an earlier version's file (its former index dropped): it is built
  // the same way. (A rebuild's file is always new.)
  if (!hasRows(db)) dropSearchIndex(db);
  dropFormerSearchIndex(db);
  migrateTextKeys(db);
  const filling = !hasSearchIndex(db);
  addInlineProjectColumn(db);
  tuneForBulkWrites(db);
  const writes = aidIndexWrites(db);
  migrateJsonRows(db, writes);
  return { db, writes, statements: readStatements(db), searchStatements: new Map(), filling };
}

/** A database file's WAL companions, and the file itself unless only those are asked for. */
function removeDatabaseFiles(file: string, companionsOnly = false): void {
  for (const suffix of companionsOnly ? ['-wal', '-shm'] : ['', '-wal', '-shm'])
    fs.rmSync(`${file}${suffix}`, { force: true });
}

export interface SqliteAidIndexOptions {
  /**
   * A file filled before anyone searches it (a rebuild's): rows go in without the search index,
   * built in one sort when the file is complete (`finishFilling`), never on a pause in the writes.
   */
  searchIndexWhenFilled?: boolean;
  /**
   * How long the writes to an index being filled must pause before its search index is built
   * (default 5 s): a sync writes without pause until its last file is in.
   */
  fillPauseMs?: number;
  /** What the writer thread may hold (its defaults otherwise): a rebuild's takes REBUILD_WRITER_MEMORY. */
  writerMemory?: WriterMemory;
}

const FILL_PAUSE_MS = 5_000;

/**
 * A rebuild's file is only appended to (its search index is sorted at the end, with its own
 * memory), in a process of its own that must stay under 512 MB whatever the register's size: 8 MB
 * of pages instead of 32. At 1 million aids (the bench's runRebuildProcess on a synced copy) the
 * rebuild's process peaked at 483 MB with the defaults and 450 with the smaller cache, 395–427 MB
 * with the process's own settings too (package.json). It kept 20,000 texts at hand until a rebuild
 * of 3 million generated aids (`rebuild-projections` with the npm script's settings on one synced
 * copy, alternated twice) took 314 / 306 s with 20,000 and 293 / 281 s with 100,000, its process's
 * CPU 552 / 542 → 521 / 500 s, its peak 384 / 353 → 390 / 408 MB: the texts no longer at hand are
 * looked up in a file whose pages no longer fit (the writer alone: 2.84 million look-ups with
 * 20,000, 1.12 million with 100,000). At 1.5 million aids the two were within noise, at 1 million
 * equal, which is why the smaller memo had looked free. The memo is bounded whatever the register's
 * size.
 */
const REBUILD_WRITER_MEMORY: WriterMemory = { cacheMb: 8, textMemoEntries: 100_000 };

export class SqliteAidIndex implements AidIndex {
  private live: Connection;
  private writer: WriterThread | null = null;
  /** Tail of the write queue: settles when every write so far has. */
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * When the next upsert may be handed to the writer thread: as soon as the write before it was
   * handed over too when that one is an upsert (the thread takes its messages in order, so it
   * starts the next one the moment it ends the previous one, without waiting for this thread),
   * else once the write before has settled.
   */
  private handedOver: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** Armed after each write while the index is being filled: builds the search index on a pause. */
  private fillPause: NodeJS.Timeout | null = null;

  constructor(
    private readonly file: string,
    private readonly options: SqliteAidIndexOptions = {},
  ) {
    this.live = connect(file);
    // Rows without a search index: a fill that was interrupted, or a file of an earlier version. Its
    // search index is built as soon as the writes pause, not by the first search, which would wait
    // for the sort (minutes at tens of millions of aids). An empty file waits for its first sync.
    if (this.live.filling && hasRows(this.live.db)) this.armFillPause();
  }

  async upsert(records: AidRecord[]): Promise<{ changed: number; changedTaxCodes: string[] }> {
    this.assertOpen();
    records.forEach(validate);
    const writer = this.writerThread();
    if (writer) return this.enqueueOnWriter(() => writer.upsert(records));
    return this.enqueue(() => this.live.writes.upsert(records));
  }

  async upsertEncoded(messages: PackedTexts): Promise<UpsertResult> {
    this.assertOpen();
    const writer = this.writerThread();
    if (writer) return this.enqueueOnWriter(() => writer.upsertEncoded(messages));
    return this.enqueue(() => this.live.writes.upsertEncoded(messages));
  }

  async withdraw(ids: string[]): Promise<{ count: number; taxCodes: string[] }> {
    this.assertOpen();
    return this.enqueue(() => this.live.writes.withdraw(ids));
  }

  async withdrawBySourceFile(
    sourceFile: string,
    keepImportId?: string,
  ): Promise<{ count: number; taxCodes: string[] }> {
    this.assertOpen();
    return this.enqueue(() => this.live.writes.withdrawBySourceFile(sourceFile, keepImportId));
  }

  async search(query: AidSearch): Promise<AidRecord[]> {
    this.assertOpen();
    // without its search index every search would read the whole table
    if (this.live.filling) await this.finishFilling();
    await this.writesSettled();
    const taxCodes = [...new Set(query.taxCodes.map(normalizeTaxCode))].filter((t) => t !== '');
    if (taxCodes.length === 0) return [];
    const { sql, params } = searchQuery(taxCodes, query);
    const found = this.searchStatement(sql).all(...params);
    // Without a limit the order is made here: SQLite's sort (a temporary b-tree carrying each row's
    // whole content) was half the cost of a look-up, while sorting the found rows in memory is cheap.
    return (query.limit === undefined ? found.sort(newestFirstRow) : found).map(toRecord);
  }

  /** The SQL varies only with the number of tax codes and the filters used: prepare each shape once. */
  private searchStatement(sql: string) {
    let statement = this.live.searchStatements.get(sql);
    if (!statement) {
      statement = this.live.db.prepare<(string | number)[], FoundRow>(sql);
      if (this.live.searchStatements.size < 200) this.live.searchStatements.set(sql, statement);
    }
    return statement;
  }

  async get(idComponenteAiuto: string): Promise<AidRecord | null> {
    this.assertOpen();
    await this.writesSettled();
    const row = this.live.statements.get.get(idComponenteAiuto.trim());
    return row ? toRecord(row) : null;
  }

  async count(): Promise<number> {
    this.assertOpen();
    await this.writesSettled();
    return this.live.statements.count.get()?.n ?? 0;
  }

  async statsBySourceFile(): Promise<SourceFileStats[]> {
    this.assertOpen();
    await this.writesSettled();
    return this.live.statements.stats.all().map((r) => ({ sourceFile: r.source_file, count: r.n }));
  }

  async clear(): Promise<void> {
    this.assertOpen();
    await this.enqueue(() => this.live.writes.clear());
  }

  /**
   * Fills a new file beside the index (`<file>.rebuild`); complete() puts it in the index's place in
   * one rename and reopens, so a rebuild that fails or is stopped leaves the index as it was. Disk:
   * both indexes for as long as the rebuild runs. The embedded portal is stopped meanwhile (the data
   * directory's lock), so no other process has the old file open.
   */
  async beginRebuild(): Promise<AidIndexRebuild> {
    this.assertOpen();
    const rebuildFile = `${this.file}.rebuild`;
    removeDatabaseFiles(rebuildFile);
    const target = new SqliteAidIndex(rebuildFile, {
      searchIndexWhenFilled: true,
      writerMemory: REBUILD_WRITER_MEMORY,
    });
    return {
      target,
      complete: () =>
        this.enqueue(async () => {
          await target.finishFilling();
          await target.close(); // its WAL checkpointed into the file and removed
          await this.writer?.close();
          this.writer = null;
          this.live.db.close();
          // the rename replaces the old file in one step: a crash leaves one index or the other
          removeDatabaseFiles(this.file, true);
          fs.renameSync(rebuildFile, this.file);
          this.live = connect(this.file);
        }),
      abandon: async () => {
        await target.close();
        removeDatabaseFiles(rebuildFile);
      },
    };
  }

  /**
   * Builds the search index of a file filled without it (a no-op when it has one), on the writer
   * thread when there is one: the sort takes tens of seconds at millions of rows (16–21 s for 5
   * million here), which the main thread spends answering. Searches wait for it (they would read the
   * whole table without it).
   */
  private async finishFilling(): Promise<void> {
    this.assertOpen();
    this.clearFillPause();
    await this.enqueue(async () => {
      if (!this.live.filling) return;
      const writer = this.writerThread();
      if (writer) await writer.buildSearchIndex();
      else buildSearchIndex(this.live.db);
      this.live.filling = false;
    });
  }

  /** While the index is being filled, each write moves the moment its search index is built. */
  private armFillPause(): void {
    if (!this.live.filling || this.options.searchIndexWhenFilled || this.closed) return;
    this.clearFillPause();
    this.fillPause = setTimeout(() => {
      this.fillPause = null;
      if (!this.closed) this.finishFilling().catch(() => undefined); // the next search tries again
    }, this.options.fillPauseMs ?? FILL_PAUSE_MS);
    this.fillPause.unref();
  }

  private clearFillPause(): void {
    if (this.fillPause) clearTimeout(this.fillPause);
    this.fillPause = null;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.clearFillPause();
    await this.writesSettled();
    await this.writer?.close();
    this.live.db.close();
  }

  private enqueue<T>(write: () => T | Promise<T>): Promise<T> {
    const result = this.queue.then(write);
    this.queue = result.catch(() => undefined);
    this.handedOver = this.queue;
    if (this.live.filling) void this.queue.then(() => this.armFillPause());
    return result;
  }

  /** A write on the writer thread, posted as soon as `handedOver` allows. */
  private enqueueOnWriter<T>(post: () => Promise<T>): Promise<T> {
    let posted!: () => void;
    const handedOver = new Promise<void>((resolve) => (posted = resolve));
    const result = this.handedOver.then(() => {
      try {
        return post();
      } finally {
        posted();
      }
    });
    this.handedOver = handedOver;
    // settles to nothing: allSettled's own value would hold every write's result, one inside the next
    this.queue = Promise.allSettled([this.queue, result]).then(() => undefined);
    if (this.live.filling) void this.queue.then(() => this.armFillPause());
    return result;
  }

  private async writesSettled(): Promise<void> {
    await this.queue;
  }

  /** Started on the first upsert; null where no worker can run (then writes stay here). */
  private writerThread(): WriterThread | null {
    if (!this.writer || this.writer.dead) {
      const script = workerScript(__dirname, 'aid-index-writer.worker');
      this.writer = script
        ? new WriterThread(
            new Worker(script.code, {
              eval: script.eval,
              workerData: { file: this.file, ...this.options.writerMemory } satisfies WriterData,
              resourceLimits: { maxYoungGenerationSizeMb: 8 },
            }),
          )
        : null;
    }
    return this.writer;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Aid index is closed');
  }
}

/** Request/reply over the writer thread; it holds the process open only while a write is pending. */
class WriterThread {
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private nextId = 1;
  dead = false;

  constructor(private readonly worker: Worker) {
    worker.unref();
    worker.on('message', (reply: FromAidIndexWriter) => {
      const call = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.error !== undefined) call?.reject(fromWriterError(reply.error));
      else call?.resolve(reply.result);
    });
    const fail = (error: Error) => {
      this.dead = true;
      for (const call of this.pending.values()) call.reject(error);
      this.pending.clear();
    };
    worker.on('error', (error) => fail(new Error(`aid index writer failed: ${error.message}`)));
    worker.on('exit', (code) => fail(new Error(`aid index writer exited (${code})`)));
  }

  upsert(records: AidRecord[]): Promise<UpsertResult> {
    return this.call({ id: this.nextId++, op: 'upsert', records }) as Promise<UpsertResult>;
  }

  /** The messages' buffer is handed over to the thread, not copied. */
  upsertEncoded(messages: PackedTexts): Promise<UpsertResult> {
    return this.call({ id: this.nextId++, op: 'upsertEncoded', messages }, [
      messages.bytes.buffer as ArrayBuffer,
    ]) as Promise<UpsertResult>;
  }

  async buildSearchIndex(): Promise<void> {
    await this.call({ id: this.nextId++, op: 'buildSearchIndex' });
  }

  async close(): Promise<void> {
    if (this.dead) return;
    await this.call({ id: this.nextId++, op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }

  private call(message: ToAidIndexWriter, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.dead) return Promise.reject(new Error('aid index writer is not running'));
    return new Promise((resolve, reject) => {
      this.pending.set(message.id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage(message, transfer);
    });
  }
}

function toRecord(row: FoundRow): AidRecord {
  return joinAid({
    row: {
      id: row.id,
      taxCode: row.tax_code,
      rawTaxCode: row.raw_tax_code,
      grantDate: row.grant_date,
      cor: row.cor,
      cup: row.cup,
      aidCents: row.aid_cents,
      nominalCents: row.nominal_cents,
    },
    measure: row.measure,
    beneficiary: row.beneficiary,
    project:
      row.project_ref === INLINE_PROJECT ? JSON.stringify(row.project_inline) : (row.project_text ?? 'null'),
    sourceFile: row.source_file,
    importId: row.import_id,
  });
}

export function openSqliteAidIndex(file: string): SqliteAidIndex {
  return new SqliteAidIndex(file);
}
