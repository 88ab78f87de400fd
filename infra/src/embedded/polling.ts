/** Small timing helpers shared by the polling consumers of the embedded adapters. */

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
