/**
 * Storage suite: the embedded adapters against raw better-sqlite3 doing the same rows, in one process.
 * BENCH_AIDS (default 2,000,000) synthetic aids; BENCH_EVENTS (default 20,000) single appends;
 * BENCH_EVENT_BATCHES (default 500) appends of 100 events; BENCH_LOOKUPS (default 10,000) searches.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { AidRecord } from '@rna/domain';
import { openSqliteAidIndex } from '@rna/infra/aid-index';
import { openSqliteEventStore } from '@rna/infra/event-store';
import { envInt, percentile, rate, type BenchContext, type BenchRow, type BenchSuite } from '../bench-suite';
import { seededRandom } from '../../generator/random';

const AID_BATCH = 5_000;
const EVENT_BATCH = 100;
const STREAMS = 500;
const AIDS_PER_BENEFICIARY = 5;

export function taxCodeOf(beneficiary: number): string {
  return String(10_000_000_000 + beneficiary)
    .slice(1)
    .padStart(11, '0');
}

function isoDay(dayOffset: number): string {
  return new Date(Date.UTC(2015, 0, 1) + dayOffset * 86_400_000).toISOString().slice(0, 10);
}

/** The aids [from, to) of a synthetic register: ~5 aids per beneficiary, grant dates over ten years. */
export function syntheticAids(from: number, to: number, beneficiaries: number): AidRecord[] {
  const random = seededRandom(from + 1); // seeded: every run measures the same data
  const aids: AidRecord[] = [];
  for (let i = from; i < to; i++) {
    const beneficiary = Math.floor(random() * beneficiaries);
    const deMinimis = random() < 0.6;
    const amount = Math.floor(random() * 20_000_000);
    aids.push({
      idComponenteAiuto: String(1_000_000 + i),
      cor: String(100_000 + (i % 900_000)),
      car: String(1_000 + (i % 9_000)),
      titoloMisura: `Misura di sostegno n. ${i % 4_000} per la competitività delle imprese`,
      desTipoMisura: 'Regime di aiuti',
      soggettoConcedente: `Regione ${i % 20}`,
      titoloProgetto: `Progetto ${i}`,
      dataConcessione: isoDay(Math.floor(random() * 3_650)),
      cup: `F81B${String(i).padStart(11, '0')}`,
      denominazioneBeneficiario: `Impresa ${beneficiary} S.r.l.`,
      codiceFiscaleBeneficiario: taxCodeOf(beneficiary),
      desTipoBeneficiario: 'PMI',
      regioneBeneficiario: `Regione ${beneficiary % 20}`,
      codProcedimento: deMinimis ? '1' : '2',
      desProcedimento: deMinimis ? 'De minimis' : 'Regime notificato',
      codRegolamento: deMinimis ? '2831/2023' : '651/2014',
      desRegolamento: deMinimis ? 'Reg. (UE) 2023/2831' : 'Reg. (UE) 651/2014 (GBER)',
      codObiettivo: String(i % 30),
      desObiettivo: 'Sviluppo regionale',
      settoreAttivita: 'C.25.62',
      elementoDiAiutoCents: amount,
      importoNominaleCents: amount + 1_000,
      sourceFile: `20${15 + (i % 10)}_${String((i % 12) + 1).padStart(2, '0')}_001`,
      importId: 'bench-import-1',
    });
  }
  return aids;
}

function openRaw(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -65536');
  return db;
}

async function timed(work: () => Promise<void> | void): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function benchEvents(ctx: BenchContext, rows: BenchRow[]): Promise<void> {
  const singles = envInt(ctx.env, 'BENCH_EVENTS', 20_000);
  const batches = envInt(ctx.env, 'BENCH_EVENT_BATCHES', 500);
  const store = openSqliteEventStore(path.join(ctx.tmpDir, 'events.db'));
  const raw = openRaw(path.join(ctx.tmpDir, 'events-raw.db'));
  raw.exec(`CREATE TABLE events (global_position INTEGER PRIMARY KEY AUTOINCREMENT, stream_name TEXT NOT NULL,
    stream_version INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL,
    created_at TEXT NOT NULL, UNIQUE (stream_name, stream_version))`);
  const rawInsert = raw.prepare(
    'INSERT INTO events (stream_name, stream_version, type, data, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const payload = (i: number) => ({
    clientId: `c${i % STREAMS}`,
    taxCodes: ['01234567890'],
    resultCount: i % 17,
    cost: 1,
  });

  ctx.log(`event store: ${singles} single appends`);
  const versions = new Array<number>(STREAMS).fill(-1);
  const adapterSingleMs = await timed(async () => {
    for (let i = 0; i < singles; i++) {
      const s = i % STREAMS;
      const result = await store.appendToStream(
        `quota-${s}`,
        [{ type: 'SearchPerformed', data: payload(i) }],
        {
          expectedVersion: versions[s] === -1 ? 'no_stream' : versions[s]!,
        },
      );
      versions[s] = result.nextExpectedVersion;
    }
  });
  const rawVersions = new Array<number>(STREAMS).fill(-1);
  const rawSingleMs = await timed(() => {
    for (let i = 0; i < singles; i++) {
      const s = i % STREAMS;
      rawVersions[s]! += 1;
      rawInsert.run(
        `quota-${s}`,
        rawVersions[s],
        'SearchPerformed',
        JSON.stringify(payload(i)),
        '{}',
        new Date().toISOString(),
      );
    }
  });
  rows.push({
    metric: 'event append, 1 event per append (expected version checked)',
    value: rate(singles, adapterSingleMs),
    unit: 'appends/s',
    baseline: rate(singles, rawSingleMs),
    note: 'baseline: raw INSERT, autocommit',
  });

  ctx.log(`event store: ${batches} appends of ${EVENT_BATCH} events`);
  const events = Array.from({ length: EVENT_BATCH }, (_, i) => ({ type: 'AidRecorded', data: payload(i) }));
  const adapterBatchMs = await timed(async () => {
    for (let b = 0; b < batches; b++)
      await store.appendToStream(`sync-${b}`, events, { expectedVersion: 'no_stream' });
  });
  const rawBatch = raw.transaction((b: number) => {
    const createdAt = new Date().toISOString();
    events.forEach((e, v) => rawInsert.run(`sync-${b}`, v, e.type, JSON.stringify(e.data), '{}', createdAt));
  });
  const rawBatchMs = await timed(() => {
    for (let b = 0; b < batches; b++) rawBatch(b);
  });
  rows.push({
    metric: `event append, batches of ${EVENT_BATCH}`,
    value: rate(batches * EVENT_BATCH, adapterBatchMs),
    unit: 'events/s',
    baseline: rate(batches * EVENT_BATCH, rawBatchMs),
    note: 'baseline: raw INSERTs, one transaction per batch',
  });
  rows.push({
    metric: `event append, batches of ${EVENT_BATCH}`,
    value: rate(batches, adapterBatchMs),
    unit: 'appends/s',
    baseline: rate(batches, rawBatchMs),
  });
  await store.close();
  raw.close();
}

async function benchAids(ctx: BenchContext, rows: BenchRow[]): Promise<void> {
  const total = envInt(ctx.env, 'BENCH_AIDS', 2_000_000);
  const lookups = envInt(ctx.env, 'BENCH_LOOKUPS', 10_000);
  const beneficiaries = Math.max(1, Math.floor(total / AIDS_PER_BENEFICIARY));
  const index = openSqliteAidIndex(path.join(ctx.tmpDir, 'aids.db'));
  const raw = openRaw(path.join(ctx.tmpDir, 'aids-raw.db'));
  raw.exec(`CREATE TABLE aids (id TEXT PRIMARY KEY, tax_code TEXT NOT NULL, grant_date TEXT NOT NULL,
    source_file TEXT NOT NULL, import_id TEXT NOT NULL, de_minimis INTEGER NOT NULL, content TEXT NOT NULL);
    CREATE INDEX aids_by_tax_code_date ON aids (tax_code, grant_date);
    CREATE INDEX aids_by_source_file ON aids (source_file, import_id);`);
  const rawInsert = raw.prepare('INSERT OR REPLACE INTO aids VALUES (?, ?, ?, ?, ?, ?, ?)');
  const rawUpsert = raw.transaction((aids: AidRecord[]) => {
    for (const a of aids) {
      rawInsert.run(
        a.idComponenteAiuto,
        a.codiceFiscaleBeneficiario,
        a.dataConcessione,
        a.sourceFile,
        a.importId,
        a.codProcedimento === '1' ? 1 : 0,
        JSON.stringify(a),
      );
    }
  });

  ctx.log(`aid index: upserting ${total.toLocaleString('en-US')} synthetic aids in batches of ${AID_BATCH}`);
  let adapterMs = 0;
  let rawMs = 0;
  for (let from = 0; from < total; from += AID_BATCH) {
    const batch = syntheticAids(from, Math.min(total, from + AID_BATCH), beneficiaries);
    adapterMs += await timed(async () => void (await index.upsert(batch)));
    rawMs += await timed(() => rawUpsert(batch));
    if (from > 0 && from % 500_000 === 0) ctx.log(`  ${from.toLocaleString('en-US')} aids`);
  }
  rows.push({
    metric: `aid index bulk upsert, ${total.toLocaleString('en-US')} new aids`,
    value: rate(total, adapterMs),
    unit: 'rows/s',
    baseline: rate(total, rawMs),
    note: 'baseline: raw INSERT OR REPLACE of each aid as JSON (the earlier layout), with its indexes',
  });

  const again = Math.min(total, 200_000);
  ctx.log(`aid index: re-importing ${again.toLocaleString('en-US')} unchanged aids`);
  let reimportMs = 0;
  let rawReimportMs = 0;
  let reportedChanges = 0;
  for (let from = 0; from < again; from += AID_BATCH) {
    const batch = syntheticAids(from, Math.min(again, from + AID_BATCH), beneficiaries).map((a) => ({
      ...a,
      importId: 'bench-import-2',
    }));
    reimportMs += await timed(async () => void (reportedChanges += (await index.upsert(batch)).changed));
    rawReimportMs += await timed(() => rawUpsert(batch));
  }
  rows.push({
    metric: `aid index re-import, ${again.toLocaleString('en-US')} unchanged aids`,
    value: rate(again, reimportMs),
    unit: 'rows/s',
    baseline: rate(again, rawReimportMs),
    note: `change detection reported ${reportedChanges} changes`,
  });

  ctx.log(`aid index: ${lookups} look-ups by tax code`);
  const random = seededRandom(42);
  const taxCodes = Array.from({ length: lookups }, () => taxCodeOf(Math.floor(random() * beneficiaries)));
  const rawSearch = raw.prepare<[string], { content: string }>(
    'SELECT content FROM aids WHERE tax_code = ? ORDER BY grant_date DESC, length(id) DESC, id DESC',
  );
  for (const taxCode of taxCodes.slice(0, 200)) {
    await index.search({ taxCodes: [taxCode] });
    rawSearch.all(taxCode);
  }
  const adapterLatencies: number[] = [];
  const rawLatencies: number[] = [];
  let found = 0;
  for (const taxCode of taxCodes) {
    let t = performance.now();
    found += (await index.search({ taxCodes: [taxCode] })).length;
    adapterLatencies.push(performance.now() - t);
    t = performance.now();
    rawSearch.all(taxCode).map((r) => JSON.parse(r.content) as AidRecord);
    rawLatencies.push(performance.now() - t);
  }
  adapterLatencies.sort((a, b) => a - b);
  rawLatencies.sort((a, b) => a - b);
  const note = `${(found / lookups).toFixed(1)} aids per tax code on ${total.toLocaleString('en-US')}`;
  for (const p of [50, 99]) {
    rows.push({
      metric: `aid look-up by tax code, p${p}`,
      value: percentile(adapterLatencies, p),
      unit: 'ms',
      baseline: percentile(rawLatencies, p),
      note: p === 50 ? note : 'baseline: raw prepared SELECT + JSON.parse',
    });
  }
  const fiveTaxCodes = taxCodes.slice(0, 1_000);
  const multi: number[] = [];
  for (let i = 0; i + 5 <= fiveTaxCodes.length; i += 5) {
    const t = performance.now();
    await index.search({
      taxCodes: fiveTaxCodes.slice(i, i + 5),
      deMinimisOnly: true,
      dateFrom: '2022-01-01',
    });
    multi.push(performance.now() - t);
  }
  multi.sort((a, b) => a - b);
  rows.push({
    metric: 'aid look-up, 5 tax codes + de minimis + date, p50',
    value: percentile(multi, 50),
    unit: 'ms',
  });
  rows.push({
    metric: 'aid look-up, 5 tax codes + de minimis + date, p99',
    value: percentile(multi, 99),
    unit: 'ms',
  });

  // at rest: both closed, so each WAL is checkpointed into its file and removed
  await index.close();
  raw.close();
  rows.push({
    metric: `aid index on disk, bytes an aid (${total.toLocaleString('en-US')} aids)`,
    value: Math.round(fs.statSync(path.join(ctx.tmpDir, 'aids.db')).size / total),
    unit: 'B',
    baseline: Math.round(fs.statSync(path.join(ctx.tmpDir, 'aids-raw.db')).size / total),
    note: 'compact rows, repeating texts once; baseline: each aid as JSON',
  });
}

export const storageSuite: BenchSuite = {
  name: 'storage',
  description:
    'Embedded SQLite adapters (event store, aid index) against raw better-sqlite3 on the same rows',
  async run(ctx) {
    const rows: BenchRow[] = [];
    await benchEvents(ctx, rows);
    await benchAids(ctx, rows);
    return rows;
  },
};
