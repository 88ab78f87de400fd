import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import Database from 'better-sqlite3';
import { AID_INDEX_SCHEMA, SEARCH_INDEX_NAME } from './aid-index-writes';
import { splitAid, textKey } from './compact-aid-rows';
import { describeAidIndexContract, sampleAid } from './contract';
import { openSqliteAidIndex, searchQuery, SqliteAidIndex } from './sqlite-aid-index';
import { TextKeys } from './text-keys';
import { until } from '../embedded/testing';
import { packTexts } from '../packed-texts/packed-texts';
import { encodeAidRecorded, type AidRecord } from '@rna/domain';

/** Aids' JSON texts as the sync hands them to the index: their AidRecorded messages, packed. */
const messagesOf = (aidsJson: string[]) => packTexts(aidsJson.map(encodeAidRecorded));

describeAidIndexContract('SQLite (embedded)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-'));
  const file = path.join(dir, 'aids.db');
  return {
    open: async () => openSqliteAidIndex(file),
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
});

describe('SQLite aid index bulk upserts (writer thread)', () => {
  it('writes, reports changes and reads back a sync-sized batch in order with small writes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-bulk-'));
    const index = openSqliteAidIndex(path.join(dir, 'aids.db'));
    try {
      const batch = Array.from({ length: 2500 }, (_, i) =>
        sampleAid({ idComponenteAiuto: String(i), codiceFiscaleBeneficiario: `cf${i % 10}` }),
      );
      const first = index.upsert(batch); // not awaited: the withdrawal below must still come after it
      const withdrawn = index.withdraw(['7']);
      expect((await first).changed).toBe(2500);
      expect((await first).changedTaxCodes).toHaveLength(10);
      expect(await withdrawn).toEqual({ count: 1, taxCodes: ['CF7'] });
      expect(await index.count()).toBe(2499);
      const again = await index.upsert(batch.map((aid) => ({ ...aid, importId: 'import-2' })));
      expect(again).toEqual({ changed: 1, changedTaxCodes: ['CF7'] });
      expect((await index.get('3'))?.importId).toBe('import-2');
      await expect(index.upsert([...batch, sampleAid({ dataConcessione: '15/03/2024' })])).rejects.toThrow(
        TypeError,
      );
      expect(await index.search({ taxCodes: ['CF1'], limit: 3 })).toHaveLength(3);
    } finally {
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite aid index writes of a few aids (a file’s last batch, a live look-up)', () => {
  it('go to the writer thread in order with the bulk ones, so the main thread never loads the text dictionary', async () => {
    // Loading it means reading every text key of the index into a filter (seconds and tens of MB at
    // 25 million aids), on the thread that answers the portal's requests.
    const dictionaryLoads = jest.spyOn(TextKeys.prototype, 'catchUp');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-small-'));
    const index = openSqliteAidIndex(path.join(dir, 'aids.db'));
    try {
      const aid = (i: number, over: Partial<AidRecord> = {}) =>
        sampleAid({ idComponenteAiuto: String(i), codiceFiscaleBeneficiario: `cf${i % 7}`, ...over });
      expect(await index.upsert([aid(1)])).toEqual({ changed: 1, changedTaxCodes: ['CF1'] });
      const bulk = index.upsertEncoded(
        messagesOf(Array.from({ length: 2_000 }, (_, i) => JSON.stringify(aid(i)))),
      );
      const small = index.upsertEncoded(messagesOf([JSON.stringify(aid(5, { cor: 'later' }))]));
      const smaller = index.upsert([aid(6, { denominazioneBeneficiario: 'Nuova Ragione Sociale Srl' })]);
      expect((await bulk).changed).toBe(1_999);
      expect(await small).toEqual({ changed: 1, changedTaxCodes: ['CF5'] });
      expect(await smaller).toEqual({ changed: 1, changedTaxCodes: ['CF6'] });
      expect((await index.get('5'))?.cor).toBe('later');
      expect((await index.get('6'))?.denominazioneBeneficiario).toBe('Nuova Ragione Sociale Srl');
      expect(await index.count()).toBe(2_000);
      expect(dictionaryLoads).not.toHaveBeenCalled();
    } finally {
      dictionaryLoads.mockRestore();
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite aid index upserts of aids encoded as JSON (the sync fast path)', () => {
  it('stores the aids as published, reports the source file of each changed tax code and rejects invalid aids', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-encoded-'));
    const index = openSqliteAidIndex(path.join(dir, 'aids.db'));
    try {
      const aids = Array.from({ length: 2500 }, (_, i) =>
        sampleAid({
          idComponenteAiuto: String(i),
          codiceFiscaleBeneficiario: `cf${i % 10}`,
          sourceFile: i < 2000 ? '2024_01' : '2024_02',
        }),
      );
      const first = await index.upsertEncoded(messagesOf(aids.map((aid) => JSON.stringify(aid))));
      expect(first.changed).toBe(2500);
      expect(first.changedTaxCodes.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `CF${i}`));
      expect(await index.get('42')).toEqual(aids[42]);
      // The same aids in the record form: nothing changed, whichever form wrote them.
      expect(await index.upsert(aids.slice(0, 10))).toEqual({ changed: 0, changedTaxCodes: [] });
      const small = await index.upsertEncoded(messagesOf([JSON.stringify({ ...aids[1]!, cor: 'other' })]));
      expect(small).toEqual({ changed: 1, changedTaxCodes: ['CF1'] });
      const invalid = JSON.stringify(sampleAid({ idComponenteAiuto: 'x', dataConcessione: '15/03/2024' }));
      await expect(index.upsertEncoded(messagesOf([invalid]))).rejects.toThrow('dataConcessione');
      // a text that is not an aid's message is refused, not stored
      const notAnAid = JSON.stringify({ type: 'SourceFileImported', aid: aids[3] });
      await expect(index.upsertEncoded(packTexts([notAnAid]))).rejects.toThrow('not an AidRecorded message');
      await expect(
        index.upsertEncoded(messagesOf([...aids.map((a) => JSON.stringify(a)), invalid])),
      ).rejects.toThrow('dataConcessione');
      expect(await index.get('x')).toBeNull();
      // an invalid aid after valid new ones: none of the write is stored, on either thread
      const fresh = Array.from({ length: 1500 }, (_, i) =>
        JSON.stringify(
          sampleAid({ idComponenteAiuto: String(900_000 + i), codiceFiscaleBeneficiario: 'cfn' }),
        ),
      );
      await expect(index.upsertEncoded(messagesOf([...fresh, invalid]))).rejects.toThrow('dataConcessione');
      await expect(index.upsertEncoded(messagesOf([fresh[0]!, invalid]))).rejects.toThrow('dataConcessione');
      expect(await index.get('900000')).toBeNull();
      expect(await index.get('901499')).toBeNull();
      expect(await index.upsertEncoded(messagesOf(fresh))).toEqual({
        changed: 1500,
        changedTaxCodes: ['CFN'],
      });
    } finally {
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite aid index bulk writes made before the one before has settled', () => {
  it('applies them in call order, a failed one not stopping the next, and a withdrawal after them waits for all', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-overlap-'));
    const index = openSqliteAidIndex(path.join(dir, 'aids.db'));
    try {
      const batch = (from: number, cents: number) =>
        Array.from({ length: 1000 }, (_, i) =>
          JSON.stringify(
            sampleAid({
              idComponenteAiuto: String(from + i),
              codiceFiscaleBeneficiario: `cf${i % 10}`,
              elementoDiAiutoCents: cents,
            }),
          ),
        );
      const invalid = JSON.stringify(sampleAid({ idComponenteAiuto: 'x', dataConcessione: '15/03/2024' }));
      // none awaited: aids 500–999 are written again by the second write, 2500–2999 by the fourth
      const writes = [
        index.upsertEncoded(messagesOf(batch(0, 100))),
        index.upsertEncoded(messagesOf(batch(500, 200))),
        index.upsertEncoded(messagesOf([...batch(2000, 300), invalid])),
        index.upsertEncoded(messagesOf(batch(2500, 400))),
      ];
      const withdrawn = index.withdraw(['3499']);
      const settled = await Promise.allSettled(writes);
      expect(settled.map((result) => result.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
      ]);
      expect(await withdrawn).toEqual({ count: 1, taxCodes: ['CF9'] });
      expect((await index.get('499'))?.elementoDiAiutoCents).toBe(100);
      expect((await index.get('999'))?.elementoDiAiutoCents).toBe(200);
      expect((await index.get('1499'))?.elementoDiAiutoCents).toBe(200);
      expect(await index.get('2000')).toBeNull(); // the failed write left nothing
      expect((await index.get('2500'))?.elementoDiAiutoCents).toBe(400);
      expect(await index.get('3499')).toBeNull();
      expect(await index.count()).toBe(1500 + 999);
    } finally {
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite aid index memory across bulk writes', () => {
  /** A full collection, as a long rebuild's process eventually makes (the flag set for this test). */
  const collectGarbage = (): void => {
    v8.setFlagsFromString('--expose-gc');
    (vm.runInNewContext('gc') as () => void)();
  };

  it('keeps nothing of a bulk write once it has settled, however many follow it with no other write between', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-memory-'));
    const index = openSqliteAidIndex(path.join(dir, 'aids.db'));
    try {
      const batch = (from: number) =>
        Array.from({ length: 1000 }, (_, i) =>
          JSON.stringify(
            sampleAid({ idComponenteAiuto: String(from + i), codiceFiscaleBeneficiario: `cf${i}` }),
          ),
        );
      // A write whose result the caller looks at, then lets go of (a helper's frame ends with it,
      // where a suspended loop's frame could still hold its last value).
      const writeAndLetGo = async (from: number) => {
        const { changedTaxCodes } = await index.upsertEncoded(messagesOf(batch(from)));
        expect(changedTaxCodes).toHaveLength(1000);
        return new WeakRef(changedTaxCodes);
      };
      // a rebuild's writes: bulk ones only, each awaited before the next (no marker, no withdrawal)
      const results: WeakRef<string[]>[] = [];
      for (let write = 0; write < 4; write++) results.push(await writeAndLetGo(write * 1000));
      await new Promise((resolve) => setImmediate(resolve)); // WeakRefs hold their target until the job ends
      collectGarbage();
      // each write's list of 1,000 changed codes is the caller's to keep, not the index's
      expect(results.map((result) => result.deref() === undefined)).toEqual([true, true, true, true]);
      expect(await index.count()).toBe(4000);
    } finally {
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite aid index on disk', () => {
  const withDir = async (run: (dir: string) => Promise<void>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-disk-'));
    try {
      await run(dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it('keeps an aid in well under 400 bytes, even when every aid has a project title of its own', () =>
    withDir(async (dir) => {
      const file = path.join(dir, 'aids.db');
      const index = openSqliteAidIndex(file);
      const aids = Array.from({ length: 30_000 }, (_, i) =>
        sampleAid({
          idComponenteAiuto: String(20_240_100_000_000 + i),
          cor: String(2_024_010_000_000 + i),
          cup: `F81B24${String(i).padStart(9, '0')}`,
          codiceFiscaleBeneficiario: String(10_000_000_000 + (i % 6_000)),
          denominazioneBeneficiario: `Impresa numero ${i % 6_000} S.r.l.`,
          titoloProgetto: `Progetto n. ${i} di Impresa numero ${i % 6_000} S.r.l.`,
          soggettoConcedente: `Camera di commercio n. ${i % 90}`,
          dataConcessione: `2024-0${1 + (i % 9)}-1${i % 10}`,
          elementoDiAiutoCents: 100_000 + i,
          importoNominaleCents: 1_000_000 + i,
        }),
      );
      for (let i = 0; i < aids.length; i += 5_000) await index.upsert(aids.slice(i, i + 5_000));
      // the file as searched: with its search index, which carries a second copy of each row
      expect(await index.search({ taxCodes: [aids[0]!.codiceFiscaleBeneficiario] })).toHaveLength(5);
      await index.close();
      const bytesPerAid = fs.statSync(file).size / aids.length;
      expect(bytesPerAid).toBeLessThan(400);
      const again = openSqliteAidIndex(file);
      expect(await again.get(aids[12_345]!.idComponenteAiuto)).toEqual(aids[12_345]);
      await again.close();
    }));

  it('keeps a project title in its row until it repeats, then once in the dictionary; both read back whole', () =>
    withDir(async (dir) => {
      const file = path.join(dir, 'aids.db');
      const index = openSqliteAidIndex(file);
      const own = (i: number) =>
        sampleAid({ idComponenteAiuto: String(i), titoloProgetto: `Progetto proprio ${i}` });
      const shared = (i: number) =>
        sampleAid({ idComponenteAiuto: String(i), titoloProgetto: 'Voucher digitale' });
      const untitled = sampleAid({ idComponenteAiuto: '99', titoloProgetto: undefined });
      const aids = [own(1), shared(2), own(3), shared(4), shared(5), untitled];
      await index.upsert(aids);
      for (const aid of aids) expect(await index.get(aid.idComponenteAiuto)).toEqual(aid);
      expect('titoloProgetto' in (await index.get('99'))!).toBe(false);
      await index.close();
      const db = new Database(file, { readonly: true });
      const texts = db.prepare('SELECT text FROM texts').pluck().all() as string[];
      db.close();
      expect(texts.filter((text) => text.includes('Progetto proprio'))).toEqual([]);
      expect(texts.filter((text) => text === '"Voucher digitale"')).toHaveLength(1);
    }));

  it("keeps each company's and measure's texts once, whichever of several texts a code comes with, in any order", () =>
    withDir(async (dir) => {
      const file = path.join(dir, 'aids.db');
      const index = openSqliteAidIndex(file);
      // one company under three names, one measure (one CAR) under six regulations, interleaved —
      // more texts a code than the memo keeps for it — and another company under a name of the first
      const names = ['Alfa S.r.l.', 'Alfa S.p.A.', 'Alfa Società Benefit S.r.l.'];
      const aids = Array.from({ length: 3_000 }, (_, i) =>
        sampleAid({
          idComponenteAiuto: String(i),
          codiceFiscaleBeneficiario: i % 7 === 0 ? '02222222222' : '01111111111',
          denominazioneBeneficiario: names[i % 3],
          car: '12345',
          codRegolamento: `REG-${(i * 5) % 6}`,
          desRegolamento: `Regolamento numero ${(i * 5) % 6}`,
        }),
      );
      await index.upsert(aids.slice(0, 2_000)); // on the writer thread
      for (let i = 2_000; i < aids.length; i += 100) await index.upsert(aids.slice(i, i + 100)); // here
      for (const i of [0, 1, 2, 7, 13, 2_001, 2_999]) expect(await index.get(String(i))).toEqual(aids[i]);
      await index.close();
      const db = new Database(file, { readonly: true });
      const texts = db.prepare('SELECT text FROM texts').pluck().all() as string[];
      db.close();
      for (const name of names)
        expect(
          texts.filter((text) => text.startsWith(`${JSON.stringify([name]).slice(0, -1)},`)),
        ).toHaveLength(1);
      for (let r = 0; r < 6; r++) expect(texts.filter((text) => text.includes(`"REG-${r}"`))).toHaveLength(1);
    }));

  it('reads an index written with every title in the dictionary, and a re-import of it changes nothing', () =>
    withDir(async (dir) => {
      const file = path.join(dir, 'aids.db');
      const aids = Array.from({ length: 20 }, (_, i) =>
        sampleAid({ idComponenteAiuto: String(i), titoloProgetto: `Progetto ${i % 4}` }),
      );
      // the layout before titles could stay in their row: no project column, a dictionary id for each
      const db = new Database(file);
      db.exec(AID_INDEX_SCHEMA.replace(/,\s*project TEXT/, ''));
      const textId = (text: string): number =>
        (db.prepare('SELECT id FROM texts WHERE text = ?').pluck().get(text) as number | undefined) ??
        Number(
          db.prepare('INSERT INTO texts (key, text) VALUES (?, ?)').run(textKey(text), text).lastInsertRowid,
        );
      const importRef = Number(
        db.prepare("INSERT INTO imports (source_file, import_id) VALUES ('2024_03_001', 'import-1')").run()
          .lastInsertRowid,
      );
      for (const aid of aids) {
        const { row, measure, beneficiary, project } = splitAid(aid);
        db.prepare(
          `INSERT INTO aid_rows (id, tax_code, grant_date, de_minimis, import_ref, measure_ref, beneficiary_ref,
            project_ref, cor, cup, aid_cents, nominal_cents, raw_tax_code) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          row.id,
          row.taxCode,
          row.grantDate,
          importRef,
          textId(measure),
          textId(beneficiary),
          textId(project),
          row.cor,
          row.cup,
          row.aidCents,
          row.nominalCents,
          row.rawTaxCode,
        );
      }
      db.close();
      const index = openSqliteAidIndex(file);
      for (const aid of aids) expect(await index.get(aid.idComponenteAiuto)).toEqual(aid);
      // the same aids again are no change (no variation alert), a changed title is one
      expect(await index.upsert(aids)).toEqual({ changed: 0, changedTaxCodes: [] });
      const retitled = { ...aids[7]!, titoloProgetto: 'Progetto rinominato' };
      expect((await index.upsert([retitled])).changed).toBe(1);
      expect(await index.get('7')).toEqual(retitled);
      await index.close();
    }));

  it('tells apart two texts that share a dictionary key', () =>
    withDir(async (dir) => {
      const file = path.join(dir, 'aids.db');
      const aid = sampleAid();
      const { measure } = splitAid(aid);
      const db = new Database(file);
      db.exec(AID_INDEX_SCHEMA);
      db.prepare('INSERT INTO texts (key, text) VALUES (?, ?)').run(textKey(measure), '["another measure"]');
      db.close();
      const index = openSqliteAidIndex(file);
      await index.upsert([aid]);
      expect(await index.get(aid.idComponenteAiuto)).toEqual(aid);
      await index.close();
    }));

  it('turns an index of JSON rows (written by an earlier version) into compact rows, losing nothing', () =>
    withDir(async (dir) => {
      const file = path.join(dir, 'aids.db');
      const db = new Database(file);
      db.exec(`CREATE TABLE aids (id TEXT PRIMARY KEY, tax_code TEXT NOT NULL, grant_date TEXT NOT NULL,
        source_file TEXT NOT NULL, import_id TEXT NOT NULL, de_minimis INTEGER NOT NULL, content TEXT NOT NULL)`);
      const aids = Array.from({ length: 12_000 }, (_, i) =>
        sampleAid({
          idComponenteAiuto: String(i),
          codiceFiscaleBeneficiario: `CF${i % 7}`,
          importId: `old-${i % 3}`,
        }),
      );
      const insert = db.prepare('INSERT INTO aids VALUES (?, ?, ?, ?, ?, ?, ?)');
      db.transaction(() => {
        for (const aid of aids) {
          const { importId, ...content } = aid;
          insert.run(
            aid.idComponenteAiuto,
            aid.codiceFiscaleBeneficiario,
            aid.dataConcessione,
            aid.sourceFile,
            importId,
            1,
            JSON.stringify(content),
          );
        }
      })();
      db.close();
      const index = openSqliteAidIndex(file);
      expect(await index.count()).toBe(12_000);
      expect(await index.get('11999')).toEqual(aids[11_999]);
      expect(await index.search({ taxCodes: ['CF3'] })).toHaveLength(
        aids.filter((a) => a.codiceFiscaleBeneficiario === 'CF3').length,
      );
      await index.close();
      const after = new Database(file);
      expect(after.prepare("SELECT name FROM sqlite_schema WHERE name = 'aids'").all()).toEqual([]);
      after.close();
    }));
});

/** How SQLite runs the statement a search with these filters runs. */
function planOf(db: Database.Database, taxCodes: string[], query: Parameters<typeof searchQuery>[1]): string {
  const { sql, params } = searchQuery(taxCodes, query);
  return db
    .prepare<(string | number)[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...params)
    .map((step) => step.detail)
    .join(' | ');
}

/** How SQLite would find one company's aids in the file: through the search index or by reading every row. */
function searchPlanOf(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return planOf(db, ['CF3'], {});
  } finally {
    db.close();
  }
}

describe('SQLite aid index filled from empty (a first sync)', () => {
  // many companies, in the writer thread's batches, as a sync's first files come
  const aids = Array.from({ length: 3_000 }, (_, i) =>
    sampleAid({ idComponenteAiuto: String(i), codiceFiscaleBeneficiario: `cf${i % 7}` }),
  );
  const idsOf = (found: { idComponenteAiuto: string }[]) => found.map((aid) => aid.idComponenteAiuto).sort();
  const expected = idsOf(aids.filter((aid) => aid.codiceFiscaleBeneficiario === 'cf3'));
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-first-fill-'));
    file = path.join(dir, 'aids.db');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes its rows without the search index, and a search builds it first and finds every aid', async () => {
    // no pause long enough to build it here: only the search does
    const index = new SqliteAidIndex(file, { fillPauseMs: 600_000 });
    try {
      await index.upsert(aids);
      expect(searchPlanOf(file)).not.toContain(SEARCH_INDEX_NAME);
      expect(idsOf(await index.search({ taxCodes: ['cf3'] }))).toEqual(expected);
      expect(searchPlanOf(file)).toContain(SEARCH_INDEX_NAME);
      // from then on rows go into the index as they come
      await index.upsert([sampleAid({ idComponenteAiuto: '9999', codiceFiscaleBeneficiario: 'cf3' })]);
      expect(idsOf(await index.search({ taxCodes: ['cf3'] }))).toEqual([...expected, '9999'].sort());
    } finally {
      await index.close();
    }
  });

  it('builds the search index by itself once the writes pause', async () => {
    const index = new SqliteAidIndex(file, { fillPauseMs: 50 });
    try {
      await index.upsert(aids);
      await until(() => searchPlanOf(file).includes(SEARCH_INDEX_NAME), 30_000);
      expect(idsOf(await index.search({ taxCodes: ['cf3'] }))).toEqual(expected);
    } finally {
      await index.close();
    }
  });

  it('finishes a fill that was interrupted when it is opened again, and keeps the search index of a full one', async () => {
    const interrupted = new SqliteAidIndex(file, { fillPauseMs: 600_000 });
    await interrupted.upsert(aids);
    await interrupted.close(); // stopped before any pause or search
    expect(searchPlanOf(file)).not.toContain(SEARCH_INDEX_NAME);
    const reopened = new SqliteAidIndex(file, { fillPauseMs: 600_000 });
    try {
      expect(idsOf(await reopened.search({ taxCodes: ['cf3'] }))).toEqual(expected);
    } finally {
      await reopened.close();
    }
    const full = new SqliteAidIndex(file, { fillPauseMs: 600_000 });
    try {
      expect(searchPlanOf(file)).toContain(SEARCH_INDEX_NAME);
    } finally {
      await full.close();
    }
  });
});

describe('SQLite aid index searched after a sync', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-search-index-'));
    file = path.join(dir, 'aids.db');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  // companies interleaved as a register's months bring them: a company's aids far apart in id order
  const aids = Array.from({ length: 3_000 }, (_, i) =>
    sampleAid({
      idComponenteAiuto: String(i),
      codiceFiscaleBeneficiario: `cf${i % 11}`,
      dataConcessione: `2024-0${1 + (i % 9)}-1${i % 10}`,
      titoloProgetto: `Progetto ${i}`,
    }),
  );

  /**
   * The aids in a file as an earlier version left it: its search index held only the tax code and the
   * date. Returns what a search of two companies since May found before the file was changed.
   */
  const writeEarlierVersionFile = async () => {
    const index = openSqliteAidIndex(file);
    await index.upsert(aids);
    const found = await index.search({ taxCodes: ['cf3', 'cf8'], dateFrom: '2024-05-01' });
    await index.close();
    const earlier = new Database(file);
    earlier.exec(`DROP INDEX ${SEARCH_INDEX_NAME}`);
    earlier.exec('CREATE INDEX aid_rows_by_tax_code_date ON aid_rows (tax_code, grant_date)');
    earlier.close();
    return found;
  };

  it("reads a company's aids from its search index alone, not one table row after the other, whatever the filters", async () => {
    const index = openSqliteAidIndex(file);
    try {
      await index.upsert(aids);
      expect(await index.search({ taxCodes: ['cf3'] })).toHaveLength(273);
    } finally {
      await index.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      for (const [taxCodes, query] of [
        [['CF3'], {}],
        [['CF3', 'CF4', 'CF5'], {}],
        [['CF3'], { dateFrom: '2024-03-01' }],
        [['CF3'], { deMinimisOnly: true }],
        [['CF3'], { dateFrom: '2024-03-01', deMinimisOnly: true, limit: 10 }],
      ] as const) {
        const plan = planOf(db, [...taxCodes], query);
        expect(plan).toContain(`USING COVERING INDEX ${SEARCH_INDEX_NAME}`);
        expect(plan).not.toMatch(/SCAN a\b|SEARCH a USING PRIMARY KEY/);
      }
    } finally {
      db.close();
    }
  });

  it('replaces the search index of an index file written by an earlier version, finding the same aids', async () => {
    const before = await writeEarlierVersionFile();
    const reopened = openSqliteAidIndex(file);
    try {
      expect(await reopened.search({ taxCodes: ['cf3', 'cf8'], dateFrom: '2024-05-01' })).toEqual(before);
    } finally {
      await reopened.close();
    }
    const db = new Database(file, { readonly: true });
    try {
      const indexes = db
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'aid_rows'",
        )
        .all()
        .map((row) => row.name)
        .sort();
      expect(indexes).toEqual(['aid_rows_by_company', 'aid_rows_by_import']);
      expect(planOf(db, ['CF3'], {})).toContain('USING COVERING INDEX');
    } finally {
      db.close();
    }
  });

  it("builds the new search index of an earlier version's file by itself once opened, before any search", async () => {
    await writeEarlierVersionFile();
    const reopened = new SqliteAidIndex(file, { fillPauseMs: 50 });
    try {
      await until(() => searchPlanOf(file).includes(SEARCH_INDEX_NAME), 30_000);
    } finally {
      await reopened.close();
    }
  });
});

describe('SQLite aid index rebuilt beside itself', () => {
  it('keeps answering from the index as it was until the rebuild is complete, then from the new one only', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-rebuild-'));
    const file = path.join(dir, 'aids.db');
    const index = openSqliteAidIndex(file);
    try {
      const old = Array.from({ length: 1_500 }, (_, i) => sampleAid({ idComponenteAiuto: String(i) }));
      await index.upsert(old);
      const rebuild = await index.beginRebuild();
      await rebuild.target.upsert(
        Array.from({ length: 1_200 }, (_, i) => sampleAid({ idComponenteAiuto: String(5_000 + i) })),
      );
      expect(await index.count()).toBe(1_500);
      expect(await index.get('5000')).toBeNull();
      await rebuild.complete();
      expect(await index.count()).toBe(1_200);
      expect(await index.get('0')).toBeNull();
      // writes after the swap go to the new file, through a new writer thread
      await index.upsert(
        Array.from({ length: 1_000 }, (_, i) => sampleAid({ idComponenteAiuto: String(9_000 + i) })),
      );
      await index.close();
      expect(fs.readdirSync(dir).filter((name) => name.includes('rebuild'))).toEqual([]);
      const reopened = openSqliteAidIndex(file);
      expect(await reopened.count()).toBe(2_200);
      await reopened.close();
    } finally {
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is filled without its search index and searched through it once complete', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-rebuild-search-'));
    const file = path.join(dir, 'aids.db');
    const index = openSqliteAidIndex(file);
    try {
      const rebuild = await index.beginRebuild();
      // many companies, in the writer thread's batches, the way a replay of register files comes
      const aids = Array.from({ length: 3_000 }, (_, i) =>
        sampleAid({ idComponenteAiuto: String(i), codiceFiscaleBeneficiario: `cf${i % 7}` }),
      );
      await rebuild.target.upsert(aids);
      const filling = new Database(`${file}.rebuild`, { readonly: true });
      expect(planOf(filling, ['CF3'], {})).not.toContain(SEARCH_INDEX_NAME);
      filling.close();
      await rebuild.complete();
      const found = await index.search({ taxCodes: ['cf3'] });
      expect(found.map((aid) => aid.idComponenteAiuto).sort()).toEqual(
        aids
          .filter((aid) => aid.codiceFiscaleBeneficiario === 'cf3')
          .map((aid) => aid.idComponenteAiuto)
          .sort(),
      );
      await index.close();
      const rebuilt = new Database(file, { readonly: true });
      expect(planOf(rebuilt, ['CF3'], {})).toContain(SEARCH_INDEX_NAME);
      rebuilt.close();
    } finally {
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves the index as it was when the rebuild is abandoned', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-abandon-'));
    const index = openSqliteAidIndex(path.join(dir, 'aids.db'));
    try {
      await index.upsert([sampleAid({ idComponenteAiuto: '1' }), sampleAid({ idComponenteAiuto: '2' })]);
      const rebuild = await index.beginRebuild();
      await rebuild.target.upsert([sampleAid({ idComponenteAiuto: '3' })]);
      await rebuild.abandon();
      expect((await index.search({ taxCodes: ['01234567890'] })).map((aid) => aid.idComponenteAiuto)).toEqual(
        ['2', '1'],
      );
      expect(fs.readdirSync(dir).filter((name) => name.includes('rebuild'))).toEqual([]);
    } finally {
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
