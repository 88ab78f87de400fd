/**
 * The aid index rebuilt from the register's files as they were imported (kept in the blob store by
 * the sync), not from the message log, which is a transport and forgets what was consumed: each
 * file's last successful import is parsed again with its own import id and source name, so the
 * index ends as that import left it. Files imported before files were kept cannot be replayed:
 * their import is forgotten, so that the next sync downloads them again instead of skipping them.
 */
import { aidOfAidRecordedText } from '@rna/domain';
import {
  unpackTexts,
  type AidIndex,
  type Collection,
  type DocumentStore,
  type PackedTexts,
} from '@rna/infra';
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
  /** Files parsed at once (default 2). */
  parallelFiles?: number;
  onFile?: (file: string, aids: number) => void;
}

/** The parser's batch, as it is where the target takes it (the embedded index), else decoded. */
async function write(target: AidIndex, messages: PackedTexts): Promise<void> {
  if (target.upsertEncoded) await target.upsertEncoded(messages);
  else await target.upsert(unpackTexts(messages).map(aidOfAidRecordedText));
}

/**
 * Files are replayed `parallelFiles` at a time (default 2), each parsed on its own thread: a rebuild
 * has no message log to feed, so one parser left the second core idle. The order does not matter:
 * an aid found in two files is the newer import's whichever is written first (import-order.ts).
 * The first file that fails fails the replay, once the files under way have ended.
 */
export async function replayArchivedFiles(deps: ArchiveReplayDeps): Promise<ArchiveReplaySummary> {
  const fileStates = deps.documents.collection<FileState>(FILE_STATE_COLLECTION);
  const summary: ArchiveReplaySummary = { files: 0, aids: 0, notKept: [] };
  const waiting = await fileStates.find({}, { sortBy: 'id' });
  const failures: unknown[] = [];
  const lane = async () => {
    for (let state = waiting.shift(); state && failures.length === 0; state = waiting.shift()) {
      try {
        const aids = await replayFile(deps, fileStates, state);
        if (aids === null) {
          summary.notKept.push(state.id);
          continue;
        }
        summary.files += 1;
        summary.aids += aids;
        deps.onFile?.(state.id, aids);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(deps.parallelFiles ?? 2)) }, lane));
  if (failures.length > 0) throw failures[0];
  summary.notKept.sort();
  return summary;
}

/** One kept file parsed again into the target: its aids, or null when its file is not kept. */
async function replayFile(
  deps: ArchiveReplayDeps,
  fileStates: Collection<FileState>,
  state: FileState,
): Promise<number | null> {
  const xml = state.archive ? await deps.archive.openXml(state.archive) : null;
  if (!xml) {
    await fileStates.delete(state.id);
    return null;
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
      writing = write(deps.target, batch.messages);
      // a failed write is reported by the next batch's await or the one after the parse
      writing.catch(() => undefined);
    },
  }).finally(() => writing.catch(() => undefined));
  await writing;
  return report.records;
}
