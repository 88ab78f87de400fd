/**
 * The aid index rebuilt from the register's files as they were imported (kept in the blob store by
 * the sync), not from the message log, which is a transport and forgets what was consumed: each
 * file's last successful import is parsed again with its own import id and source name, so the
 * index ends as that import left it. Files imported before files were kept cannot be replayed:
 * their import is forgotten, so that the next sync downloads them again instead of skipping them.
 */
import type { AidRecord } from '@rna/domain';
import type { AidIndex, DocumentStore } from '@rna/infra';
import { parseAidStream, type RegisterArchive } from '@rna/infra/register';
import { FILE_STATE_COLLECTION, type FileState } from '@rna/read-models';

export interface ArchiveReplaySummary {
  files: number;
  aids: number;
  /** Files whose import is not kept (or whose kept file is gone): the next sync imports them again. */
  notKept: string[];
}

export interface ArchiveReplayDeps {
  documents: DocumentStore;
  archive: RegisterArchive;
  target: AidIndex;
  batchSize?: number;
  onFile?: (file: string, aids: number) => void;
}

async function write(target: AidIndex, json: string[]): Promise<void> {
  if (target.upsertEncoded) await target.upsertEncoded(json);
  else await target.upsert(json.map((aid) => JSON.parse(aid) as AidRecord));
}

export async function replayArchivedFiles(deps: ArchiveReplayDeps): Promise<ArchiveReplaySummary> {
  const fileStates = deps.documents.collection<FileState>(FILE_STATE_COLLECTION);
  const summary: ArchiveReplaySummary = { files: 0, aids: 0, notKept: [] };
  for (const state of await fileStates.find({}, { sortBy: 'id' })) {
    const xml = state.archive ? await deps.archive.openXml(state.archive) : null;
    if (!xml) {
      summary.notKept.push(state.id);
      await fileStates.delete(state.id);
      continue;
    }
    // One batch is written while the parser reads the next: awaiting each write before parsing on
    // left the parser thread idle half the time (it runs at most 4 MB of XML ahead, under a batch).
    let writing: Promise<void> = Promise.resolve();
    const report = await parseAidStream(xml, {
      sourceFile: state.id,
      importId: state.importId,
      // the import's own time: the same records pass the grant-date check as when it was imported
      now: Date.parse(state.succeededAt),
      batchSize: deps.batchSize ?? 5_000,
      onEncodedBatch: async (batch) => {
        await writing;
        writing = write(deps.target, batch.json);
        // a failed write is reported by the next batch's await or the one after the parse
        writing.catch(() => undefined);
      },
    }).finally(() => writing.catch(() => undefined));
    await writing;
    summary.files += 1;
    summary.aids += report.records;
    deps.onFile?.(state.id, report.records);
  }
  return summary;
}
