/**
 * How far the aid index is behind what the syncs published, from the read models the aid-index
 * projection keeps (`@rna/read-models`): the latest run's aids not indexed yet, and the aids
 * the index will never see because the message log lost them before it got there.
 */
import {
  ARCHIVE_FILES_COLLECTION,
  INDEXED_IMPORTS_COLLECTION,
  INDEXING_GAPS_COLLECTION,
  missingMessages,
  runIndexing,
  unhealedGaps,
  type ArchiveFileDoc,
  type IndexedImportDoc,
  type IndexingGapDoc,
  type SyncRunDoc,
  SYNC_RUNS_COLLECTION,
} from '@rna/read-models';
import type { DocumentStore } from '@rna/infra';

export type RunFileStates = Pick<SyncRunDoc, 'fileStates'>;

/** The newest sync run, or null before the first one. */
export async function latestSyncRun(documents: DocumentStore): Promise<SyncRunDoc | null> {
  const [latest] = await documents
    .collection<SyncRunDoc>(SYNC_RUNS_COLLECTION)
    .find({}, { sortBy: 'start', order: 'desc', limit: 1 });
  return latest ?? null;
}

/** Aids the run published and how many the index has applied (one look-up per imported file). */
export async function indexingOfRun(
  documents: DocumentStore,
  run: RunFileStates,
): Promise<{ published: number; indexed: number }> {
  const imports = documents.collection<IndexedImportDoc>(INDEXED_IMPORTS_COLLECTION);
  const files = Object.values(run.fileStates).filter((state) => state.status === 'SUCCESS');
  const indexed = new Set<string>();
  for (const { importId } of files) if (importId && (await imports.get(importId))) indexed.add(importId);
  return runIndexing(files, (importId) => indexed.has(importId));
}

/**
 * Aids lost before the index saw them, over the gaps not healed yet (a file imported before a gap
 * was found and not imported again since may miss some).
 */
export async function missingAids(documents: DocumentStore): Promise<number> {
  const gaps = await documents.collection<IndexingGapDoc>(INDEXING_GAPS_COLLECTION).find();
  if (gaps.length === 0) return 0;
  const files = await documents.collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION).find();
  return missingMessages(unhealedGaps(gaps, files));
}
