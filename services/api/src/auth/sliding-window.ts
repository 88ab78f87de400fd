/**
 * A small in-process sliding-window counter per key (account or IP address), for sign-in
 * throttling. The clock is injected so that the window is testable without waiting.
 */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const kept = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (kept.length) this.hits.set(key, kept);
    else this.hits.delete(key);
    return kept;
  }

  /** true while the key is under its limit. */
  allows(key: string): boolean {
    return this.recent(key).length < this.limit;
  }

  hit(key: string): void {
    this.hits.set(key, [...this.recent(key), this.now()]);
  }

  /** Counts a hit if allowed; false when the key is over its limit. */
  tryHit(key: string): boolean {
    if (!this.allows(key)) return false;
    this.hit(key);
    return true;
  }

  /** Seconds until the oldest hit leaves the window. */
  retryAfterSeconds(key: string): number {
    const oldest = this.recent(key)[0];
    return oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
  }

  clear(key: string): void {
    this.hits.delete(key);
  }
}
