/**
 * What every step of a sync run works with: the worker's ports and settings, the run's bookkeeping
 * documents and the small helpers to append its events. Built once per worker (startSyncWorker).
 */
import { AIDS_TOPIC, streams, type SyncEvent } from '@rna/domain';
import {
  FILE_STATE_COLLECTION,
  REGISTER_FILES_COLLECTION,
  type FileState,
  type RegisterFileDoc,
} from '@rna/read-models';
import {
  FencedError,
  type AidIndex,
  type Collection,
  type Doc,
  type DocumentStore,
  type EventStore,
  type Fence,
  type MessageLog,
} from '@rna/infra';
import type { RegisterArchive, RegisterClient } from '@rna/infra/register';
import { ProgressTracker } from './live-progress';
import { systemClock, silentLogger, type Clock, type Logger } from './ports';

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
  /** Keeps each imported file as the register sent it, the source of index rebuilds; absent: none kept. */
  archive?: RegisterArchive;
  /**
   * Files imported at once, each parsed on a thread of its own (default 1: one after another).
   * Whatever the number, this thread alone publishes, one batch at a time.
   */
  parserThreads?: number;
  /**
   * Resolves once the aid index has applied everything published so far. When given (the
   * standalone passes its index consumer's caughtUp), a file is SUCCESS only once it is searchable.
   */
  awaitIndexed?: () => Promise<void>;
  /**
   * Whether this process still holds the sync lease by its own deadline (leases HeldLease): checked
   * before every publish and every step, so that a process paused past its lease and resumed stops
   * before it sends anything. Absent: the only worker there is (the standalone).
   */
  leaseValid?: () => boolean;
  /**
   * The sync lease's fencing token (leases HeldLease.fence): every event and every message the worker
   * writes carries it, so that a store that checks fences refuses them once a later holder wrote —
   * also those already on their way when this process was paused. Absent: the standalone's only worker.
   */
  fence?: Fence;
}

/** Thrown inside a run once the worker is asked to stop: the run is left as a crash would leave it. */
export class StoppedError extends Error {
  constructor() {
    super('sync worker stopped');
  }
}

export interface RunContext {
  deps: SyncWorkerDeps;
  clock: Clock;
  logger: Logger;
  batchSize: number;
  fileAttempts: number;
  retryDelayMs: number;
  parserThreads: number;
  progress: ProgressTracker;
  fileStates: Collection<FileState>;
  registerFiles: Collection<RegisterFileDoc>;
  /** Now, as the events' ISO timestamp. */
  at(): string;
  /** Appends one event (or several at once) to the run's own stream. */
  append(runId: string, event: SyncEvent | SyncEvent[]): Promise<unknown>;
  /** Appends to sync-control (SyncCompleted / SyncFailed free it for the next run). */
  appendControl(event: SyncEvent): Promise<unknown>;
  /** Throws StoppedError once the worker was asked to stop. */
  checkStopped(): void;
  /**
   * The one writer to the message log: publishes in call order, each after the previous one
   * settled, whichever file's import calls it.
   */
  publish: MessageLog['publish'];
}

/**
 * Chains publishes so that concurrent imports never have two of them in flight at once; none goes
 * out once the worker stopped or its lease ran out (checked when its turn comes, not when queued),
 * and each carries the lease's fence, for the one already sent when the process was paused.
 */
function singleWriter(
  messageLog: MessageLog,
  isStopped: () => boolean,
  fenced: <T>(write: () => Promise<T>) => Promise<T>,
  fence: Fence | undefined,
): MessageLog['publish'] {
  let tail: Promise<unknown> = Promise.resolve();
  return (topic, messages, options) => {
    const published = tail.then(() => {
      if (isStopped()) throw new StoppedError();
      return fenced(() => messageLog.publish(topic, messages, { ...options, fence }));
    });
    tail = published.catch(() => undefined); // one failed publish must not fail the next ones
    return published;
  };
}

/** The collection, its writes carrying the fence (the run's file states are the holder's to write). */
function fencedPuts<T extends Doc>(
  collection: Collection<T>,
  fence: Fence | undefined,
  fenced: <R>(write: () => Promise<R>) => Promise<R>,
): Collection<T> {
  if (!fence) return collection;
  const withFence: Collection<T> = Object.create(collection) as Collection<T>;
  withFence.put = (doc, options) => fenced(() => collection.put(doc, { ...options, fence }));
  return withFence;
}

/**
 * `isStopped`: the worker was asked to stop, or its lease ran out (worker.ts `halted`). A write the
 * store fenced off (a later holder wrote) stops the worker for good, as a crash would: `fencedOff`.
 */
export function createRunContext(
  deps: SyncWorkerDeps,
  isStopped: () => boolean,
): RunContext & { fencedOff(): boolean; shutOutPredecessors(): Promise<void> } {
  const clock = deps.clock ?? systemClock;
  const fence = deps.fence;
  let fencedOff = false;
  const stoppedNow = () => fencedOff || isStopped();
  const fenced = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof FencedError)) throw error;
      if (!fencedOff)
        (deps.logger ?? silentLogger).warn(
          { lease: error.fence.name, token: error.fence.token, laterToken: error.seenToken },
          'sync fenced off: a later holder of the lease wrote; this process sends nothing more',
        );
      fencedOff = true;
      throw new StoppedError();
    }
  };
  const appendTo = (stream: string, events: SyncEvent[]) =>
    fenced(() => deps.eventStore.appendToStream(stream, events, { expectedVersion: 'any', fence }));
  return {
    fencedOff: () => fencedOff,
    // A new holder writes its token before anything else: from then on the stores refuse whatever a
    // former holder still sends, though this one has nothing to send yet.
    shutOutPredecessors: async () => {
      if (!fence) return;
      await fenced(() => deps.messageLog.publish(AIDS_TOPIC, [], { fence }));
      await appendTo(streams.syncControl, []);
    },
    deps,
    clock,
    logger: deps.logger ?? silentLogger,
    batchSize: deps.batchSize ?? 2000,
    fileAttempts: deps.fileAttempts ?? 3,
    retryDelayMs: deps.retryDelayMs ?? 2000,
    parserThreads: Math.max(1, Math.floor(deps.parserThreads ?? 1)),
    progress: new ProgressTracker(deps.documents, () => clock.now().getTime()),
    fileStates: fencedPuts(deps.documents.collection<FileState>(FILE_STATE_COLLECTION), fence, fenced),
    registerFiles: fencedPuts(
      deps.documents.collection<RegisterFileDoc>(REGISTER_FILES_COLLECTION),
      fence,
      fenced,
    ),
    at: () => clock.now().toISOString(),
    append: (runId, event) => appendTo(streams.sync(runId), Array.isArray(event) ? event : [event]),
    appendControl: (event) => appendTo(streams.syncControl, [event]),
    checkStopped: () => {
      if (stoppedNow()) throw new StoppedError();
    },
    publish: singleWriter(deps.messageLog, stoppedNow, fenced, fence),
  };
}
