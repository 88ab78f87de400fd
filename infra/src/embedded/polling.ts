/** Small timing helpers shared by the polling consumers of the embedded adapters. */
import { isBusyError } from './sqlite';

/**
 * A sleep that can be cut short: consumers wait for the next poll, but an append in this process
 * (or a stop) wakes them at once. A wake-up while nobody waits is remembered for the next wait.
 */
export class Waker {
  private pending: (() => void) | null = null;
  private woken = false;

  wake(): void {
    this.woken = true;
    const resolve = this.pending;
    this.pending = null;
    resolve?.();
  }

  wait(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.pending = null;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.pending = done;
    });
  }
}

export interface RetryPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { initialDelayMs: 100, maxDelayMs: 5000 };

/** Exponential back-off: initial, 2×initial, … capped at max. `attempt` starts at 1. */
export function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  return Math.min(policy.initialDelayMs * 2 ** exponent, policy.maxDelayMs);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Waiters of `caughtUp()`: each resolves once the handled position reaches its target. */
export class CatchUpWaiters {
  private waiters: { target: number; resolve: () => void; reject: (error: Error) => void }[] = [];

  add(target: number): Promise<void> {
    return new Promise((resolve, reject) => this.waiters.push({ target, resolve, reject }));
  }

  settle(handledUpTo: number): void {
    const still: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (handledUpTo >= waiter.target) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }

  rejectAll(error: Error): void {
    for (const waiter of this.waiters) waiter.reject(error);
    this.waiters = [];
  }
}

/**
 * One round of a polling subscription (the event store's subscribeToAll, the message log's consume):
 * what to read, how to hand it over and how to move on. The loop around it is PollingLoop's.
 */
export interface PollingRound<Batch> {
  /** The next batch after the current position, or null when there is none yet. */
  next(): Batch | null;
  /** Hands the batch to the subscriber; a throw is retried with back-off from the same position. */
  handle(batch: Batch): Promise<void>;
  /** The handler succeeded: move the position past the batch. */
  advance(batch: Batch): Promise<void> | void;
  /** Nothing to read: returns how long to sleep (an append in this process or a stop cuts it short). */
  idle(): Promise<number> | number;
  /** A clean stop: the last checkpoint, the lease given back. */
  finish(): Promise<void> | void;
}

export interface PollingLoopSettings {
  /** 'subscription projections' or 'consumer aid-index on aids', for messages. */
  name: string;
  retry: RetryPolicy;
  onHandlerError(attempt: number, retryInMs: number, error: unknown): void;
  /** The store itself failed (e.g. its file vanished): the loop stops rather than crash the process. */
  onFailure(error: unknown): void;
  /**
   * The store's file stayed locked by another connection beyond its busy timeout (a process frozen
   * in the middle of a write): the round is tried again after a back-off, never given up.
   */
  onBusy?(attempt: number, retryInMs: number, error: unknown): void;
  onStopped(): void;
}

/**
 * Catch-up then live, for the embedded adapters: reads a batch, hands it over, moves on; sleeps when
 * there is nothing; retries a failing handler with back-off; starts on a later tick (a handler never
 * runs before subscribe/consume has returned) and tells `caughtUp()` waiters where it got.
 */
export class PollingLoop<Batch> {
  readonly waiters = new CatchUpWaiters();
  private readonly waker = new Waker();
  /** Back-off sleeps are cut short only by stop(), not by new appends. */
  private readonly stopSignal = new Waker();
  private stopping = false;
  private readonly loop: Promise<void>;

  constructor(
    private readonly round: PollingRound<Batch>,
    private readonly settings: PollingLoopSettings,
  ) {
    this.loop = Promise.resolve().then(() => this.run());
  }

  wake(): void {
    this.waker.wake();
  }

  /**
   * Resolves once the round settles the waiters at the head (read now) or beyond; rejects if the loop
   * stops. `reached` says whether the subscriber is there already.
   */
  async caughtUp(head: () => number, reached: (target: number) => boolean): Promise<void> {
    if (this.stopping) throw this.stoppedError();
    const target = head();
    if (reached(target)) return;
    const settled = this.waiters.add(target);
    this.waker.wake();
    return settled;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.waker.wake();
    this.stopSignal.wake();
    await this.loop;
  }

  private stoppedError(): Error {
    return new Error(`${capitalised(this.settings.name)} is stopped`);
  }

  private async run(): Promise<void> {
    const { round, settings } = this;
    let attempt = 0;
    let busyAttempt = 0;
    try {
      while (!this.stopping) {
        let batch: Batch | null;
        try {
          batch = round.next();
          if (batch === null) {
            busyAttempt = 0;
            await this.waker.wait(await round.idle());
            continue;
          }
        } catch (error) {
          if (!isBusyError(error)) throw error;
          busyAttempt += 1;
          const retryInMs = backoffDelay(settings.retry, busyAttempt);
          settings.onBusy?.(busyAttempt, retryInMs, error);
          await this.stopSignal.wait(retryInMs);
          continue;
        }
        busyAttempt = 0;
        try {
          await round.handle(batch);
        } catch (error) {
          attempt += 1;
          const retryInMs = backoffDelay(settings.retry, attempt);
          settings.onHandlerError(attempt, retryInMs, error);
          await this.stopSignal.wait(retryInMs);
          continue;
        }
        attempt = 0;
        try {
          await round.advance(batch);
        } catch (error) {
          // not moved on: the batch is fetched and handled again (handlers are idempotent)
          if (!isBusyError(error)) throw error;
          settings.onBusy?.(1, 0, error);
        }
      }
      await round.finish();
    } catch (error) {
      settings.onFailure(error);
      this.stopping = true;
    } finally {
      this.waiters.rejectAll(this.stoppedError());
      settings.onStopped();
    }
  }
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
