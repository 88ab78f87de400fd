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

/**
 * The lease as the work sees it. `valid()` is false from the holder's own deadline on — the instant
 * its last successful renewal was sent, plus the lease time, less a margin — on the monotonic clock,
 * which runs on while the process is paused: a holder that wakes up after a pause knows at once,
 * before any timer has run, that another process may have taken over. Check it before each side
 * effect.
 */
export interface HeldLease {
  valid(): boolean;
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
  /** the monotonic clock, ms (tests); default performance.now */
  monotonic?: () => number;
}

export const DEFAULT_LEASE_TTL_MS = 15_000;

/** What a holder keeps off its lease time: the other processes' clocks may run a little ahead. */
export function holderMarginMs(ttlMs: number): number {
  return Math.max(20, Math.floor(ttlMs / 10));
}

class RenewalTimedOut extends Error {
  constructor(ms: number) {
    super(`Lease renewal did not answer within ${ms} ms`);
  }
}

/**
 * Runs `start()` while this process holds the lease `name`, and stops the work when the lease is lost
 * (another process renewed it in between, or this one could not renew it in time). Processes that do
 * not hold it try again every renewal period. The holder keeps a deadline of its own (HeldLease): the
 * work is stopped there even when a renewal hangs, and sees it through `valid()` even when paused.
 */
export function runWhileHoldingLease(
  documents: DocumentStore,
  options: LeasedWorkOptions,
  start: (lease: HeldLease) => StoppableWork | Promise<StoppableWork>,
): LeasedWork {
  const ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  const settings: LeaseSettings = {
    name: options.name,
    holder: options.holder ?? processHolderId(),
    ttlMs,
    now: options.now,
  };
  const renewEveryMs = options.renewEveryMs ?? Math.max(50, Math.floor(ttlMs / 3));
  const monotonic = options.monotonic ?? (() => performance.now());
  const heldFor = ttlMs - holderMarginMs(ttlMs);
  let work: StoppableWork | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let deadlineTimer: NodeJS.Timeout | undefined;
  let turn: Promise<void> = Promise.resolve();
  // the holder's own deadline (monotonic ms): from the last renewal that succeeded, counted from when
  // it was sent, since the store may have written it at any instant in between
  let validUntil = -Infinity;
  const lease: HeldLease = { valid: () => !stopped && monotonic() < validUntil };

  const loseWork = async () => {
    if (!work) return;
    const running = work;
    work = null;
    await running.stop();
    options.onChange?.(false);
  };

  /** A renewal that does not answer within the lease time counts as a failed one. */
  const renew = async (): Promise<boolean> => {
    let giveUp: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        tryHoldLease(documents, settings),
        new Promise<never>((_, reject) => {
          giveUp = setTimeout(() => reject(new RenewalTimedOut(ttlMs)), ttlMs);
        }),
      ]);
    } finally {
      clearTimeout(giveUp);
    }
  };

  const tick = async () => {
    let held = false;
    const sentAt = monotonic();
    try {
      held = await renew();
    } catch (error) {
      options.onError?.(error); // a store that does not answer: the lease will lapse, stop working
    }
    if (stopped) return;
    // The deadline passed before this renewal (a pause, a late loop): the work may have stopped
    // itself on `valid()`; it is begun again from a clean state rather than left half-stopped.
    if (held && work && sentAt >= validUntil) await loseWork();
    if (held) {
      validUntil = sentAt + heldFor;
      // stop at the deadline even if the next renewal hangs or the loop is late
      clearTimeout(deadlineTimer);
      deadlineTimer = setTimeout(
        () => {
          if (!lease.valid()) void loseWork().catch((error: unknown) => options.onError?.(error));
        },
        Math.max(0, validUntil - monotonic()),
      );
    }
    if (held && !work && lease.valid()) {
      work = await start(lease);
      options.onChange?.(true);
    } else if (!held && work) {
      await loseWork();
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
      clearTimeout(deadlineTimer);
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
