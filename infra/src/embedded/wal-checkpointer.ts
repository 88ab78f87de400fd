/**
 * WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside whichever commit
 * makes the WAL cross its threshold: that commit copies megabytes into the database file and syncs
 * it, and every request waiting behind it waits too (a metered search commits twice). A worker
 * thread with its own connection to each registered file runs PASSIVE checkpoints a few times a
 * second instead; PASSIVE never blocks readers or writers. The adapters keep their automatic
 * checkpoint as a safety net, which a worker keeping up leaves with nothing to do.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { workerScript } from './worker-script';
import { adapterLogger } from '../logging';

export const BACKGROUND_CHECKPOINT_INTERVAL_MS = 200;

/** What the checkpointer's thread is told: a file to checkpoint, one to forget, or to end. */
export type CheckpointerMessage =
  { kind: 'add'; file: string } | { kind: 'remove'; file: string } | { kind: 'stop' };

let worker: Worker | null = null;
/** Registrations per file: two adapters on one file share one connection in the worker. */
const registered = new Map<string, number>();

function post(message: CheckpointerMessage): void {
  worker?.postMessage(message);
}

function startWorker(): Worker | null {
  const script = workerScript(__dirname, 'wal-checkpointer.worker');
  if (!script) return null;
  const started = new Worker(script.code, {
    eval: script.eval,
    workerData: { intervalMs: BACKGROUND_CHECKPOINT_INTERVAL_MS },
  });
  // It must never keep a process alive, nor take it down: without it the safety net still applies.
  started.unref();
  started.on('error', (error) => {
    adapterLogger('sqlite').error({ error: error.message }, 'background checkpoints stopped');
    if (worker === started) worker = null;
  });
  return started;
}

/**
 * Checkpoints `file` in the background until the returned function is called (at close).
 * Returns a no-op when the worker cannot be started (the automatic checkpoint then does the work).
 */
export function checkpointInBackground(file: string): () => void {
  const key = path.resolve(file);
  worker ??= startWorker();
  if (!worker) return () => undefined;
  const count = registered.get(key) ?? 0;
  registered.set(key, count + 1);
  if (count === 0) post({ kind: 'add', file: key });
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    const left = (registered.get(key) ?? 1) - 1;
    if (left > 0) {
      registered.set(key, left);
      return;
    }
    registered.delete(key);
    post({ kind: 'remove', file: key });
    if (registered.size === 0 && worker) {
      // The last file is gone: let the worker close its connections and end.
      const ending = worker;
      worker = null;
      ending.postMessage({ kind: 'stop' } satisfies CheckpointerMessage);
    }
  };
}
