/**
 * The aid index's write side on one SQLite connection, synchronous: used on the adapter's own
 * thread for small writes and by its writer thread for bulk upserts (a sync's batches), so the
 * main thread keeps parsing, publishing and answering while the index is written.
 */
import {
  assertStorableAid,
  isDeMinimisProcedure,
  isOlderImport,
  isOrderedImportId,
  normalizeTaxCode,
  type AidRecord,
} from '@rna/domain';
import type { SqliteDatabase } from '../embedded/sqlite';

export const AID_INDEX_SCHEMA = `
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

/** The domain's rule: procedure code 1 or the description 'De Minimis' (stored with the aid for the filter). */
export function isDeMinimis(record: Pick<AidRecord, 'codProcedimento' | 'desProcedimento'>): boolean {
  return isDeMinimisProcedure(record.codProcedimento, record.desProcedimento);
}

/** Same aid content: every field equal except importId (records are flat; key order does not matter). */
function sameContent(stored: Record<string, unknown>, record: AidRecord): boolean {
  const incoming = record as unknown as Record<string, unknown>;
  const storedKeys = Object.keys(stored).filter((key) => key !== 'importId');
  const incomingKeys = Object.keys(incoming).filter((key) => key !== 'importId');
  if (storedKeys.length !== incomingKeys.length) return false;
  return incomingKeys.every((key) => Object.is(stored[key], incoming[key]));
}

export interface UpsertResult {
  changed: number;
  changedTaxCodes: string[];
}

/** `sourceFiles[i]`: the source file of the aid that changed `changedTaxCodes[i]`. */
export interface EncodedUpsertResult extends UpsertResult {
  sourceFiles: string[];
}

/** One validation for every index adapter: the domain's. */
export const validate = assertStorableAid;

export interface WithdrawResult {
  count: number;
  taxCodes: string[];
}

export interface AidIndexWrites {
  upsert(records: AidRecord[]): UpsertResult;
  /** Aids as the JSON text of their AidRecord: decoded and validated here, stored as given. */
  upsertEncoded(aidsJson: string[]): EncodedUpsertResult;
  withdraw(ids: string[]): WithdrawResult;
  withdrawBySourceFile(sourceFile: string, keepImportId?: string): WithdrawResult;
  clear(): void;
}

/** Prepares the write statements on `db` (whose schema must exist). */
export function aidIndexWrites(db: SqliteDatabase): AidIndexWrites {
  const statements = {
    existing: db.prepare<[string], { tax_code: string; import_id: string; content: string }>(
      'SELECT tax_code, import_id, content FROM aids WHERE id = ?',
    ),
    insertNew: db.prepare<[string, string, string, string, string, number, string]>(
      'INSERT INTO aids (id, tax_code, grant_date, source_file, import_id, de_minimis, content) VALUES (?, ?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (id) DO NOTHING',
    ),
    update: db.prepare<[string, string, string, string, number, string, string]>(
      'UPDATE aids SET tax_code = ?, grant_date = ?, source_file = ?, import_id = ?, de_minimis = ?, content = ? WHERE id = ?',
    ),
    updateImportId: db.prepare<[string, string]>('UPDATE aids SET import_id = ? WHERE id = ?'),
    withdraw: db.prepare<[string], { tax_code: string }>('DELETE FROM aids WHERE id = ? RETURNING tax_code'),
    withdrawFile: db.prepare<[string], { tax_code: string }>(
      'DELETE FROM aids WHERE source_file = ? RETURNING tax_code',
    ),
    // Two ranges of the (source_file, import_id) index instead of `import_id <> ?`: a re-import that
    // kept every aid then reads a few index pages, not the file's whole range (and cache).
    withdrawFileBefore: db.prepare<[string, string], { tax_code: string }>(
      'DELETE FROM aids WHERE source_file = ? AND import_id < ? RETURNING tax_code',
    ),
    withdrawFileAfter: db.prepare<[string, string], { tax_code: string }>(
      'DELETE FROM aids WHERE source_file = ? AND import_id > ? RETURNING tax_code',
    ),
    clear: db.prepare('DELETE FROM aids'),
  };

  /** Tax code → source file of each changed aid; `contents[i]` is the JSON of `records[i]`. */
  const upsertTransaction = db.transaction((records: AidRecord[], contents: string[]) => {
    const changedTaxCodes = new Map<string, string>();
    let changed = 0;
    for (let i = 0; i < records.length; i++) {
      const record = records[i]!;
      const content = contents[i]!;
      const id = record.idComponenteAiuto.trim();
      const taxCode = normalizeTaxCode(record.codiceFiscaleBeneficiario);
      const deMinimis = isDeMinimis(record) ? 1 : 0;
      const fields = [
        taxCode,
        record.dataConcessione,
        record.sourceFile,
        record.importId,
        deMinimis,
        content,
      ] as const;
      if (statements.insertNew.run(id, ...fields).changes === 1) {
        changed += 1;
        changedTaxCodes.set(taxCode, record.sourceFile);
        continue;
      }
      const previous = statements.existing.get(id);
      if (!previous) continue;
      // a late message of an import a newer one replaced (import-order.ts): the newer copy stays
      if (isOlderImport(record.importId, previous.import_id)) continue;
      if (sameContent(JSON.parse(previous.content) as Record<string, unknown>, record)) {
        // Same aid seen again by a later import: remember the import, but it is not a change.
        if (previous.import_id !== record.importId) statements.updateImportId.run(record.importId, id);
        continue;
      }
      statements.update.run(...fields, id);
      changed += 1;
      changedTaxCodes.set(previous.tax_code, record.sourceFile);
      changedTaxCodes.set(taxCode, record.sourceFile);
    }
    return { changed, changedTaxCodes };
  });

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

  const withdrawFileExceptTransaction = db.transaction((sourceFile: string, keepImportId: string) => [
    ...statements.withdrawFileBefore.all(sourceFile, keepImportId),
    ...statements.withdrawFileAfter.all(sourceFile, keepImportId),
  ]);

  return {
    upsert: (records) => {
      const { changed, changedTaxCodes } = upsertTransaction.immediate(
        records,
        records.map((record) => JSON.stringify(record)),
      );
      return { changed, changedTaxCodes: [...changedTaxCodes.keys()] };
    },
    upsertEncoded: (aidsJson) => {
      const records = aidsJson.map((json) => JSON.parse(json) as AidRecord);
      records.forEach(validate);
      const { changed, changedTaxCodes } = upsertTransaction.immediate(records, aidsJson);
      return {
        changed,
        changedTaxCodes: [...changedTaxCodes.keys()],
        sourceFiles: [...changedTaxCodes.values()],
      };
    },
    withdraw: (ids) => withdrawTransaction.immediate(ids),
    withdrawBySourceFile: (sourceFile, keepImportId) => {
      // An ordered import removes what older imports wrote, never a newer import's aids.
      const rows =
        keepImportId === undefined
          ? statements.withdrawFile.all(sourceFile)
          : isOrderedImportId(keepImportId)
            ? statements.withdrawFileBefore.all(sourceFile, keepImportId)
            : withdrawFileExceptTransaction.immediate(sourceFile, keepImportId);
      return { count: rows.length, taxCodes: [...new Set(rows.map((r) => r.tax_code))] };
    },
    clear: () => void statements.clear.run(),
  };
}

/** A sync writes millions of rows: checkpoint (copy the WAL into the file, fsync) every ~40 MB, not 4 MB. */
export function tuneForBulkWrites(db: SqliteDatabase): void {
  db.pragma('wal_autocheckpoint = 10000');
}
