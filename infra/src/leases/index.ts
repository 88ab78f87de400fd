/**
 * Leases: one process at a time does a piece of work that must be single (a projection, the sync
 * worker, the alert notifier) while any number of processes stand by. A lease is a document written
 * with the documents port's compare-and-set; its holder renews it well before it expires (each write
 * is a new revision), and whoever has seen the same revision unchanged for a whole lease time takes
 * it over — so the work moves within the lease time when its holder dies (kill -9 included), and
 * never runs twice for longer than a renewal period.
 *
 * Expiry needs no agreement between the hosts' clocks (the way Kubernetes leader election does it):
 * an observer never compares the holder's `expiresAt` with its own wall clock. It remembers, per
 * lease, the revision it last saw and when it first saw it on its own monotonic clock, and takes the
 * lease only once that revision stayed unchanged for the lease time on that clock. The holder stops
 * at its own deadline (renewal sent + lease time − margin, on its monotonic clock), which comes
 * before any observer's take-over: an observer sees a renewal at or after the instant it was written.
 *
 * Each change of holder makes the lease's token greater (a renewal keeps it): the holder's fencing
 * token (fencing/), which the stores that check it use to refuse anything a former holder still sends.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { ConflictError, type DocumentStore } from '../documents/port';
import type { Fence } from '../fencing';

export const LEASES_COLLECTION = 'leases';

export interface LeaseDoc {
  id: string;
  holder: string;
  /**
   * For operators only, never compared by another process: the holder's clock (ms) at its last
   * renewal plus the lease time; 0 when the holder gave the lease up (then it is free at once).
   */
  expiresAt: number;
  /** The holder's lease time: an observer waits at least this long (or its own, when longer). */
  ttlMs?: number;
  /** Greater at each change of holder, kept by renewals (absent on leases written before tokens: 0). */
  token?: number;
}

/** This process, as a lease holder: host, pid and a random part (pids are reused). */
export function processHolderId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/**
 * The clock of leases: monotonic (performance.now, which neither jumps with NTP nor goes back) and
 * offset to read like the wall clock, so that `expiresAt` means something to an operator. Only its
 * elapsed time decides anything; a test's shifted or pinned business clock never enters it.
 */
export const leaseClock = (): number => Math.round(performance.timeOrigin + performance.now());

export interface LeaseSettings {
  name: string;
  holder: string;
  ttlMs: number;
  /** this process's clock for elapsed time (ms, never going back); default `leaseClock` (tests inject one) */
  now?: () => number;
}

/** What one ask of the lease found. */
export interface LeaseAttempt {
  /** whether this holder holds the lease afterwards */
  held: boolean;
  /** when held: the holder's fencing token, the same for as long as it keeps the lease */
  token: number;
  /** the revision of the lease document seen when refused (another holder's), else null */
  revision: number | null;
  /** when refused: how long until the revision seen, if still unchanged, may be taken over (ms) */
  ripeInMs: number;
}

/** The revision of a lease another holder wrote, and when this holder first saw it (its own clock). */
interface Observation {
  revision: number;
  seenAt: number;
}

/**
 * What each holder has seen of the leases it does not hold, per store (a store opened anew knows
 * nothing and waits a whole lease time, as a process that just started must).
 */
const observations = new WeakMap<DocumentStore, Map<string, Observation>>();

function observationsOf(documents: DocumentStore): Map<string, Observation> {
  let seen = observations.get(documents);
  if (!seen) {
    seen = new Map();
    observations.set(documents, seen);
  }
  return seen;
}

/**
 * Takes the lease when it is free (absent or given up) or when its holder has not renewed it for a
 * whole lease time as this holder's clock saw it, or renews it when held. Call it again and again to
 * take over a dead holder's lease: a single call only starts watching it.
 */
export async function attemptLease(documents: DocumentStore, settings: LeaseSettings): Promise<LeaseAttempt> {
  const leases = documents.collection<LeaseDoc>(LEASES_COLLECTION);
  const seen = observationsOf(documents);
  const key = `${settings.name}\u0000${settings.holder}`;
  const current = await leases.getWithRevision(settings.name);
  // read after the document: the revision seen was written at or before this instant, never after
  const now = (settings.now ?? leaseClock)();
  if (current && current.doc.holder !== settings.holder && current.doc.expiresAt !== 0) {
    const waitMs = Math.max(settings.ttlMs, current.doc.ttlMs ?? 0);
    const observed = seen.get(key);
    if (observed?.revision !== current.revision) {
      seen.set(key, { revision: current.revision, seenAt: now });
      return { held: false, token: 0, revision: current.revision, ripeInMs: waitMs };
    }
    const elapsed = now - observed.seenAt;
    if (elapsed < waitMs)
      return { held: false, token: 0, revision: current.revision, ripeInMs: waitMs - elapsed };
    // the same revision for a whole lease time: its holder stopped renewing (dead, or cut off)
  }
  // A renewal keeps the token; a take-over (the lease given up included) takes a greater one: the
  // next, or the wall clock's milliseconds when greater, so that a lease document lost or restored
  // from a backup does not start again below the tokens the stores have already seen (which would
  // fence every holder off). Only growth matters: hosts' clocks need not agree.
  const previousToken = current?.doc.token ?? 0;
  const renewing = current?.doc.holder === settings.holder && current.doc.expiresAt !== 0;
  const token = renewing ? Math.max(1, previousToken) : Math.max(previousToken + 1, Date.now());
  try {
    await leases.put(
      {
        id: settings.name,
        holder: settings.holder,
        expiresAt: Math.max(1, now + settings.ttlMs),
        ttlMs: settings.ttlMs,
        token,
      },
      { expectedRevision: current?.revision ?? 0 },
    );
    seen.delete(key);
    return { held: true, token, revision: null, ripeInMs: 0 };
  } catch (error) {
    // another process took or renewed it first: its new revision is watched from the next ask on
    if (error instanceof ConflictError)
      return { held: false, token: 0, revision: current?.revision ?? null, ripeInMs: settings.ttlMs };
    throw error;
  }
}

/** `attemptLease`, answering only whether the lease is held afterwards. */
export async function tryHoldLease(documents: DocumentStore, settings: LeaseSettings): Promise<boolean> {
  return (await attemptLease(documents, settings)).held;
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
 * effect; and hand `fence()` to every write to a store that checks fences (fencing/), which refuses it
 * once a later holder wrote — also a write already on its way when the process was paused.
 */
export interface HeldLease {
  valid(): boolean;
  /** this holder's fencing token: the same from `start` to the work's stop */
  fence(): Fence;
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
  /** the clock observed leases are timed on (LeaseSettings.now); default `leaseClock` */
  now?: () => number;
  onChange?: (holding: boolean) => void;
  onError?: (error: unknown) => void;
  /** the monotonic clock, ms (tests); default performance.now */
  monotonic?: () => number;
}

export const DEFAULT_LEASE_TTL_MS = 15_000;

/**
 * What a holder keeps off its lease time: its timers may fire late, and another host's clock may run
 * a little faster than its own over one lease time.
 */
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
  // Stryker disable next-line UnaryOperator: nothing reads it before the first renewal sets it
  let validUntil = -Infinity;
  let token = 0;
  const lease: HeldLease = {
    valid: () => !stopped && monotonic() < validUntil,
    fence: () => ({ name: settings.name, token }),
  };

  const loseWork = async () => {
    if (!work) return;
    const running = work;
    work = null;
    await running.stop();
    options.onChange?.(false);
  };

  /** A renewal that does not answer within the lease time counts as a failed one. */
  const renew = async (): Promise<LeaseAttempt> => {
    let giveUp: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        attemptLease(documents, settings),
        new Promise<never>((_, reject) => {
          giveUp = setTimeout(() => reject(new RenewalTimedOut(ttlMs)), ttlMs);
        }),
      ]);
    } finally {
      clearTimeout(giveUp);
    }
  };

  /** Stops the work at the deadline even if the next renewal hangs or the loop is late. */
  const armDeadline = () => {
    clearTimeout(deadlineTimer);
    deadlineTimer = setTimeout(
      () => {
        // a timer may fire a fraction of a millisecond before the monotonic clock reaches its time:
        // then it is set again for the rest, or the work would run on until the renewal gave up
        if (lease.valid()) armDeadline();
        else void loseWork().catch((error: unknown) => options.onError?.(error));
      },
      Math.max(1, Math.ceil(validUntil - monotonic())),
    );
  };

  // when another holds the lease: the next ask comes no later than the instant it could be taken over
  let nextInMs = renewEveryMs;
  const tick = async () => {
    let held = false;
    let heldToken = 0;
    nextInMs = renewEveryMs;
    const sentAt = monotonic();
    try {
      const attempt = await renew();
      held = attempt.held;
      heldToken = attempt.token;
      if (!held) {
        nextInMs = Math.min(renewEveryMs, Math.max(1, Math.ceil(attempt.ripeInMs)));
        // the store says another holds it: no longer valid from now, not from the deadline on (the
        // work may take a while to stop, and must begin nothing more meanwhile)
        validUntil = -Infinity;
      }
    } catch (error) {
      options.onError?.(error); // a store that does not answer: the lease will lapse, stop working
    }
    if (stopped) return;
    // The deadline passed before this renewal (a pause, a late loop): the work may have stopped
    // itself on `valid()`; it is begun again from a clean state rather than left half-stopped. (Not
    // held: its work is lost below anyway.)
    if (sentAt >= validUntil || heldToken !== token) await loseWork();
    if (held) {
      token = heldToken;
      validUntil = sentAt + heldFor;
      armDeadline();
    }
    // not held: the work was lost above (a refusal or a failed renewal leaves no token to run with)
    if (held && !work && lease.valid()) {
      work = await start(lease);
      options.onChange?.(true);
    }
  };
  // called at start, and after each turn unless stopped (stop() clears the timer of the next)
  const schedule = () => {
    turn = tick()
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        if (!stopped) timer = setTimeout(schedule, nextInMs);
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
