/**
 * The sequence that orders a file's imports (domain import-order.ts): one counter in the shared
 * documents store, taken by compare-and-set when an import begins, so that an import begun later —
 * by this process or another, before or after a restart — always has the greater number.
 */
import { orderedImportId } from '@rna/domain';
import { updateDocument, type Doc, type DocumentStore } from '@rna/infra';

export const IMPORT_SEQUENCE_COLLECTION = 'import-sequence';

interface SequenceDoc extends Doc {
  id: string;
  /** the last number taken */
  last: number;
}

/** A new import's id: ordered after every import of any file begun before it. */
export async function nextImportId(
  documents: DocumentStore,
  runId: string,
  sourceFile: string,
): Promise<string> {
  let taken = 0;
  await updateDocument(documents.collection<SequenceDoc>(IMPORT_SEQUENCE_COLLECTION), 'aids', (current) => {
    taken = (current?.last ?? 0) + 1;
    return { id: 'aids', last: taken };
  });
  return orderedImportId(taken, runId, sourceFile);
}
