import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeAidRecorded, type AidRecord } from '@rna/domain';
import { openSqliteFile, type SqliteDatabase } from '../embedded/sqlite';
import { packTexts } from '../packed-texts/packed-texts';
import { AID_INDEX_SCHEMA, aidIndexWrites } from './aid-index-writes';
import { sampleAid } from './contract';
import { openSqliteAidIndex } from './sqlite-aid-index';
import { textKey } from './compact-aid-rows';
import { TextKeys } from './text-keys';

const withFile = async (run: (file: string) => Promise<void> | void) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-text-keys-'));
  try {
    await run(path.join(dir, 'aids.db'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

/** Aid `id` of company `company` (its name a text of its own in the dictionary). */
const aidOf = (id: number, company: number): AidRecord =>
  sampleAid({
    idComponenteAiuto: String(id),
    codiceFiscaleBeneficiario: String(10_000_000_000 + company),
    denominazioneBeneficiario: `Impresa ${company} S.r.l.`,
  });

/** A connection writing the way the index's writer does, with a memo too small to remember anything. */
const connection = (file: string, textKeysMergeAt: number) => {
  const db = openSqliteFile(file, { schema: AID_INDEX_SCHEMA });
  return { db, writes: aidIndexWrites(db, { textMemoEntries: 1, textKeysMergeAt }) };
};

const companyTexts = (db: SqliteDatabase) =>
  db.prepare("SELECT text FROM texts WHERE text LIKE '%Impresa %'").pluck().all() as string[];

const expectEachTextOnce = (db: SqliteDatabase) => {
  const texts = db.prepare('SELECT text FROM texts').pluck().all() as string[];
  expect(texts.length).toBeGreaterThan(0);
  expect(new Set(texts).size).toBe(texts.length);
};

describe("the dictionary's text keys", () => {
  it('keeps each text once and finds it again on either side of a merge of the keys', () =>
    withFile((file) => {
      const { db, writes } = connection(file, 5);
      const aids = Array.from({ length: 60 }, (_, i) => aidOf(i, i % 23));
      for (let i = 0; i < aids.length; i += 4) writes.upsert(aids.slice(i, i + 4));
      expectEachTextOnce(db);
      expect(companyTexts(db)).toHaveLength(23);
      // the keys were merged along the way: most texts are found through text_keys now
      const merged = db.prepare('SELECT upto FROM text_keys_merged').pluck().get() as number;
      expect(merged).toBeGreaterThan(0);
      expect(db.prepare('SELECT COUNT(*) FROM text_keys').pluck().get()).toBe(
        db.prepare('SELECT COUNT(*) FROM texts WHERE id <= ?').pluck().get(merged),
      );
      // the same aids again: every text found, nothing changed, nothing added
      expect(writes.upsert(aids)).toEqual({ changed: 0, changedTaxCodes: [] });
      expectEachTextOnce(db);
      // a company renamed is a change, and its new name one more text
      expect(writes.upsert([{ ...aids[3]!, denominazioneBeneficiario: 'Impresa 3 S.p.A.' }]).changed).toBe(1);
      expect(companyTexts(db)).toHaveLength(24);
      db.close();
    }));

  it('finds the texts another connection added, merged or not, and merges them with its own', () =>
    withFile((file) => {
      const a = connection(file, 4);
      const b = connection(file, 1_000);
      a.writes.upsert(Array.from({ length: 10 }, (_, i) => aidOf(i, i))); // merged by a
      b.writes.upsert(Array.from({ length: 15 }, (_, i) => aidOf(100 + i, i))); // 10–14 new, not merged
      expect(companyTexts(a.db)).toHaveLength(15);
      a.writes.upsert(Array.from({ length: 10 }, (_, i) => aidOf(200 + i, 10 + i))); // 10–14 are b's
      expect(companyTexts(a.db)).toHaveLength(20);
      b.writes.upsert(Array.from({ length: 20 }, (_, i) => aidOf(300 + i, i))); // all known by now
      expect(companyTexts(b.db)).toHaveLength(20);
      expectEachTextOnce(a.db);
      a.db.close();
      b.db.close();
    }));

  it('forgets the keys of a rolled-back write and then finds what another connection added meanwhile', () =>
    withFile((file) => {
      const a = connection(file, 3);
      const b = connection(file, 1_000); // its texts stay unmerged, found in memory only
      a.writes.upsert([aidOf(1, 1)]);
      const before = companyTexts(a.db).length;
      const invalid = { ...aidOf(99, 99), dataConcessione: '15/03/2024' };
      // new companies, enough to merge their keys, then an invalid aid: the whole write goes
      const aids = [...Array.from({ length: 8 }, (_, i) => aidOf(10 + i, 10 + i)), invalid];
      expect(() =>
        a.writes.upsertEncoded(packTexts(aids.map((aid) => encodeAidRecorded(JSON.stringify(aid))))),
      ).toThrow('dataConcessione');
      expect(companyTexts(a.db)).toHaveLength(before);
      // b adds some of those companies: their texts take the ids the rolled-back write had used
      b.writes.upsert(Array.from({ length: 5 }, (_, i) => aidOf(20 + i, 12 + i)));
      a.writes.upsert(Array.from({ length: 8 }, (_, i) => aidOf(10 + i, 10 + i)));
      expect(companyTexts(a.db)).toHaveLength(before + 8);
      expectEachTextOnce(a.db);
      a.db.close();
      b.db.close();
    }));

  it('tells stored texts from new ones past the size of its first filter, and after another connection merged', () =>
    withFile((file) => {
      // filters of 1,024 bits at first: more texts than they hold well, so they are rebuilt larger
      const filterBits = 1_024;
      const count = 3_000;
      const texts = (from: number, to: number) =>
        Array.from({ length: to - from }, (_, i) => `Titolo del progetto ${from + i}`);
      const a = openSqliteFile(file, { schema: AID_INDEX_SCHEMA });
      const b = openSqliteFile(file, { schema: AID_INDEX_SCHEMA });
      const keysOfA = new TextKeys(a, 500, filterBits);
      const keysOfB = new TextKeys(b, 500, filterBits);
      /** Stores what is not stored yet (as the writer does): how many it found stored. */
      const store = (db: SqliteDatabase, keys: TextKeys, batch: string[]): number =>
        db
          .transaction(() => {
            keys.catchUp();
            const insert = db.prepare('INSERT INTO texts (key, text) VALUES (?, ?)');
            let found = 0;
            for (const text of batch) {
              const key = textKey(text);
              if (keys.find(key, text) !== undefined) found++;
              else keys.added(key, Number(insert.run(key, text).lastInsertRowid));
            }
            keys.mergeIfDue();
            return found;
          })
          .immediate();
      expect(store(b, keysOfB, texts(0, 10))).toBe(0); // b's filter made while the dictionary is small
      for (let from = 0; from < count; from += 250) store(a, keysOfA, texts(from, from + 250));
      // a merged its keys many times over: b finds every one of them, and not the texts never stored
      expect(store(b, keysOfB, texts(0, count + 500))).toBe(count);
      expect(store(a, keysOfA, texts(count + 500, count + 600))).toBe(0);
      expect(store(a, keysOfA, texts(0, count + 600))).toBe(count + 600);
      const stored = a.prepare('SELECT COUNT(*) FROM texts').pluck().get();
      expect(stored).toBe(count + 600);
      a.close();
      b.close();
    }));

  it('moves the keys of a file written with the former key index into text_keys when it is opened', () =>
    withFile(async (file) => {
      const aids = Array.from({ length: 50 }, (_, i) => aidOf(i, i % 17));
      const index = openSqliteAidIndex(file);
      await index.upsert(aids);
      await index.close();
      // the former layout: texts found through an index on their key
      const former = openSqliteFile(file);
      former.exec(`DROP TABLE text_keys; DROP TABLE text_keys_merged;
        CREATE INDEX texts_by_key ON texts (key);`);
      const texts = former.prepare('SELECT COUNT(*) FROM texts').pluck().get() as number;
      former.close();

      const reopened = openSqliteAidIndex(file);
      for (const aid of aids.slice(0, 5)) expect(await reopened.get(aid.idComponenteAiuto)).toEqual(aid);
      expect(await reopened.upsert(aids)).toEqual({ changed: 0, changedTaxCodes: [] });
      await reopened.close();
      const db = openSqliteFile(file);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'texts_by_key'").get()).toBeUndefined();
      expect(db.prepare('SELECT COUNT(*) FROM text_keys').pluck().get()).toBe(texts);
      expect(db.prepare('SELECT COUNT(*) FROM texts').pluck().get()).toBe(texts);
      db.close();
    }));
});
