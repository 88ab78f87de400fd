/**
 * HTTP client of the register's live look-up. The register asks callers to pause `sleep` seconds
 * between requests, so requests go through one queue; answers are cached per tax code for a short
 * while; every look-up ends within its budget (an answer or LiveRegisterUnavailableError, never a hang).
 */
import type { AidRecord } from '@rna/domain';
import { liveRecordToAid, type LiveAidRecord } from './mapping';
import { LiveRegisterUnavailableError, type LiveRegister } from './port';

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
  /** Whole look-up, queue wait included; below the API's 30 s request budget. */
  budgetMs?: number;
  cacheTtlMs?: number;
  /** Pause between requests until the register states its own `sleep`. */
  defaultPauseMs?: number;
  /** Upper bound on the register's `sleep`, in case it asks for something absurd. */
  maxPauseMs?: number;
  now?: () => number;
}

interface CacheEntry {
  expiresAt: number;
  records: AidRecord[];
}

export function liveLookupBody(taxCode: string): string {
  const form = new URLSearchParams();
  form.set('values[cfBen]', taxCode);
  form.set('values[count]', '1');
  for (const filter of EMPTY_FILTERS) form.set(`values[${filter}]`, '');
  return form.toString();
}

export class HttpLiveRegister implements LiveRegister {
  private readonly url: string;
  private readonly budgetMs: number;
  private readonly cacheTtlMs: number;
  private readonly maxPauseMs: number;
  private readonly now: () => number;
  private pauseMs: number;
  private nextSlotAt = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<AidRecord[]>>();

  constructor(options: HttpLiveRegisterOptions) {
    this.url = new URL(LIVE_LOOKUP_PATH, options.baseUrl).toString();
    this.budgetMs = options.budgetMs ?? 25_000;
    this.cacheTtlMs = options.cacheTtlMs ?? 10 * 60_000;
    this.pauseMs = options.defaultPauseMs ?? 1_000;
    this.maxPauseMs = options.maxPauseMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  lookup(taxCode: string): Promise<AidRecord[]> {
    const cached = this.cache.get(taxCode);
    if (cached && cached.expiresAt > this.now()) return Promise.resolve(cached.records);
    const running = this.inFlight.get(taxCode);
    if (running) return running;
    const lookup = this.queuedFetch(taxCode).finally(() => this.inFlight.delete(taxCode));
    this.inFlight.set(taxCode, lookup);
    return lookup;
  }

  private queuedFetch(taxCode: string): Promise<AidRecord[]> {
    const deadline = Date.now() + this.budgetMs;
    let abandoned = false;
    const turn = this.queue.then(async () => {
      if (abandoned) throw new LiveRegisterUnavailableError('Look-up abandoned');
      const wait = Math.max(0, this.nextSlotAt - Date.now());
      // Waiting for the register's pause would blow the budget: say so now rather than hang.
      if (Date.now() + wait >= deadline) {
        throw new LiveRegisterUnavailableError('The register asks to wait longer than the request allows');
      }
      if (wait > 0) await delay(wait);
      try {
        return await this.fetchRecords(taxCode, deadline);
      } finally {
        this.nextSlotAt = Date.now() + this.pauseMs;
      }
    });
    this.queue = turn.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abandoned = true;
        reject(new LiveRegisterUnavailableError('The register did not answer in time'));
      }, this.budgetMs);
    });
    return Promise.race([turn, budget]).finally(() => clearTimeout(timer));
  }

  private async fetchRecords(taxCode: string, deadline: number): Promise<AidRecord[]> {
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
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
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
    const records = (answer.data as LiveAidRecord[])
      .filter((record) => record !== null && typeof record === 'object')
      .map((record) => liveRecordToAid(record, taxCode));
    this.cache.set(taxCode, { expiresAt: this.now() + this.cacheTtlMs, records });
    return records;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
