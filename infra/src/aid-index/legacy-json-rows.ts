/**
 * Data directories written before the compact rows keep each aid as JSON in a table `aids`
 * (~1 KB an aid). Opening such an index moves its aids into the compact rows, drops the old table
 * and gives the space back to the disk, once; nothing needs to be synced again.
 */
import type { AidRecord } from '@rna/domain';
import type { SqliteDatabase } from '../embedded/sqlite';
import type { AidIndexWrites } from './aid-index-writes';
import { adapterLogger } from '../logging';

const log = adapterLogger('aid-index');
const CHUNK = 5_000;

function hasLegacyTable(db: SqliteDatabase): boolean {
  const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('aids')").all();
  return columns.some((column) => column.name === 'content');
}

export function migrateJsonRows(db: SqliteDatabase, writes: AidIndexWrites): number {
  if (!hasLegacyTable(db)) return 0;
  const page = db.prepare<[string, number], { id: string; import_id: string; content: string }>(
    'SELECT id, import_id, content FROM aids WHERE id > ? ORDER BY id LIMIT ?',
  );
  let moved = 0;
  let after = '';
  for (;;) {
    const rows = page.all(after, CHUNK);
    if (rows.length === 0) break;
    writes.upsert(
      rows.map((row) => ({ ...(JSON.parse(row.content) as AidRecord), importId: row.import_id })),
    );
    moved += rows.length;
    after = rows[rows.length - 1]!.id;
  }
  db.exec('DROP TABLE aids');
  // the freed pages go back to the file system (the old rows were ten times the new ones)
  db.exec('VACUUM');
  log.info({ aids: moved }, 'indice degli aiuti convertito nel formato compatto');
  return moved;
}
