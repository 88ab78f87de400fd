/**
 * Read models of the aid index's progress, written by the aid-index projection (projector) and read
 * by the API: which imports the index has applied whole, and which messages it never saw.
 * A sync publishes a file's aids and then its SourceFileImported marker; the index has applied the
 * file once it has applied the marker (one order per topic), so "indexed" is counted per import.
 */
import { isOrderedImportId } from '@rna/domain';

/** One document per import the index applied whole (id = importId). */
export const INDEXED_IMPORTS_COLLECTION = 'aid-index-imports';
/** One document per gap the index's consumer met (id = `<topic>/<partition>/<fromOffset>`). */
export const INDEXING_GAPS_COLLECTION = 'aid-index-gaps';

export interface IndexedImportDoc {
  id: string;
  sourceFile: string;
  runId: string;
  records: number;
  indexedAt: number;
}

export interface IndexingGapDoc {
  id: string;
  topic: string;
  partition: number;
  fromOffset: string;
  toOffset: string;
  missing: number;
  detectedAt: number;
}

/** A run's file as the run read model keeps it: its import (once published) and its aids. */
export interface PublishedFile {
  importId?: string | null;
  records: number;
}

/** Aids a run published, and how many of them the index has applied. */
export function runIndexing(
  files: PublishedFile[],
  isIndexed: (importId: string) => boolean,
): { published: number; indexed: number } {
  let published = 0;
  let indexed = 0;
  for (const file of files) {
    if (!file.importId) continue;
    published += file.records;
    if (isIndexed(file.importId)) indexed += file.records;
  }
  return { published, indexed };
}

/** Messages of the aids topic the index never applied, over every gap met. */
export function missingMessages(gaps: Pick<IndexingGapDoc, 'missing'>[]): number {
  return gaps.reduce((sum, gap) => sum + gap.missing, 0);
}

/**
 * Whether an import made at `importedAt` may have lost aids to a gap: a gap found after it may hold
 * any message published before. The sync imports such a file again even though it is unchanged.
 */
export function importMayHaveLostAids(
  gaps: Pick<IndexingGapDoc, 'detectedAt'>[],
  importedAt: number,
): boolean {
  return gaps.some((gap) => gap.detectedAt >= importedAt);
}

/** What a dead letter of the aid index says of where its message came from (infra's DeadLetterDoc). */
export interface SetAsideOrigin {
  sourceFile?: string;
  importId?: string;
  /** when it was set aside (epoch ms) */
  at: number;
}

/**
 * Whether the last import of a file lost aids that the index set aside: a dead letter of that import
 * or of a later one. The sync imports such a file again even though it is unchanged, so the aid is
 * published anew (once the index takes it); an older import's dead letter was healed by that import.
 * Imports are compared by their order (import-order.ts); ids without one, by the time of the import.
 */
export function importHadAidsSetAside(
  letters: SetAsideOrigin[],
  last: { sourceFile: string; importId: string; importedAt: number },
): boolean {
  return letters.some((letter) => {
    if (letter.sourceFile !== last.sourceFile) return false;
    if (
      letter.importId !== undefined &&
      isOrderedImportId(letter.importId) &&
      isOrderedImportId(last.importId)
    )
      return letter.importId >= last.importId;
    return letter.at >= last.importedAt;
  });
}

/** Dead letters of the aid index per import of a file (those that name their import). */
export function setAsideByImport(letters: Pick<SetAsideOrigin, 'importId'>[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { importId } of letters)
    if (importId !== undefined) counts.set(importId, (counts.get(importId) ?? 0) + 1);
  return counts;
}

/**
 * The gaps not healed yet: a gap is healed once every file imported before it was found has been
 * imported again after (its aids published anew). `files` are the archive's files with the time of
 * their last import (null: never imported).
 */
export function unhealedGaps<G extends Pick<IndexingGapDoc, 'detectedAt'>>(
  gaps: G[],
  files: { lastUpdate: number | null }[],
): G[] {
  return gaps.filter((gap) =>
    files.some((file) => file.lastUpdate !== null && file.lastUpdate <= gap.detectedAt),
  );
}

export * from './aid-changes';
