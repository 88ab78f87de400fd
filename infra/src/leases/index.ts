/**
 * Leases: one process at a time does a piece of work that must be single (a projection, the sync
 * worker, the alert notifier) while any number of processes stand by. A lease is a document written
 * with the documents port's compare-and-set; its holder renews it well before it expires, and
 * whoever finds it expired takes it over — so the work moves within the lease time when its holder
 * dies (kill -9 included), and never runs twice for longer than a renewal period.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { ConflictError, type DocumentStore } from '../documents/port';

export const LEASES_COLLECTION = 'leases';

export interface LeaseDoc {
  id: string;
  holder: string;
  /** wall-clock ms */
  expiresAt: number;
}

/** This process, as a lease holder: host, pid and a random part (pids are reused). */
export function processHolderId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/**
 * Leases compare wall-clock instants across processes: they read the real clock, never a test's
 * shifted or pinned business clock.
 */
export const leaseClock = (): number => Math.round(performance.timeOrigin + performance.now());

export interface LeaseSettings {
  name: string;
  holder: string;
  ttlMs: number;
  now?: () => number;
}

/** Takes the lease when it is free or expired, or renews it when held: true when held afterwards. */
export async function tryHoldLease(documents: DocumentStore, settings: LeaseSettings): Promise<boolean> {
  const leases = documents.collection<LeaseDoc>(LEASES_COLLECTION);
  const now = (settings.now ?? leaseClock)();
  const current = await leases.getWithRevision(settings.name);
  if (current && current.doc.holder !== settings.holder && current.doc.expiresAt > now) return false;
  try {
    await leases.put(
      { id: settings.name, holder: settings.holder, expiresAt: now + settings.ttlMs },
      { expectedRevision: current?.revision ?? 0 },
    );
    return true;
  } catch (error) {
    if (error instanceof ConflictError) return false; // another process took or renewed it first
    throw error;
  }
}

/** Gives the lease up at once (a clean stop), so that another process need not wait for it to expire. */
export async function releaseLease(documents: DocumentStore, settings: LeaseSettings): Promise<void> {
  const leases = documents.collection<LeaseDoc>(LEASES_COLLECTION);
  const current = await leases.getWithRevision(settings.name);
  if (current?.doc.holder !== settings.holder) return;
  try {
    await leases.put({ ...current.doc, expiresAt: 0 }, { expectedRevision: current.revision });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
  }
}

export interface StoppableWork {
  stop(): Promise<void>;
}

export interface LeasedWork {
  /** Whether this process holds the lease (and runs the work) now. */
  holding(): boolean;
  /** Stops the work if it runs and gives the lease up. */
  stop(): Promise<void>;
}

export interface LeasedWorkOptions {
  name: string;
  holder?: string;
  /** default 15 s: the longest the work stays undone after its holder died */
  ttlMs?: number;
  /** default a third of the lease time */
  renewEveryMs?: number;
  now?: () => number;
  onChange?: (holding: boolean) => void;
  onError?: (error: unknown) => void;
}

export const DEFAULT_LEASE_TTL_MS = 15_000;

/**
 * Runs `start()` while this process holds the lease `name`, and stops the work when the lease is lost
 * (another process renewed it in between, or this one could not renew it in time). Processes that do
 * not hold it try again every renewal period.
 */
export function runWhileHoldingLease(
  documents: DocumentStore,
  options: LeasedWorkOptions,
  start: () => StoppableWork | Promise<StoppableWork>,
): LeasedWork {
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const settings: LeaseSettings = {
    name: options.name,
    holder: options.holder ?? processHolderId(),
    ttlMs,
    now: options.now,
  };
  const renewEveryMs = options.renewEveryMs ?? Math.max(50, Math.floor(ttlMs / 3));
  let work: StoppableWork | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let turn: Promise<void> = Promise.resolve();

  const tick = async () => {
    let held = false;
    try {
      held = await tryHoldLease(documents, settings);
    } catch (error) {
      options.onError?.(error); // a store that does not answer: the lease will lapse, stop working
    }
    if (stopped) return;
    if (held && !work) {
      work = await start();
      options.onChange?.(true);
    } else if (!held && work) {
      const running = work;
      work = null;
      await running.stop();
      options.onChange?.(false);
    }
  };
  const schedule = () => {
    if (stopped) return;
    turn = tick()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        if (!stopped) timer = setTimeout(schedule, renewEveryMs);
      });
  };
  schedule();

  return {
    holding: () => work !== null,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await turn;
      if (work) {
        const running = work;
        work = null;
        await running.stop();
        await releaseLease(documents, settings).catch(() => undefined);
      }
    },
  };
}
