/**
 * The register sync worker. Reacts to SyncRequested, plans the scope's files and imports them,
 * up to `parserThreads` at once (each parsed on a thread of its own, this thread the one writer to
 * the log): download (stream) → remove control bytes → parse (stream) → publish AidRecorded
 * batches → SourceFileImported marker. Every step is an event on `sync-<runId>`, so a restarted
 * worker resumes the run where it stopped: finished files stay finished, the interrupted one
 * starts again with a new import id (the marker makes the projector drop its partial leftovers).
 */
import type { Subscription } from '@rna/infra';
import type { LiveProgress } from './live-progress';
import { createRunContext, StoppedError, type SyncWorkerDeps } from './run-context';
import { describeError, isUnchanged } from './import-file';
import { executeRun } from './run';
import { readSyncControl } from './sync-control';

export { isUnchanged, type SyncWorkerDeps };

export const SYNC_WORKER_SUBSCRIBER = 'sync-worker';

export interface SyncWorker {
  /** Progress of the file being downloaded or parsed, or null. */
  getLiveProgress(): LiveProgress | null;
  /** Runs any requested run that is not finished yet; resolves when none is left. */
  runPending(): Promise<void>;
  /** Stops at the next batch boundary (the current file is left unfinished, as in a crash). */
  stop(): Promise<void>;
}

/**
 * Subscribes to the all-events feed and runs each requested run (run.ts) one at a time; a run left
 * unfinished by a previous process is resumed at start.
 */
export function startSyncWorker(deps: SyncWorkerDeps): SyncWorker {
  let stopped = false;
  // stopped, or the lease ran out by this holder's own deadline: the run stops at its next step
  const stoppedOrLeaseGone = () => stopped || deps.leaseValid?.() === false;
  const ctx = createRunContext(deps, stoppedOrLeaseGone);
  // …or a store fenced this holder off (a later one wrote): nothing more is begun or sent
  const halted = () => stoppedOrLeaseGone() || ctx.fencedOff();
  let busy: Promise<void> | null = null;
  let again = false;
  const { logger, progress, appendControl, at } = ctx;

  let shutOut: Promise<void> | null = null;
  async function drain(): Promise<void> {
    try {
      await (shutOut ??= ctx.shutOutPredecessors());
    } catch (error) {
      shutOut = null; // a store that did not answer: tried again on the next kick
      if (!(error instanceof StoppedError))
        logger.warn({ reason: describeError(error) }, 'sync fences not raised: the run waits');
      return;
    }
    while (!halted()) {
      const { running } = await readSyncControl(deps.eventStore);
      if (!running) return;
      try {
        await executeRun(ctx, running);
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
        } while (again && !halted());
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
        pending = busy ?? ((await readSyncControl(deps.eventStore)).running && !halted() ? kick() : null);
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
