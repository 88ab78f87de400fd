/**
 * Embedded aid index: one SQLite table keyed by idComponenteAiuto. The searchable fields are
 * columns with indexes; the whole record is kept as JSON. New aids go in with one INSERT; only
 * aids already present are read back and compared field by field, ignoring importId.
 */
import type { AidRecord } from '@rna/domain';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from '../embedded/sqlite';
import { openSqliteFile } from '../embedded/sqlite';
import type { AidIndex, AidSearch, SourceFileStats } from './port';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS aids (
  id TEXT PRIMARY KEY,
  tax_code TEXT NOT NULL,
  grant_date TEXT NOT NULL,
  source_file TEXT NOT NULL,
  import_id TEXT NOT NULL,
  de_minimis INTEGER NOT NULL,
  content TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS aids_by_tax_code_date ON aids (tax_code, grant_date);
CREATE INDEX IF NOT EXISTS aids_by_source_file ON aids (source_file, import_id);
`;

interface StoredRow {
  tax_code: string;
  import_id: string;
  content: string;
}

/** Tax codes are compared trimmed and upper-case: users type them in any case. */
export function normalizeTaxCode(taxCode: string): string {
  return taxCode.trim().toUpperCase();
}

/** The register marks de minimis aid with procedure code 1. */
export function isDeMinimis(record: Pick<AidRecord, 'codProcedimento'>): boolean {
  return String(record.codProcedimento).trim() === '1';
}

/** Same aid content: every field equal except importId (records are flat; key order does not matter). */
function sameContent(stored: Record<string, unknown>, record: AidRecord): boolean {
  const incoming = record as unknown as Record<string, unknown>;
  const storedKeys = Object.keys(stored).filter((key) => key !== 'importId');
  const incomingKeys = Object.keys(incoming).filter((key) => key !== 'importId');
  if (storedKeys.length !== incomingKeys.length) return false;
  return incomingKeys.every((key) => Object.is(stored[key], incoming[key]));
}

function validate(record: AidRecord): void {
  const problems: string[] = [];
  if (typeof record.idComponenteAiuto !== 'string' || record.idComponenteAiuto.trim() === '') {
    problems.push('idComponenteAiuto is missing');
  }
  if (typeof record.codiceFiscaleBeneficiario !== 'string')
    problems.push('codiceFiscaleBeneficiario is missing');
  if (typeof record.dataConcessione !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(record.dataConcessione)) {
    problems.push('dataConcessione must be YYYY-MM-DD');
  }
  if (typeof record.sourceFile !== 'string') problems.push('sourceFile is missing');
  if (typeof record.importId !== 'string') problems.push('importId is missing');
  if (problems.length > 0) {
    throw new TypeError(`Invalid aid record ${String(record.idComponenteAiuto)}: ${problems.join(', ')}`);
  }
}

export class SqliteAidIndex implements AidIndex {
  private readonly db: SqliteDatabase;
  private readonly statements;
  private readonly upsertTransaction;
  private readonly withdrawTransaction;
  private readonly searchStatements = new Map<string, Statement<(string | number)[], StoredRow>>();
  private closed = false;

  constructor(file: string) {
    this.db = openSqliteFile(file, { cacheMb: 64 });
    // A sync writes millions of rows: checkpoint (copy WAL into the file, fsync) every ~40 MB, not 4 MB,
    // so the index pages dirtied again and again by consecutive batches are written out far fewer times.
    this.db.pragma('wal_autocheckpoint = 10000');
    this.db.exec(SCHEMA);
    this.statements = {
      existing: this.db.prepare<[string], StoredRow>(
        'SELECT tax_code, import_id, content FROM aids WHERE id = ?',
      ),
      insertNew: this.db.prepare<[string, string, string, string, string, number, string]>(
        'INSERT INTO aids (id, tax_code, grant_date, source_file, import_id, de_minimis, content) VALUES (?, ?, ?, ?, ?, ?, ?) ' +
          'ON CONFLICT (id) DO NOTHING',
      ),
      update: this.db.prepare<[string, string, string, string, number, string, string]>(
        'UPDATE aids SET tax_code = ?, grant_date = ?, source_file = ?, import_id = ?, de_minimis = ?, content = ? WHERE id = ?',
      ),
      updateImportId: this.db.prepare<[string, string]>('UPDATE aids SET import_id = ? WHERE id = ?'),
      withdraw: this.db.prepare<[string], { tax_code: string }>(
        'DELETE FROM aids WHERE id = ? RETURNING tax_code',
      ),
      withdrawFile: this.db.prepare<[string], { tax_code: string }>(
        'DELETE FROM aids WHERE source_file = ? RETURNING tax_code',
      ),
      withdrawFileExcept: this.db.prepare<[string, string], { tax_code: string }>(
        'DELETE FROM aids WHERE source_file = ? AND import_id <> ? RETURNING tax_code',
      ),
      get: this.db.prepare<[string], StoredRow>('SELECT tax_code, import_id, content FROM aids WHERE id = ?'),
      count: this.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM aids'),
      stats: this.db.prepare<[], { source_file: string; n: number }>(
        'SELECT source_file, COUNT(*) AS n FROM aids GROUP BY source_file ORDER BY source_file',
      ),
      clear: this.db.prepare('DELETE FROM aids'),
    };

    this.upsertTransaction = this.db.transaction((records: AidRecord[]) => {
      const changedTaxCodes = new Set<string>();
      let changed = 0;
      for (const record of records) {
        const id = record.idComponenteAiuto.trim();
        const taxCode = normalizeTaxCode(record.codiceFiscaleBeneficiario);
        const content = JSON.stringify(record);
        const deMinimis = isDeMinimis(record) ? 1 : 0;
        const fields = [
          taxCode,
          record.dataConcessione,
          record.sourceFile,
          record.importId,
          deMinimis,
          content,
        ] as const;
        if (this.statements.insertNew.run(id, ...fields).changes === 1) {
          changed += 1;
          changedTaxCodes.add(taxCode);
          continue;
        }
        const previous = this.statements.existing.get(id);
        if (!previous) continue;
        if (sameContent(JSON.parse(previous.content) as Record<string, unknown>, record)) {
          // Same aid seen again by a later import: remember the import, but it is not a change.
          if (previous.import_id !== record.importId) this.statements.updateImportId.run(record.importId, id);
          continue;
        }
        this.statements.update.run(...fields, id);
        changed += 1;
        changedTaxCodes.add(previous.tax_code);
        changedTaxCodes.add(taxCode);
      }
      return { changed, changedTaxCodes: [...changedTaxCodes] };
    });

    this.withdrawTransaction = this.db.transaction((ids: string[]) => {
      const taxCodes = new Set<string>();
      let count = 0;
      for (const id of ids) {
        const removed = this.statements.withdraw.get(String(id).trim());
        if (removed) {
          count += 1;
          taxCodes.add(removed.tax_code);
        }
      }
      return { count, taxCodes: [...taxCodes] };
    });
  }

  async upsert(records: AidRecord[]): Promise<{ changed: number; changedTaxCodes: string[] }> {
    this.assertOpen();
    records.forEach(validate);
    return this.upsertTransaction.immediate(records);
  }

  async withdraw(ids: string[]): Promise<{ count: number; taxCodes: string[] }> {
    this.assertOpen();
    return this.withdrawTransaction.immediate(ids);
  }

  async withdrawBySourceFile(
    sourceFile: string,
    keepImportId?: string,
  ): Promise<{ count: number; taxCodes: string[] }> {
    this.assertOpen();
    const rows =
      keepImportId === undefined
        ? this.statements.withdrawFile.all(sourceFile)
        : this.statements.withdrawFileExcept.all(sourceFile, keepImportId);
    return { count: rows.length, taxCodes: [...new Set(rows.map((r) => r.tax_code))] };
  }

  async search(query: AidSearch): Promise<AidRecord[]> {
    this.assertOpen();
    const taxCodes = [...new Set(query.taxCodes.map(normalizeTaxCode))].filter((t) => t !== '');
    if (taxCodes.length === 0) return [];
    const where = [`tax_code IN (${taxCodes.map(() => '?').join(', ')})`];
    const params: (string | number)[] = [...taxCodes];
    if (query.dateFrom !== undefined) {
      where.push('grant_date >= ?');
      params.push(query.dateFrom);
    }
    if (query.deMinimisOnly) where.push('de_minimis = 1');
    let sql = `SELECT tax_code, import_id, content FROM aids WHERE ${where.join(' AND ')}
      ORDER BY grant_date DESC, length(id) DESC, id DESC`;
    if (query.limit !== undefined) {
      sql += ' LIMIT ?';
      params.push(Math.max(0, Math.floor(query.limit)));
    }
    return this.searchStatement(sql)
      .all(...params)
      .map(toRecord);
  }

  /** The SQL varies only with the number of tax codes and the filters used: prepare each shape once. */
  private searchStatement(sql: string) {
    let statement = this.searchStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare<(string | number)[], StoredRow>(sql);
      if (this.searchStatements.size < 200) this.searchStatements.set(sql, statement);
    }
    return statement;
  }

  async get(idComponenteAiuto: string): Promise<AidRecord | null> {
    this.assertOpen();
    const row = this.statements.get.get(idComponenteAiuto.trim());
    return row ? toRecord(row) : null;
  }

  async count(): Promise<number> {
    this.assertOpen();
    return this.statements.count.get()?.n ?? 0;
  }

  async statsBySourceFile(): Promise<SourceFileStats[]> {
    this.assertOpen();
    return this.statements.stats.all().map((r) => ({ sourceFile: r.source_file, count: r.n }));
  }

  async clear(): Promise<void> {
    this.assertOpen();
    this.statements.clear.run();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('Aid index is closed');
  }
}

function toRecord(row: StoredRow): AidRecord {
  return { ...(JSON.parse(row.content) as Omit<AidRecord, 'importId'>), importId: row.import_id };
}

export function openSqliteAidIndex(file: string): SqliteAidIndex {
  return new SqliteAidIndex(file);
}
