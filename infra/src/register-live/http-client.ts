/**
 * HTTP client of the register's live look-up. The register asks callers to pause `sleep` seconds
 * between requests, so look-ups go through one queue at its pace. A caller waits for a code only
 * while its turn can come before the caller's deadline; otherwise it hears PACED at once and the
 * code stays queued. Every answer is kept for the rest of its Rome day (or `cacheTtlMs`), so a code
 * asked in the background is answered live the next time it is searched.
 */
import { romeDay, type AidRecord } from '@rna/domain';
import { liveRecordToAid, type LiveAidRecord } from './mapping';
import { LiveRegisterUnavailableError, type LiveAnswer, type LivePaced, type LiveRegister } from './port';

export const LIVE_LOOKUP_PATH = '/rna/oracle/query/trasparenza/aiuti';
const EMPTY_FILTERS = [
  'ce',
  'car',
  'autc',
  'cor',
  'annoc',
  'annoc2',
  'tipp',
  'titpr',
  'denom',
  'rc',
  'reg',
  'imp',
  'regq',
] as const;

export interface HttpLiveRegisterOptions {
  baseUrl: string;
  /** One request to the register, at most. */
  requestTimeoutMs?: number;
  /** How long an answer is reused, never past its Rome day. */
  cacheTtlMs?: number;
  /** Pause between requests until the register states its own `sleep`. */
  defaultPauseMs?: number;
  /** Upper bound on the register's `sleep`, in case it asks for something absurd. */
  maxPauseMs?: number;
  /** Codes waiting for their turn, at most: more are PACED without being queued. */
  maxQueued?: number;
  /** Business time, for the day an answer belongs to. */
  now?: () => number;
  /** A queued look-up nobody waited for failed: the operator should know why. */
  onBackgroundFailure?: (taxCode: string, error: unknown) => void;
}

interface CacheEntry {
  answeredAt: number;
  records: AidRecord[];
}

interface Waiter {
  deadline: number;
  giveUp: () => void;
}

interface QueuedLookup {
  answer: Promise<LiveAnswer>;
  settle: (outcome: { answer: LiveAnswer } | { error: unknown }) => void;
  waiters: Set<Waiter>;
}

const PACED: LivePaced = { kind: 'PACED' };

export function liveLookupBody(taxCode: string): string {
  const form = new URLSearchParams();
  form.set('values[cfBen]', taxCode);
  form.set('values[count]', '1');
  for (const filter of EMPTY_FILTERS) form.set(`values[${filter}]`, '');
  return form.toString();
}

export class HttpLiveRegister implements LiveRegister {
  private readonly url: string;
  private readonly requestTimeoutMs: number;
  private readonly cacheTtlMs: number;
  private readonly maxPauseMs: number;
  private readonly maxQueued: number;
  private readonly now: () => number;
  private readonly onBackgroundFailure: (taxCode: string, error: unknown) => void;
  private pauseMs: number;
  private nextSlotAt = 0;
  private draining = false;
  /** How long the register took to answer last time: part of when an answer is expected. */
  private lastRequestMs = 0;
  /** The code being asked, or waiting for the register's pause to end, and when it is asked. */
  private current: { taxCode: string; askedAt: number } | null = null;
  private readonly order: string[] = [];
  private readonly queued = new Map<string, QueuedLookup>();
  private readonly cache = new Map<string, CacheEntry>();

  constructor(options: HttpLiveRegisterOptions) {
    this.url = new URL(LIVE_LOOKUP_PATH, options.baseUrl).toString();
    this.requestTimeoutMs = options.requestTimeoutMs ?? 20_000;
    this.cacheTtlMs = options.cacheTtlMs ?? 24 * 60 * 60_000;
    this.pauseMs = options.defaultPauseMs ?? 1_000;
    this.maxPauseMs = options.maxPauseMs ?? 60_000;
    this.maxQueued = options.maxQueued ?? 1_000;
    this.now = options.now ?? Date.now;
    this.onBackgroundFailure = options.onBackgroundFailure ?? (() => undefined);
  }

  async lookup(taxCode: string, deadline: number): Promise<LiveAnswer | LivePaced> {
    const cached = this.cachedAnswer(taxCode);
    if (cached) return cached;
    let lookup = this.queued.get(taxCode);
    if (!lookup) {
      if (this.queued.size >= this.maxQueued) return PACED;
      lookup = this.enqueue(taxCode);
    }
    // Waiting for the register's pause would pass the deadline: say so now rather than make the user wait.
    if (!this.answerable(taxCode, deadline)) return PACED;
    let giveUp!: () => void;
    const givenUp = new Promise<LivePaced>((resolve) => (giveUp = () => resolve(PACED)));
    const waiter: Waiter = { deadline, giveUp };
    const timer = setTimeout(giveUp, Math.max(0, deadline - Date.now()));
    lookup.waiters.add(waiter);
    try {
      return await Promise.race([lookup.answer, givenUp]);
    } finally {
      clearTimeout(timer);
      lookup.waiters.delete(waiter);
    }
  }

  /** Whether the answer to this code can come before the deadline, as the queue stands now. */
  private answerable(taxCode: string, deadline: number): boolean {
    return this.expectedTurnAt(taxCode) + this.lastRequestMs < deadline;
  }

  /**
   * The register states its pause with each answer: callers queued on a hope the new pause denies
   * hear PACED now, not when their deadline passes.
   */
  private releaseHopelessWaiters(): void {
    for (const [taxCode, lookup] of this.queued) {
      for (const waiter of lookup.waiters) {
        if (!this.answerable(taxCode, waiter.deadline)) waiter.giveUp();
      }
    }
  }

  private cachedAnswer(taxCode: string): LiveAnswer | null {
    const entry = this.cache.get(taxCode);
    if (!entry) return null;
    const now = this.now();
    if (now - entry.answeredAt >= this.cacheTtlMs || romeDay(now) !== romeDay(entry.answeredAt)) {
      this.cache.delete(taxCode);
      return null;
    }
    return { kind: 'ANSWERED', records: entry.records, answeredAt: entry.answeredAt };
  }

  private enqueue(taxCode: string): QueuedLookup {
    let settle!: QueuedLookup['settle'];
    const answer = new Promise<LiveAnswer>((resolve, reject) => {
      settle = (outcome) => ('answer' in outcome ? resolve(outcome.answer) : reject(outcome.error));
    });
    answer.catch(() => undefined); // nobody may be waiting any more: not an unhandled rejection
    const lookup: QueuedLookup = { answer, settle, waiters: new Set() };
    this.queued.set(taxCode, lookup);
    this.order.push(taxCode);
    void this.drain();
    return lookup;
  }

  /** When the register is expected to be asked for this code, from the queue ahead of it. */
  private expectedTurnAt(taxCode: string): number {
    const now = Date.now();
    if (this.current?.taxCode === taxCode) return Math.max(now, this.current.askedAt);
    const firstFree = this.current
      ? Math.max(now, this.current.askedAt) + this.pauseMs
      : Math.max(now, this.nextSlotAt);
    return firstFree + Math.max(0, this.order.indexOf(taxCode)) * this.pauseMs;
  }

  /** One look-up at a time, at the register's pace, whether or not anybody still waits for it. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let taxCode = this.order.shift(); taxCode !== undefined; taxCode = this.order.shift()) {
        const lookup = this.queued.get(taxCode);
        this.current = { taxCode, askedAt: Math.max(Date.now(), this.nextSlotAt) };
        try {
          const wait = this.nextSlotAt - Date.now();
          if (wait > 0) await delay(wait);
          const askedAt = Date.now();
          const records = await this.fetchRecords(taxCode);
          this.lastRequestMs = Date.now() - askedAt;
          const answeredAt = this.now();
          this.cache.set(taxCode, { answeredAt, records });
          lookup?.settle({ answer: { kind: 'ANSWERED', records, answeredAt } });
        } catch (error) {
          if (!lookup?.waiters.size) this.onBackgroundFailure(taxCode, error);
          lookup?.settle({ error });
        } finally {
          this.nextSlotAt = Date.now() + this.pauseMs;
          this.queued.delete(taxCode);
          this.current = null;
          this.releaseHopelessWaiters();
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private async fetchRecords(taxCode: string): Promise<AidRecord[]> {
    let body: unknown;
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8',
          'X-Requested-With': 'XMLHttpRequest',
          Accept: 'application/json',
        },
        body: liveLookupBody(taxCode),
        signal: AbortSignal.timeout(this.requestTimeoutMs),
      });
      if (!response.ok)
        throw new LiveRegisterUnavailableError(`The register answered HTTP ${response.status}`);
      body = await response.json();
    } catch (error) {
      if (error instanceof LiveRegisterUnavailableError) throw error;
      throw new LiveRegisterUnavailableError('The register could not be reached', { cause: error });
    }
    const answer = body as { data?: unknown; sleep?: unknown } | null;
    if (!answer || !Array.isArray(answer.data)) {
      throw new LiveRegisterUnavailableError('The register answered without a data list');
    }
    if (typeof answer.sleep === 'number' && answer.sleep >= 0) {
      this.pauseMs = Math.min(answer.sleep * 1000, this.maxPauseMs);
    }
    return (answer.data as LiveAidRecord[])
      .filter((record) => record !== null && typeof record === 'object')
      .map((record) => liveRecordToAid(record, taxCode));
  }
}

/** A pause that does not keep the process alive on its own. */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
