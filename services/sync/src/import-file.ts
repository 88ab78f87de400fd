/**
 * One register file of a run: skipped when unchanged since its last import (unless the index lost
 * messages since), else downloaded and parsed as a stream, its aids published in batches and then
 * its SourceFileImported marker; retried on transfer errors, failed at once on malformed XML.
 */
import { AIDS_TOPIC, DomainError, type AidMessage } from '@rna/domain';
import { eachTextBytes } from '@rna/infra';
import { DEAD_LETTERS_COLLECTION, type DeadLetterDoc } from '@rna/infra/dead-letters';
import {
  importHadAidsSetAside,
  importMayHaveLostAids,
  INDEXING_GAPS_COLLECTION,
  type FileState,
  type IndexingGapDoc,
} from '@rna/read-models';
import {
  MAX_IN_FLIGHT_BYTES,
  parseAidStream,
  RegisterFileFormatError,
  type ArchiveReceiver,
  type EncodedAidBatch,
  type RegisterFileInfo,
} from '@rna/infra/register';
import { nextImportId } from './import-sequence';
import { percentage } from './live-progress';
import { StoppedError, type RunContext } from './run-context';

const TRANSFER_FAILURE = 'Errore di trasferimento';

/** The reason shown on the archive screen for a file that failed. */
export const describeError = (error: unknown): string => {
  if (error instanceof DomainError) return `${error.code}: ${error.message}`;
  if (error instanceof RegisterFileFormatError) {
    return `XML non valido${error.line !== null ? ` alla riga ${error.line}` : ''}: ${error.message}`;
  }
  return `${TRANSFER_FAILURE}: ${error instanceof Error ? error.message : String(error)}`;
};

/** Same ETag (or, without one, same Last-Modified) as the last successful import. */
export function isUnchanged(file: RegisterFileInfo, last: FileState | null): boolean {
  if (!last) return false;
  if (file.etag && last.etag) return file.etag === last.etag;
  return file.lastModified !== null && file.lastModified === last.lastModified;
}

export async function importFile(ctx: RunContext, runId: string, file: RegisterFileInfo): Promise<void> {
  const { fileStates, fileAttempts, retryDelayMs, logger, append, at, checkStopped } = ctx;
  const last = await fileStates.get(file.name);
  if (isUnchanged(file, last) && !(await mayHaveLostAids(ctx, file.name, last))) {
    await append(runId, {
      type: 'RegisterFileSkipped',
      data: { runId, name: file.name, reason: 'UNCHANGED', at: at() },
    });
    return;
  }
  let lastError: unknown = null;
  for (let attempt = 1; attempt <= fileAttempts; attempt++) {
    checkStopped();
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, retryDelayMs * (attempt - 1)));
    try {
      await importOnce(ctx, runId, file, last);
      return;
    } catch (error) {
      if (error instanceof StoppedError) throw error;
      lastError = error;
      const retryable = !(error instanceof RegisterFileFormatError);
      logger.warn(
        { runId, file: file.name, attempt, reason: describeError(error) },
        'import del file non riuscito',
      );
      if (!retryable) break;
    }
  }
  await append(runId, {
    type: 'RegisterFileFailed',
    data: { runId, name: file.name, reason: describeError(lastError), at: at() },
  });
}

/**
 * An unchanged file is imported again when the index lost messages after its last import, or set
 * aside aids of that import (they are published anew; one the index still refuses is set aside again).
 */
async function mayHaveLostAids(ctx: RunContext, name: string, last: FileState | null): Promise<boolean> {
  const { deps } = ctx;
  if (!last) return true;
  const importedAt = Date.parse(last.succeededAt);
  const gaps = await deps.documents.collection<IndexingGapDoc>(INDEXING_GAPS_COLLECTION).find();
  if (importMayHaveLostAids(gaps, importedAt)) return true;
  const letters = await deps.documents
    .collection<DeadLetterDoc>(DEAD_LETTERS_COLLECTION)
    .find({ sourceFile: name });
  return importHadAidsSetAside(letters, { sourceFile: name, importId: last.importId, importedAt });
}

async function importOnce(
  ctx: RunContext,
  runId: string,
  file: RegisterFileInfo,
  last: FileState | null,
): Promise<void> {
  const { deps, progress, batchSize, parserThreads, logger, fileStates, append, at, checkStopped } = ctx;
  let received = 0;
  let total: number | null = null;
  let downloaded = false;
  let parsingAppended = false;
  let original: ArchiveReceiver | null = null;
  const archive = deps.archive;
  const result = await deps.register.download(file, {
    preferZip: deps.preferZip,
    keepOriginal: archive ? (transferred) => (original = archive.receive(transferred)).sink : undefined,
    onProgress: ({ receivedBytes, totalBytes }) => {
      received = receivedBytes;
      total = totalBytes;
      downloaded = totalBytes !== null && receivedBytes >= totalBytes;
      progress.update({
        runId,
        file: file.name,
        status: 'DOWNLOADING',
        progress: percentage(receivedBytes, totalBytes),
        receivedBytes,
        totalBytes,
      });
    },
  });
  if (result.status === 'unchanged') {
    await append(runId, {
      type: 'RegisterFileSkipped',
      data: { runId, name: file.name, reason: 'UNCHANGED', at: at() },
    });
    return;
  }
  total = result.totalBytes;
  // ordered after every import begun before it: a late message of an older import cannot undo it
  const importId = await nextImportId(deps.documents, runId, file.name);
  await append(runId, {
    type: 'RegisterFileDownloading',
    data: { runId, name: file.name, totalBytes: result.totalBytes, at: at() },
  });
  progress.update(
    { runId, file: file.name, status: 'DOWNLOADING', progress: 0, receivedBytes: 0, totalBytes: total },
    true,
  );
  const markParsing = async () => {
    if (parsingAppended) return;
    parsingAppended = true;
    progress.update(
      {
        runId,
        file: file.name,
        status: 'PARSING',
        progress: 100,
        receivedBytes: received,
        totalBytes: total,
      },
      true,
    );
    await append(runId, { type: 'RegisterFileParsing', data: { runId, name: file.name, at: at() } });
  };
  // The aids come encoded by the parser's thread, as their messages' bytes: stored as they are.
  const publish = async (batch: EncodedAidBatch) => {
    const messages = [...eachTextBytes(batch.messages)].map((bytes, i) => ({
      key: batch.taxCodes[i]!,
      bytes,
    }));
    await ctx.publish(AIDS_TOPIC, messages);
  };
  let report;
  try {
    report = await parseAidStream(result.xml, {
      sourceFile: file.name,
      importId,
      // grant dates more than a year after the sync's clock are rejected
      now: ctx.clock.now(),
      batchSize,
      // The files parsed at once share one budget: the peak memory stays that of one file.
      maxInFlightBytes: Math.floor(MAX_IN_FLIGHT_BYTES / parserThreads),
      onEncodedBatch: async (batch) => {
        checkStopped();
        if (downloaded) await markParsing();
        await publish(batch); // awaited: the parser reads on only after the log took the batch
      },
    });
  } finally {
    result.xml.destroy();
  }
  // kept before the import counts as done: a file that could not be kept is imported again
  const archived = original ? await (original as ArchiveReceiver).done() : null;
  checkStopped();
  await markParsing();
  const marker: AidMessage = {
    type: 'SourceFileImported',
    sourceFile: file.name,
    importId,
    runId,
    records: report.records,
  };
  // After the file's last batch: this import's publishes are awaited one by one, so none is behind it.
  await ctx.publish(AIDS_TOPIC, [{ key: `file:${file.name}`, value: marker }]);
  if (deps.awaitIndexed) await deps.awaitIndexed();
  checkStopped();
  if (report.controlBytesRemoved > 0 || report.truncatedTags.length > 0) {
    logger.warn(
      {
        runId,
        file: file.name,
        controlBytesRemoved: report.controlBytesRemoved,
        truncatedTags: report.truncatedTags,
      },
      'file RNA con difetti corretti durante l’import',
    );
  }
  if (report.recordsRejected > 0 || report.recordsCapped > 0) {
    logger.warn(
      {
        runId,
        file: file.name,
        recordsRejected: report.recordsRejected,
        firstRejected: report.rejected.slice(0, 5),
        recordsCapped: report.recordsCapped,
      },
      'record RNA scartati o con testi troncati durante l’import',
    );
  }
  const succeededAt = at();
  await append(runId, {
    type: 'RegisterFileSucceeded',
    data: {
      runId,
      name: file.name,
      importId,
      records: report.records,
      // Net decrease against the previous import; the projector withdraws the exact set.
      withdrawn: Math.max(0, (last?.records ?? 0) - report.records),
      controlBytesRemoved: report.controlBytesRemoved,
      etag: file.etag,
      lastModified: file.lastModified,
      at: succeededAt,
      // set aside by the record check: never published, shown with their reasons on the archive screen
      recordsRejected: report.recordsRejected,
      rejected: report.rejected,
      ...(archived ? { archive: archived } : {}),
    },
  });
  await fileStates.put({
    id: file.name,
    etag: file.etag,
    lastModified: file.lastModified,
    records: report.records,
    importId,
    succeededAt,
    ...(archived ? { archive: archived } : {}),
  });
}
