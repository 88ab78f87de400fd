/**
 * CPU-heavy work of a request (reading an uploaded workbook or CSV, a pasted list of thousands of
 * codes) on worker threads, so that the event loop keeps answering everyone else while one request
 * parses. Few threads (the machine has few cores and the index writer, the parser and Chromium need
 * them too), a bounded queue (past it the caller is told to retry: `WorkerPoolBusyError`) and a time
 * limit per task (the thread is ended and replaced: a hostile input cannot keep a core for ever).
 * Hand-written rather than piscina: tasks run from TypeScript sources under jest through
 * `workerScript`, which piscina's own loader cannot start.
 *
 * A worker module answers each `{ id, input }` message with `{ id, ok: true, value }` or
 * `{ id, ok: false, error: { name, message, code? } }`; `serveTasks` writes that side.
 */
import { parentPort, Worker } from 'node:worker_threads';
import { workerScript } from './worker-script';

export interface WorkerTaskError {
  name: string;
  message: string;
  /** a DomainError's code, carried across the thread boundary */
  code?: string;
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WorkerTaskError };

/** The queue is full: the caller should answer "retry later". */
export class WorkerPoolBusyError extends Error {
  constructor() {
    super('worker pool busy');
    this.name = 'WorkerPoolBusyError';
  }
}

/** A task ran past its time limit and its thread was ended. */
export class WorkerTaskTimeoutError extends Error {
  constructor(ms: number) {
    super(`worker task ran past ${ms} ms`);
    this.name = 'WorkerTaskTimeoutError';
  }
}

/** A task's own failure, as the worker reported it. */
export class WorkerTaskFailedError extends Error {
  constructor(public readonly reported: WorkerTaskError) {
    super(reported.message);
    this.name = 'WorkerTaskFailedError';
  }
}

export interface WorkerPoolOptions {
  /** directory and base name of the worker module (as `workerScript` takes them) */
  dir: string;
  baseName: string;
  /** threads at most (default 1) */
  threads?: number;
  /** tasks waiting for a thread at most (default 16) */
  maxQueued?: number;
  /** a task's time limit in ms (default 30 s) */
  timeoutMs?: number;
  /** an idle thread ends after this many ms (default 60 s); the next task starts a new one */
  idleMs?: number;
}

interface Task {
  input: unknown;
  transfer: ArrayBuffer[];
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Task | null;
  timer: NodeJS.Timeout | null;
  idle: NodeJS.Timeout | null;
}

export class WorkerPool<In, Out> {
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 0;
  private readonly threads: number;
  private readonly maxQueued: number;
  private readonly timeoutMs: number;
  private readonly idleMs: number;

  constructor(private readonly options: WorkerPoolOptions) {
    this.threads = Math.max(1, options.threads ?? 1);
    this.maxQueued = options.maxQueued ?? 16;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.idleMs = options.idleMs ?? 60_000;
  }

  /** Runs one task; `transfer` lists buffers handed over (not copied) to the thread. */
  run(input: In, transfer: ArrayBuffer[] = []): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      const task: Task = { input, transfer, resolve: resolve as (value: unknown) => void, reject };
      const slot = this.freeSlot();
      if (slot) return this.start(slot, task);
      if (this.queue.length >= this.maxQueued) return reject(new WorkerPoolBusyError());
      this.queue.push(task);
    });
  }

  /** Ends every thread (tasks still running are rejected). */
  async close(): Promise<void> {
    for (const task of this.queue.splice(0)) task.reject(new Error('worker pool closed'));
    await Promise.all(this.slots.splice(0).map((slot) => this.end(slot, new Error('worker pool closed'))));
  }

  private freeSlot(): Slot | null {
    const idle = this.slots.find((slot) => slot.busy === null);
    if (idle) return idle;
    if (this.slots.length >= this.threads) return null;
    const script = workerScript(this.options.dir, this.options.baseName);
    if (!script) throw new Error(`no worker module ${this.options.baseName} in ${this.options.dir}`);
    const worker = new Worker(script.code, { eval: script.eval });
    // an idle pool never keeps a process alive
    worker.unref();
    const slot: Slot = { worker, busy: null, timer: null, idle: null };
    worker.on('message', (reply: Reply) => this.settle(slot, reply));
    worker.on('error', (error) => void this.end(slot, error));
    worker.on('exit', () => void this.end(slot, new Error('worker thread exited')));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, task: Task): void {
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    slot.busy = task;
    slot.worker.ref();
    slot.timer = setTimeout(
      () => void this.end(slot, new WorkerTaskTimeoutError(this.timeoutMs)),
      this.timeoutMs,
    );
    slot.worker.postMessage({ id: ++this.nextId, input: task.input }, task.transfer);
  }

  private settle(slot: Slot, reply: Reply): void {
    const task = slot.busy;
    if (!task) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
    if (reply.ok) task.resolve(reply.value);
    else task.reject(new WorkerTaskFailedError(reply.error));
    const next = this.queue.shift();
    if (next) return this.start(slot, next);
    slot.worker.unref();
    slot.idle = setTimeout(() => void this.end(slot, null), this.idleMs);
    slot.idle.unref();
  }

  /** Ends a thread: its task (if any) fails with `error`, and a queued task gets a new thread. */
  private async end(slot: Slot, error: Error | null): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    if (slot.timer) clearTimeout(slot.timer);
    if (slot.idle) clearTimeout(slot.idle);
    const task = slot.busy;
    slot.busy = null;
    if (task) task.reject(error ?? new Error('worker thread ended'));
    await slot.worker.terminate().catch(() => undefined);
    const next = this.queue.shift();
    if (next) {
      const fresh = this.freeSlot();
      if (fresh) this.start(fresh, next);
      else this.queue.unshift(next);
    }
  }
}

/** The worker side: answers each task with `work(input)`'s value or its error. */
export function serveTasks<In, Out>(work: (input: In) => Out | Promise<Out>): void {
  const port = parentPort;
  if (!port) return;
  port.on('message', async ({ id, input }: { id: number; input: In }) => {
    let reply: Reply;
    try {
      reply = { id, ok: true, value: await work(input) };
    } catch (caught) {
      const error = caught instanceof Error ? caught : new Error(String(caught));
      const code = (error as { code?: unknown }).code;
      reply = {
        id,
        ok: false,
        error: { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) },
      };
    }
    port.postMessage(reply);
  });
}
