/**
 * The aid index's write side on one SQLite connection, synchronous: used by the adapter's writer
 * thread for every upsert, so the main thread keeps parsing, publishing and answering while the
 * index is written, and on the adapter's own thread for withdrawals (and for every write where no
 * worker thread can run).
 *
 * Rows are compact (compact-aid-rows.ts): the texts that repeat across aids live once in `texts`,
 * each import (source file + import id) once in `imports`, and a row holds their ids; a text is
 * found by its key through text-keys.ts. A project title is kept in its row until it is seen a second
 * time (most are one aid's own: in the dictionary each would cost a random look-up when
 * met again and an entry of its own).
 */
import {
  aidOfAidRecordedText,
  assertStorableAid,
  isDeMinimisProcedure,
  isOlderImport,
  isOrderedImportId,
  type AidRecord,
} from '@rna/domain';
import { hasIndex, type SqliteDatabase } from '../embedded/sqlite';
import { eachText, type PackedTexts } from '../packed-texts/packed-texts';
import { splitAid, textKey, type AidRowValues } from './compact-aid-rows';
import { RecentMemo } from './recent-memo';
import { TEXT_KEYS_SCHEMA, TextKeys } from './text-keys';

/**
 * The index searches go through: a company's aids by grant date, each entry carrying every column a
 * search returns, so that a company's aids are read together from a few pages of the index. With only
 * (tax_code, grant_date) each aid was then looked up in the table, whose rows lie in id order — one page
 * read an aid for a company met cold (at 25 million aids, a search p99 of 25–37 ms; 4.5 ms with this
 * index). It costs the rows a second copy: ~80 bytes an aid.
 */
export const SEARCH_INDEX_NAME = 'aid_rows_by_company';
const SEARCH_INDEX = `CREATE INDEX IF NOT EXISTS ${SEARCH_INDEX_NAME} ON aid_rows (tax_code, grant_date,
  de_minimis, import_ref, measure_ref, beneficiary_ref, project_ref, cor, cup, aid_cents, nominal_cents,
  raw_tax_code, project);`;
/** The search index of files written before it carried the rows: dropped, and the new one built in its place. */
const FORMER_SEARCH_INDEX_NAME = 'aid_rows_by_tax_code_date';

/**
 * Builds the search index of a file filled without it (a rebuild): one sort of every row, on both
 * cores, instead of a random insert per aid — at millions of aids each of those dirties a page.
 */
export function buildSearchIndex(db: SqliteDatabase): void {
  // SQLite's sorter keeps up to a cache's worth of rows in memory per thread: with the connection's
  // 64 MB cache the sort of 5 million rows took the process up by ~240 MB, with 16 MB by ~50 MB, and
  // was no slower (it merges a few more runs from its temporary file)
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = -${SORT_MEMORY_KB}`);
  db.pragma('threads = 2');
  try {
    db.exec(SEARCH_INDEX);
  } finally {
    db.pragma(`cache_size = ${cacheSize}`);
  }
}

/** Memory of the search index's sort, per sorting thread. */
const SORT_MEMORY_KB = 16 * 1024;

/** A file no one searches yet (a rebuild's): the search index is built once it is filled. */
export function dropSearchIndex(db: SqliteDatabase): void {
  db.exec(`DROP INDEX IF EXISTS ${SEARCH_INDEX_NAME}`);
}

/**
 * An index file of an earlier version has the former search index: it goes, and the file is then
 * one with rows and no search index, which is built in one sort as soon as the writes pause after
 * opening (or by the first search, if sooner) — about a minute at 25 million aids, once.
 */
export function dropFormerSearchIndex(db: SqliteDatabase): void {
  db.exec(`DROP INDEX IF EXISTS ${FORMER_SEARCH_INDEX_NAME}`);
}

export function hasSearchIndex(db: SqliteDatabase): boolean {
  return hasIndex(db, SEARCH_INDEX_NAME);
}

export const AID_INDEX_SCHEMA = `
CREATE TABLE IF NOT EXISTS texts (
  id INTEGER PRIMARY KEY,
  key INTEGER NOT NULL,
  text TEXT NOT NULL
);
${TEXT_KEYS_SCHEMA}CREATE TABLE IF NOT EXISTS imports (
  id INTEGER PRIMARY KEY,
  source_file TEXT NOT NULL,
  import_id TEXT NOT NULL,
  UNIQUE (source_file, import_id)
);
CREATE TABLE IF NOT EXISTS aid_rows (
  id TEXT PRIMARY KEY,
  tax_code TEXT NOT NULL,
  grant_date INTEGER NOT NULL,
  de_minimis INTEGER NOT NULL,
  import_ref INTEGER NOT NULL,
  measure_ref INTEGER NOT NULL,
  beneficiary_ref INTEGER NOT NULL,
  project_ref INTEGER NOT NULL,
  cor TEXT,
  cup TEXT,
  aid_cents INTEGER NOT NULL,
  nominal_cents INTEGER NOT NULL,
  raw_tax_code TEXT,
  project TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS aid_rows_by_import ON aid_rows (import_ref);
CREATE TABLE IF NOT EXISTS settled_imports (
  source_file TEXT PRIMARY KEY,
  import_id TEXT NOT NULL
);
`;

/** project_ref of a row that keeps its project title in its own `project` column. */
export const INLINE_PROJECT = 0;

/** Index files written before titles could be kept in the row get the column (NULL in old rows). */
export function addInlineProjectColumn(db: SqliteDatabase): void {
  const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('aid_rows')").all();
  if (!columns.some((column) => column.name === 'project'))
    db.exec('ALTER TABLE aid_rows ADD COLUMN project TEXT');
}

/** The domain's rule: procedure code 1 or the description 'De Minimis' (stored with the aid for the filter). */
export function isDeMinimis(record: Pick<AidRecord, 'codProcedimento' | 'desProcedimento'>): boolean {
  return isDeMinimisProcedure(record.codProcedimento, record.desProcedimento);
}

export interface UpsertResult {
  changed: number;
  changedTaxCodes: string[];
}

/** One validation for every index adapter: the domain's. */
export const validate = assertStorableAid;

export interface WithdrawResult {
  count: number;
  taxCodes: string[];
}

export interface AidIndexWrites {
  upsert(records: AidRecord[]): UpsertResult;
  /** Aids as their AidRecorded messages' texts, packed: decoded and validated here. */
  upsertEncoded(messages: PackedTexts): UpsertResult;
  withdraw(ids: string[]): WithdrawResult;
  withdrawBySourceFile(sourceFile: string, keepImportId?: string): WithdrawResult;
  clear(): void;
}

/** A row as stored: its own values and the ids of its dictionary entries. */
interface StoredRow {
  tax_code: string;
  grant_date: number;
  de_minimis: number;
  import_ref: number;
  measure_ref: number;
  beneficiary_ref: number;
  project_ref: number;
  cor: string | null;
  cup: string | null;
  aid_cents: number;
  nominal_cents: number;
  raw_tax_code: string | null;
  project: string | null;
}

type RowColumns = [
  taxCode: string,
  grantDate: number,
  deMinimis: number,
  importRef: number,
  measureRef: number,
  beneficiaryRef: number,
  projectRef: number,
  cor: string | null,
  cup: string | null,
  aidCents: number,
  nominalCents: number,
  rawTaxCode: string | null,
  /** the title itself when projectRef is INLINE_PROJECT */
  project: string | null,
];

function rowColumns(
  row: AidRowValues,
  refs: { importRef: number; measure: number; beneficiary: number; project: ProjectColumns },
  deMinimis: number,
): RowColumns {
  return [
    row.taxCode,
    row.grantDate,
    deMinimis,
    refs.importRef,
    refs.measure,
    refs.beneficiary,
    refs.project.ref,
    row.cor,
    row.cup,
    row.aidCents,
    row.nominalCents,
    row.rawTaxCode,
    refs.project.inline,
  ];
}

/**
 * Same aid content: every stored value equal except the import that wrote it; the project title
 * compared as text (`storedProject`, `project`: its JSON), however each copy keeps it.
 */
function sameContent(
  stored: StoredRow,
  columns: RowColumns,
  storedProject: string,
  project: string,
): boolean {
  return (
    storedProject === project &&
    stored.tax_code === columns[0] &&
    stored.grant_date === columns[1] &&
    stored.de_minimis === columns[2] &&
    stored.measure_ref === columns[4] &&
    stored.beneficiary_ref === columns[5] &&
    stored.cor === columns[7] &&
    stored.cup === columns[8] &&
    stored.aid_cents === columns[9] &&
    stored.nominal_cents === columns[10] &&
    stored.raw_tax_code === columns[11]
  );
}

/** Where a row keeps its project title: a dictionary id, or INLINE_PROJECT and the title. */
interface ProjectColumns {
  ref: number;
  inline: string | null;
}

/**
 * Text ↔ id of the `texts` and `imports` dictionaries, memoized. Entries are never deleted nor
 * changed, so a memo stays true on every connection; forget() after a rolled-back write.
 */
export class AidDictionaries {
  private readonly textIds: RecentMemo<string, number>;
  /**
   * Project titles met once lately (by their textKey: a number, not the title, so 200,000 of them cost
   * a few MB, not tens), kept in their row: a second meeting puts them in `texts`. Two titles sharing
   * a key only put the second one in `texts` early, which costs a few bytes and changes no answer.
   */
  private readonly projectsSeenOnce = new RecentMemo<number, true>(100_000);
  private readonly importRefs = new RecentMemo<string, number>(5_000);
  private readonly importsByRef = new RecentMemo<number, { sourceFile: string; importId: string }>(5_000);
  private readonly textKeys: TextKeys;
  private readonly statements;

  /**
   * `textMemoEntries`: texts whose id is kept at hand, per generation (default 100,000);
   * `textKeysMergeAt`: new texts whose keys are kept in memory before they are merged (text-keys.ts).
   */
  constructor(db: SqliteDatabase, textMemoEntries = 100_000, textKeysMergeAt?: number) {
    this.textIds = new RecentMemo<string, number>(textMemoEntries);
    this.textKeys = new TextKeys(db, textKeysMergeAt);
    this.statements = {
      insertText: db.prepare<[number, string]>('INSERT INTO texts (key, text) VALUES (?, ?)'),
      textOf: db.prepare<[number], string>('SELECT text FROM texts WHERE id = ?').pluck(),
      findImport: db
        .prepare<[string, string], number>('SELECT id FROM imports WHERE source_file = ? AND import_id = ?')
        .pluck(),
      insertImport: db.prepare<[string, string]>(
        'INSERT INTO imports (source_file, import_id) VALUES (?, ?)',
      ),
      importOf: db.prepare<[number], { source_file: string; import_id: string }>(
        'SELECT source_file, import_id FROM imports WHERE id = ?',
      ),
      importsOfFile: db.prepare<[string], { id: number; import_id: string }>(
        'SELECT id, import_id FROM imports WHERE source_file = ?',
      ),
    };
  }

  /** First thing in a write transaction that may look texts up or add them. */
  beginWrite(): void {
    this.textKeys.catchUp();
  }

  /** Last thing in such a transaction. */
  endWrite(): void {
    this.textKeys.mergeIfDue();
  }

  /** Call inside the write transaction: a new text is inserted with it. `key`: its textKey, if computed. */
  textId(text: string, key?: number): number {
    let id = this.textIds.get(text);
    if (id === undefined) {
      key ??= textKey(text);
      id = this.textKeys.find(key, text);
      if (id === undefined) {
        id = Number(this.statements.insertText.run(key, text).lastInsertRowid);
        this.textKeys.added(key, id);
      }
      this.textIds.set(text, id);
    }
    return id;
  }

  /**
   * A project title (`json`: its JSON) kept in its row the first time it is met, and in the
   * dictionary from the second on: most titles are one aid's own, some repeat across a measure.
   */
  project(json: string, title: string | null): ProjectColumns {
    const known = this.textIds.get(json);
    if (known !== undefined) return { ref: known, inline: null };
    const key = textKey(json);
    if (this.projectsSeenOnce.get(key) === undefined) {
      this.projectsSeenOnce.set(key, true);
      return { ref: INLINE_PROJECT, inline: title };
    }
    return { ref: this.textId(json, key), inline: null };
  }

  /** The project title's JSON as a stored row keeps it. */
  storedProject(row: { project_ref: number; project: string | null }): string {
    return row.project_ref === INLINE_PROJECT
      ? JSON.stringify(row.project)
      : (this.statements.textOf.get(row.project_ref) ?? 'null');
  }

  importRef(sourceFile: string, importId: string): number {
    const key = `${sourceFile}\n${importId}`;
    let ref = this.importRefs.get(key);
    if (ref === undefined) {
      ref =
        this.statements.findImport.get(sourceFile, importId) ??
        Number(this.statements.insertImport.run(sourceFile, importId).lastInsertRowid);
      this.importRefs.set(key, ref);
    }
    return ref;
  }

  importOf(ref: number): { sourceFile: string; importId: string } {
    let found = this.importsByRef.get(ref);
    if (!found) {
      const row = this.statements.importOf.get(ref);
      found = { sourceFile: row?.source_file ?? '', importId: row?.import_id ?? '' };
      this.importsByRef.set(ref, found);
    }
    return found;
  }

  importsOfFile(sourceFile: string): { ref: number; importId: string }[] {
    return this.statements.importsOfFile.all(sourceFile).map((r) => ({ ref: r.id, importId: r.import_id }));
  }

  forget(): void {
    this.textKeys.forget();
    this.textIds.clear();
    this.projectsSeenOnce.clear();
    this.importRefs.clear();
    this.importsByRef.clear();
  }
}

/** Prepares the write statements on `db` (whose schema must exist). */
export function aidIndexWrites(
  db: SqliteDatabase,
  options: { textMemoEntries?: number; textKeysMergeAt?: number } = {},
): AidIndexWrites {
  const dictionaries = new AidDictionaries(db, options.textMemoEntries, options.textKeysMergeAt);
  const statements = {
    existing: db.prepare<[string], StoredRow>(
      `SELECT tax_code, grant_date, de_minimis, import_ref, measure_ref, beneficiary_ref, project_ref,
        cor, cup, aid_cents, nominal_cents, raw_tax_code, project FROM aid_rows WHERE id = ?`,
    ),
    insertNew: db.prepare<[string, ...RowColumns]>(
      `INSERT INTO aid_rows (id, tax_code, grant_date, de_minimis, import_ref, measure_ref, beneficiary_ref,
        project_ref, cor, cup, aid_cents, nominal_cents, raw_tax_code, project)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    ),
    update: db.prepare<[...RowColumns, string]>(
      `UPDATE aid_rows SET tax_code = ?, grant_date = ?, de_minimis = ?, import_ref = ?, measure_ref = ?,
        beneficiary_ref = ?, project_ref = ?, cor = ?, cup = ?, aid_cents = ?, nominal_cents = ?,
        raw_tax_code = ?, project = ? WHERE id = ?`,
    ),
    updateImport: db.prepare<[number, string]>('UPDATE aid_rows SET import_ref = ? WHERE id = ?'),
    withdraw: db.prepare<[string], { tax_code: string }>(
      'DELETE FROM aid_rows WHERE id = ? RETURNING tax_code',
    ),
    withdrawImport: db.prepare<[number], { tax_code: string }>(
      'DELETE FROM aid_rows WHERE import_ref = ? RETURNING tax_code',
    ),
    clearRows: db.prepare('DELETE FROM aid_rows'),
    settledImport: db
      .prepare<[string], string>('SELECT import_id FROM settled_imports WHERE source_file = ?')
      .pluck(),
    settle: db.prepare<[string, string]>(
      'INSERT INTO settled_imports (source_file, import_id) VALUES (?, ?) ' +
        'ON CONFLICT (source_file) DO UPDATE SET import_id = MAX(import_id, excluded.import_id)',
    ),
    clearSettled: db.prepare('DELETE FROM settled_imports'),
  };

  /** Tax code → source file of each changed aid. */
  const upsertTransaction = db.transaction((records: Iterable<AidRecord>) => {
    const changedTaxCodes = new Map<string, string>();
    let changed = 0;
    dictionaries.beginWrite();
    // read in this transaction, per file: another process's writer may have settled a newer import
    const settled = new Map<string, string | undefined>();
    const settledImportOf = (sourceFile: string) => {
      if (!settled.has(sourceFile)) settled.set(sourceFile, statements.settledImport.get(sourceFile));
      return settled.get(sourceFile);
    };
    for (const record of records) {
      // a late aid of an import older than the file's last completed import or withdrawal (a paused
      // writer, a redelivery): what that import brought was settled without it, it stays out
      const settledImport = settledImportOf(record.sourceFile);
      if (settledImport !== undefined && isOlderImport(record.importId, settledImport)) continue;
      const parts = splitAid(record);
      const { row } = parts;
      const columns = rowColumns(
        row,
        {
          importRef: dictionaries.importRef(parts.sourceFile, parts.importId),
          measure: dictionaries.textId(parts.measure),
          beneficiary: dictionaries.textId(parts.beneficiary),
          project: dictionaries.project(parts.project, record.titoloProgetto ?? null),
        },
        isDeMinimis(record) ? 1 : 0,
      );
      if (statements.insertNew.run(row.id, ...columns).changes === 1) {
        changed += 1;
        changedTaxCodes.set(row.taxCode, record.sourceFile);
        continue;
      }
      const previous = statements.existing.get(row.id);
      if (!previous) continue;
      // a late message of an import a newer one replaced (import-order.ts): the newer copy stays
      if (isOlderImport(record.importId, dictionaries.importOf(previous.import_ref).importId)) continue;
      if (sameContent(previous, columns, dictionaries.storedProject(previous), parts.project)) {
        // Same aid seen again by a later import: remember the import, but it is not a change.
        if (previous.import_ref !== columns[3]) statements.updateImport.run(columns[3], row.id);
        continue;
      }
      statements.update.run(...columns, row.id);
      changed += 1;
      changedTaxCodes.set(previous.tax_code, record.sourceFile);
      changedTaxCodes.set(row.taxCode, record.sourceFile);
    }
    dictionaries.endWrite();
    return { changed, changedTaxCodes };
  });

  /** A rolled-back write may have memoized dictionary ids that were never committed. */
  const writing = <T>(write: () => T): T => {
    try {
      return write();
    } catch (error) {
      dictionaries.forget();
      throw error;
    }
  };

  const withdrawTransaction = db.transaction((ids: string[]): WithdrawResult => {
    const taxCodes = new Set<string>();
    let count = 0;
    for (const id of ids) {
      const removed = statements.withdraw.get(String(id).trim());
      if (removed) {
        count += 1;
        taxCodes.add(removed.tax_code);
      }
    }
    return { count, taxCodes: [...taxCodes] };
  });

  const clearTransaction = db.transaction(() => {
    statements.clearRows.run();
    statements.clearSettled.run();
  });

  /** The aids of the file written by the imports `withdrawn` picks. */
  const withdrawImportsTransaction = db.transaction(
    (sourceFile: string, withdrawn: (importId: string) => boolean, settling?: string): WithdrawResult => {
      const taxCodes = new Set<string>();
      let count = 0;
      if (settling !== undefined) statements.settle.run(sourceFile, settling);
      for (const { ref, importId } of dictionaries.importsOfFile(sourceFile)) {
        if (!withdrawn(importId)) continue;
        for (const removed of statements.withdrawImport.all(ref)) {
          count += 1;
          taxCodes.add(removed.tax_code);
        }
      }
      return { count, taxCodes: [...taxCodes] };
    },
  );

  return {
    upsert: (records) => {
      const { changed, changedTaxCodes } = writing(() => upsertTransaction.immediate(records));
      return { changed, changedTaxCodes: [...changedTaxCodes.keys()] };
    },
    upsertEncoded: (messages) => {
      const { changed, changedTaxCodes } = writing(() => upsertTransaction.immediate(aidsOf(messages)));
      return { changed, changedTaxCodes: [...changedTaxCodes.keys()] };
    },
    withdraw: (ids) => withdrawTransaction.immediate(ids),
    withdrawBySourceFile: (sourceFile, keepImportId) =>
      // An ordered import removes what older imports wrote, never a newer import's aids.
      withdrawImportsTransaction.immediate(
        sourceFile,
        keepImportId === undefined
          ? () => true
          : isOrderedImportId(keepImportId)
            ? (importId) => importId < keepImportId
            : (importId) => importId !== keepImportId,
        keepImportId !== undefined && isOrderedImportId(keepImportId) ? keepImportId : undefined,
      ),
    // The dictionaries stay: another connection (the writer thread) may hold their ids in memory, and
    // a rebuild or the next sync brings back the same texts anyway.
    clear: () => clearTransaction.immediate(),
  };
}

/**
 * Each message's aid, decoded and checked when the write reaches it: an aid is garbage once written,
 * where a whole batch decoded first outlived the writer thread's young generation (and its dictionary
 * memo was marked again at each collection of the old one). An aid that fails the check rolls the
 * whole write back, as one checked before the write began would have refused it.
 */
function* aidsOf(messages: PackedTexts): Generator<AidRecord> {
  for (const text of eachText(messages)) {
    const aid = aidOfAidRecordedText(text);
    validate(aid);
    yield aid;
  }
}

/** A sync writes millions of rows: checkpoint (copy the WAL into the file, fsync) every ~40 MB, not 4 MB. */
export function tuneForBulkWrites(db: SqliteDatabase): void {
  db.pragma('wal_autocheckpoint = 10000');
}
