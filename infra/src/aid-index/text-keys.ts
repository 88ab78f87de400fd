/**
 * Which entry of the `texts` dictionary holds a text, found by the text's key (textKey, a hash)
 * without a B-tree insert at a random place for each new text.
 *
 * An index on the hash put every new text (a company met for the first time, a title met twice) on
 * a random page of the index, and each commit of the index writer wrote those pages to the WAL again,
 * which the checkpoints then copied into the file: a rebuild of 25 million aids wrote 73 GB for an
 * index of 7.6 GB, and from 200,000 aids on a commit of 1,000 aids wrote ~2.5 KB an aid.
 *
 * Here the keys of the texts up to an id (`text_keys_merged.upto`) are in `text_keys` (key, id); the
 * keys of the texts after it are in memory, read from `texts` itself (append-only: the texts after an
 * id are one range of its rows, whichever connection added them). When those reach `mergeAt`, their
 * keys go into `text_keys` in one insert sorted by key, inside the write that reached the mark, so
 * each page of `text_keys` is written once per merge instead of once per commit.
 */
import { hasIndex, retryWhileBusy, type SqliteDatabase } from '../embedded/sqlite';
import { MIN_FILTER_BITS, TextKeyFilter } from './text-key-filter';

export const TEXT_KEYS_SCHEMA = `
CREATE TABLE IF NOT EXISTS text_keys (
  key INTEGER NOT NULL,
  id INTEGER NOT NULL,
  PRIMARY KEY (key, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS text_keys_merged (
  one INTEGER PRIMARY KEY CHECK (one = 1),
  upto INTEGER NOT NULL
);
`;

/** The index on `texts (key)` of files written before text_keys. */
const FORMER_KEY_INDEX = 'texts_by_key';

/**
 * Texts kept in memory before their keys are merged: 46 bytes each (a map entry and its number key;
 * 11.6 MB for 250,000: the heap in use after a collection); a merge writes each page of text_keys it
 * reaches once, at most all of them.
 */
export const TEXT_KEYS_MERGE_AT = 250_000;

export class TextKeys {
  /** key → id (or ids, two texts sharing a key) of the texts after `merged`, up to `loaded`. */
  private readonly recent = new Map<number, number | number[]>();
  /** Texts with an id up to this are in text_keys (as this connection last read it). */
  private merged = 0;
  /** Texts with an id up to this are in `recent` or text_keys (never below `merged`). */
  private loaded = 0;
  /** The keys of the texts up to `loaded`, at least (null until the first catchUp, and after forget). */
  private filter: TextKeyFilter | null = null;
  private readonly statements;

  /** `filterMinBits`: the size of its first filter of keys (text-key-filter.ts), smaller in tests. */
  constructor(
    db: SqliteDatabase,
    private readonly mergeAt = TEXT_KEYS_MERGE_AT,
    private readonly filterMinBits = MIN_FILTER_BITS,
  ) {
    this.statements = {
      mergedUpto: db.prepare<[], number>('SELECT upto FROM text_keys_merged').pluck(),
      textsAfter: db.prepare<[number], { id: number; key: number }>(
        'SELECT id, key FROM texts WHERE id > ? ORDER BY id',
      ),
      findMerged: db
        .prepare<[number, string], number>(
          'SELECT t.id FROM text_keys k JOIN texts t ON t.id = k.id WHERE k.key = ? AND t.text = ?',
        )
        .pluck(),
      textOf: db.prepare<[number], string>('SELECT text FROM texts WHERE id = ?').pluck(),
      merge: db.prepare<[number]>(
        'INSERT OR IGNORE INTO text_keys (key, id) SELECT key, id FROM texts WHERE id > ? ORDER BY key, id',
      ),
      lastText: db.prepare<[], number | null>('SELECT MAX(id) FROM texts').pluck(),
      mergedKeys: db.prepare<[], number>('SELECT key FROM text_keys').pluck(),
      keysOfTexts: db
        .prepare<[number, number], number>('SELECT key FROM texts WHERE id > ? AND id <= ?')
        .pluck(),
      setMerged: db.prepare<[number]>(
        'INSERT INTO text_keys_merged (one, upto) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET upto = excluded.upto',
      ),
    };
  }

  /**
   * Call inside the write transaction, before any look-up: what other connections merged or added
   * since this one last looked is taken in (it holds the write lock, so nothing changes after).
   */
  catchUp(): void {
    const merged = this.statements.mergedUpto.get() ?? 0;
    // text_keys holds the keys up to `merged`: the first time, they all go in the filter; after, the
    // keys of the texts another connection added and merged while this one was not looking
    if (this.filter === null) this.filter = this.filterOfMergedKeys();
    else if (merged > this.loaded) {
      for (const key of this.statements.keysOfTexts.iterate(this.loaded, merged)) this.filter.add(key);
    }
    if (merged > this.merged) {
      // another connection merged: what this one held is in text_keys, the texts after it are read
      this.recent.clear();
      this.merged = merged;
      this.loaded = merged;
    }
    for (const { id, key } of this.statements.textsAfter.iterate(this.loaded)) this.added(key, id);
  }

  /** The id of the stored text `text` (whose key is `key`), if it is stored. */
  find(key: number, text: string): number | undefined {
    if (this.filter !== null && !this.filter.mayHave(key)) return undefined;
    const ids = this.recent.get(key);
    if (ids !== undefined) {
      for (const id of typeof ids === 'number' ? [ids] : ids)
        if (this.statements.textOf.get(id) === text) return id;
    }
    return this.statements.findMerged.get(key, text);
  }

  /** A text just inserted (inside the write transaction) under `id`, or one read back. */
  added(key: number, id: number): void {
    this.filter?.add(key);
    const ids = this.recent.get(key);
    if (ids === undefined) this.recent.set(key, id);
    else if (typeof ids === 'number') {
      if (ids !== id) this.recent.set(key, [ids, id]);
    } else if (!ids.includes(id)) ids.push(id);
    if (id > this.loaded) this.loaded = id;
  }

  /** At the end of a write (inside its transaction): the keys in memory merged once there are enough. */
  mergeIfDue(): void {
    if (this.recent.size >= this.mergeAt) this.mergeAll();
    if (this.filter?.wantsRebuild) this.filter = this.filterOfMergedKeys();
  }

  /**
   * A filter of every key in text_keys and in memory. Read whole at a writer's first write (its first
   * catchUp on 3 million merged texts took 2.5 and 3.3 s in two runs; a whole register's ~10 million,
   * ~10 s once) and when it grows, sized to double.
   */
  private filterOfMergedKeys(): TextKeyFilter {
    // sized by the last text's id, which no count of the texts exceeds (a COUNT(*) would read text_keys twice)
    const filter = new TextKeyFilter(this.statements.lastText.get() ?? 0, this.filterMinBits);
    for (const key of this.statements.mergedKeys.iterate()) filter.add(key);
    for (const key of this.recent.keys()) filter.add(key);
    return filter;
  }

  /** Every text's key into text_keys (inside a write transaction). */
  mergeAll(): void {
    const last = this.statements.lastText.get() ?? 0;
    if (last <= this.merged) return;
    this.statements.merge.run(this.merged);
    this.statements.setMerged.run(last);
    this.recent.clear();
    this.merged = last;
    this.loaded = last;
  }

  /** After a rolled-back write: what it added is gone, so everything is read again at the next. */
  forget(): void {
    this.filter = null;
    this.recent.clear();
    this.merged = 0;
    this.loaded = 0;
  }
}

/**
 * A file written before text_keys: the keys of all its texts go in (one sort), and the former
 * index goes. Run when the file is opened, before any write. Several processes may open the file
 * at once: one migrates, the others wait for it and then find nothing left to do. 10 million texts
 * (a whole register has ~10 million) migrated in 3.5 s on the development machine, within the 10 s busy
 * timeout; the longer budget is for a slower disk.
 */
export function migrateTextKeys(db: SqliteDatabase): void {
  retryWhileBusy(() => {
    if (!hasIndex(db, FORMER_KEY_INDEX)) return;
    db.transaction(() => {
      new TextKeys(db).mergeAll();
      db.exec(`DROP INDEX IF EXISTS ${FORMER_KEY_INDEX}`);
    }).immediate();
  }, MIGRATION_BUDGET_MS);
}

/** How long an opening waits for another process's migration. */
const MIGRATION_BUDGET_MS = 5 * 60_000;
