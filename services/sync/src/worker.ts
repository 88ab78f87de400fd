/**
 * The register sync worker. Reacts to SyncRequested, plans the scope's files and imports them
 * one by one: download (stream) → remove control bytes → parse (stream) → publish AidRecorded
 * batches → SourceFileImported marker. Every step is an event on `sync-<runId>`, so a restarted
 * worker resumes the run where it stopped: finished files stay finished, the interrupted one
 * starts again with a new import id (the marker makes the projector drop its partial leftovers).
 */
import { randomUUID } from 'node:crypto';
import {
  AIDS_TOPIC,
  DomainError,
  encodeAidRecorded,
  streams,
  type AidMessage,
  type SyncEvent,
} from '@rna/domain';
import {
  FILE_STATE_COLLECTION,
  importMayHaveLostAids,
  INDEXING_GAPS_COLLECTION,
  REGISTER_FILES_COLLECTION,
  type FileState,
  type IndexingGapDoc,
  type RegisterFileDoc,
} from '@rna/read-models';
import type { AidIndex, DocumentStore, EventStore, MessageLog, Subscription } from '@rna/infra';
import {
  parseAidStream,
  RegisterFileFormatError,
  type EncodedAidBatch,
  type RegisterClient,
  type RegisterFileInfo,
} from '@rna/infra/register';
import { percentage, ProgressTracker, type LiveProgress } from './live-progress';
import { filesGoneFromRegister, planFiles } from './plan';
import { systemClock, silentLogger, type Clock, type Logger } from './ports';
import { readSyncControl, type SyncRequest } from './sync-control';

export const SYNC_WORKER_SUBSCRIBER = 'sync-worker';

export interface SyncWorkerDeps {
  eventStore: EventStore;
  messageLog: MessageLog;
  /** Kept for parity with the other services; the worker does not read the index. */
  aidIndex?: AidIndex;
  documents: DocumentStore;
  register: RegisterClient;
  clock?: Clock;
  logger?: Logger;
  /** AidRecorded messages per publish (default 2,000). */
  batchSize?: number;
  /** Attempts per file on transfer errors (default 3) and the pause between them. */
  fileAttempts?: number;
  retryDelayMs?: number;
  /** Prefer the zip flow (default true). */
  preferZip?: boolean;
  /**
   * Resolves once the aid index has applied everything published so far. When given (the
   * standalone passes its index consumer's caughtUp), a file is SUCCESS only once it is searchable.
   */
  awaitIndexed?: () => Promise<void>;
}

export interface SyncWorker {
  /** Progress of the file being downloaded or parsed, or null. */
  getLiveProgress(): LiveProgress | null;
  /** Runs any requested run that is not finished yet; resolves when none is left. */
  runPending(): Promise<void>;
  /** Stops at the next batch boundary (the current file is left unfinished, as in a crash). */
  stop(): Promise<void>;
}

class StoppedError extends Error {
  constructor() {
    super('sync worker stopped');
  }
}

const TRANSFER_FAILURE = 'Errore di trasferimento';

interface RunTally {
  done: Set<string>;
  succeeded: number;
  failed: number;
  skipped: number;
  records: number;
  started: string[] | null;
}

function tallyRun(events: readonly SyncEvent[]): RunTally {
  const tally: RunTally = { done: new Set(), succeeded: 0, failed: 0, skipped: 0, records: 0, started: null };
  for (const event of events) {
    const e = event;
    if (e.type === 'SyncStarted') tally.started = e.data.files;
    else if (e.type === 'RegisterFileSucceeded') {
      tally.done.add(e.data.name);
      tally.succeeded++;
      tally.records += e.data.records;
    } else if (e.type === 'RegisterFileFailed') {
      tally.done.add(e.data.name);
      tally.failed++;
    } else if (e.type === 'RegisterFileSkipped') {
      tally.done.add(e.data.name);
      tally.skipped++;
    }
  }
  return tally;
}

const describeError = (error: unknown): string => {
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

export function startSyncWorker(deps: SyncWorkerDeps): SyncWorker {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? silentLogger;
  const batchSize = deps.batchSize ?? 2000;
  const fileAttempts = deps.fileAttempts ?? 3;
  const retryDelayMs = deps.retryDelayMs ?? 2000;
  const progress = new ProgressTracker(deps.documents, () => clock.now().getTime());
  const fileStates = deps.documents.collection<FileState>(FILE_STATE_COLLECTION);
  const registerFiles = deps.documents.collection<RegisterFileDoc>(REGISTER_FILES_COLLECTION);
  let stopped = false;
  let busy: Promise<void> | null = null;
  let again = false;

  const at = () => clock.now().toISOString();
  const append = (runId: string, event: SyncEvent) =>
    deps.eventStore.appendToStream(streams.sync(runId), [event], { expectedVersion: 'any' });
  const appendControl = (event: SyncEvent) =>
    deps.eventStore.appendToStream(streams.syncControl, [event], { expectedVersion: 'any' });
  const checkStopped = () => {
    if (stopped) throw new StoppedError();
  };

  async function importFile(runId: string, file: RegisterFileInfo): Promise<void> {
    const last = await fileStates.get(file.name);
    if (isUnchanged(file, last) && !(await mayHaveLostAids(last))) {
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
        await importOnce(runId, file, last);
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

  /** An unchanged file is imported again when the index lost messages after its last import. */
  async function mayHaveLostAids(last: FileState | null): Promise<boolean> {
    if (!last) return true;
    const gaps = await deps.documents.collection<IndexingGapDoc>(INDEXING_GAPS_COLLECTION).find();
    return importMayHaveLostAids(gaps, Date.parse(last.succeededAt));
  }

  async function importOnce(runId: string, file: RegisterFileInfo, last: FileState | null): Promise<void> {
    const importId = `${runId}:${file.name}:${randomUUID().slice(0, 8)}`;
    let received = 0;
    let total: number | null = null;
    let downloaded = false;
    let parsingAppended = false;
    const result = await deps.register.download(file, {
      preferZip: deps.preferZip,
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
    // The aids come encoded by the parser's thread; each message is stored with that very text.
    const publish = async (batch: EncodedAidBatch) => {
      const messages = batch.json.map((aidJson, i) => ({
        key: batch.taxCodes[i]!,
        json: encodeAidRecorded(aidJson),
      }));
      await deps.messageLog.publish(AIDS_TOPIC, messages);
    };
    let report;
    try {
      report = await parseAidStream(result.xml, {
        sourceFile: file.name,
        importId,
        batchSize,
        onEncodedBatch: async (batch) => {
          checkStopped();
          if (downloaded) await markParsing();
          await publish(batch); // awaited: the parser reads on only after the log took the batch
        },
      });
    } finally {
      result.xml.destroy();
    }
    checkStopped();
    await markParsing();
    const marker: AidMessage = {
      type: 'SourceFileImported',
      sourceFile: file.name,
      importId,
      runId,
      records: report.records,
    };
    await deps.messageLog.publish(AIDS_TOPIC, [{ key: `file:${file.name}`, value: marker }]);
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
      },
    });
    await fileStates.put({
      id: file.name,
      etag: file.etag,
      lastModified: file.lastModified,
      records: report.records,
      importId,
      succeededAt,
    });
  }

  async function listFiles(): Promise<RegisterFileInfo[]> {
    const files = await deps.register.listFiles();
    const listedAt = clock.now().getTime();
    for (const file of files) {
      const rnaLastUpdate = file.lastModified ? Date.parse(file.lastModified) : NaN;
      await registerFiles.put({
        id: file.name,
        fileName: file.fileName,
        rnaLastUpdate: Number.isNaN(rnaLastUpdate) ? null : rnaLastUpdate,
        size: file.size,
        listedAt,
      });
    }
    return files;
  }

  /**
   * A full-scope run sees the register's complete listing: files imported before and no longer
   * listed left the register, and their aids are withdrawn. false (the run failed) when the listing
   * looks broken rather than changed.
   */
  async function withdrawFilesGone(runId: string, listing: RegisterFileInfo[]): Promise<boolean> {
    const imported = (await fileStates.find()).map((state) => state.id);
    const verdict = filesGoneFromRegister(
      listing.map((file) => file.name),
      imported,
      clock.now(),
    );
    if (verdict.fault !== null) {
      const reason = `G007: ${verdict.fault}; nessun aiuto ritirato`;
      await appendControl({ type: 'SyncFailed', data: { runId, at: at(), reason } });
      logger.error({ runId, reason }, 'sincronizzazione non riuscita');
      return false;
    }
    for (const name of verdict.gone) {
      checkStopped();
      const withdrawn: AidMessage = { type: 'SourceFileWithdrawn', sourceFile: name, runId };
      await deps.messageLog.publish(AIDS_TOPIC, [{ key: `file:${name}`, value: withdrawn }]);
      await append(runId, { type: 'RegisterFileWithdrawn', data: { runId, name, at: at() } });
      await fileStates.delete(name);
      logger.info({ runId, file: name }, 'file non più nel registro: aiuti ritirati');
    }
    return true;
  }

  async function executeRun(request: SyncRequest): Promise<void> {
    const { runId } = request;
    const before = tallyRun((await deps.eventStore.readStream(streams.sync(runId))).events);
    let listing: RegisterFileInfo[];
    try {
      listing = await listFiles();
    } catch (error) {
      checkStopped();
      await appendControl({ type: 'SyncFailed', data: { runId, at: at(), reason: describeError(error) } });
      logger.error({ runId, reason: describeError(error) }, 'sincronizzazione non riuscita');
      return;
    }
    checkStopped();
    let planned: RegisterFileInfo[];
    if (before.started) {
      const byName = new Map(listing.map((file) => [file.name, file]));
      planned = before.started.flatMap((name) => byName.get(name) ?? []);
      for (const name of before.started.filter((n) => !byName.has(n) && !before.done.has(n))) {
        await append(runId, {
          type: 'RegisterFileFailed',
          data: { runId, name, reason: 'File non più presente nel registro', at: at() },
        });
      }
    } else {
      if (request.scope === 'ALL' && !(await withdrawFilesGone(runId, listing))) return;
      planned = planFiles(listing, request.scope, request.onlyDocuments, clock.now());
      const files = planned.map((file) => file.name);
      await deps.eventStore.appendToStream(
        streams.sync(runId),
        [
          { type: 'SyncStarted', data: { runId, files, at: at() } },
          ...files.map((name): SyncEvent => ({
            type: 'RegisterFileQueued',
            data: { runId, name, at: at() },
          })),
        ],
        { expectedVersion: 'any' },
      );
      logger.info({ runId, scope: request.scope, files: files.length }, 'sincronizzazione avviata');
    }
    for (const file of planned) {
      if (before.done.has(file.name)) continue;
      checkStopped();
      await importFile(runId, file);
    }
    await progress.clear();
    const tally = tallyRun((await deps.eventStore.readStream(streams.sync(runId))).events);
    await appendControl({
      type: 'SyncCompleted',
      data: {
        runId,
        at: at(),
        succeeded: tally.succeeded,
        failed: tally.failed,
        skipped: tally.skipped,
        records: tally.records,
      },
    });
    logger.info({ runId, ...tally, done: undefined, started: undefined }, 'sincronizzazione completata');
  }

  async function drain(): Promise<void> {
    while (!stopped) {
      const { running } = await readSyncControl(deps.eventStore);
      if (!running) return;
      try {
        await executeRun(running);
      } catch (error) {
        if (error instanceof StoppedError) return;
        // An unexpected failure (a store down…): end the run so that a new one can be requested.
        logger.error({ runId: running.runId, reason: describeError(error) }, 'sincronizzazione interrotta');
        await appendControl({
          type: 'SyncFailed',
          data: { runId: running.runId, at: at(), reason: describeError(error) },
        });
      }
    }
  }

  function kick(): Promise<void> {
    if (busy) {
      again = true;
      return busy;
    }
    busy = (async () => {
      try {
        do {
          again = false;
          await drain();
        } while (again && !stopped);
      } finally {
        busy = null;
      }
    })();
    return busy;
  }

  const subscription: Subscription = deps.eventStore.subscribeToAll({
    subscriberId: SYNC_WORKER_SUBSCRIBER,
    handler: async (events) => {
      // Do not wait for the run: the feed must keep flowing; the run state lives in the streams.
      if (events.some((event) => event.type === 'SyncRequested')) void kick();
    },
  });
  void kick(); // resume a run left unfinished by a previous process

  return {
    getLiveProgress: () => progress.get(),
    runPending: async () => {
      let pending: Promise<void> | null = kick();
      while (pending) {
        await pending;
        pending = busy ?? ((await readSyncControl(deps.eventStore)).running && !stopped ? kick() : null);
      }
    },
    stop: async () => {
      stopped = true;
      await subscription.stop();
      await busy?.catch(() => undefined);
      await progress.flushed();
    },
  };
}
