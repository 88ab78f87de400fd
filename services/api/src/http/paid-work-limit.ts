/**
 * Searches and report downloads are paid work (an index look-up, a spreadsheet, a browser render):
 * each user may ask for at most so many a minute, whatever its quota, so that one account (or a
 * stolen token) cannot monopolise the portal. Counted per process with express-rate-limit's store.
 */
import { DomainError } from '@rna/domain';
import { MemoryStore, type Options } from 'express-rate-limit';
import type { ApiDeps } from './deps';

export const DEFAULT_PAID_REQUESTS_PER_MINUTE = 60;
const WINDOW_MS = 60_000;

/** Too many requests for now: 429 with Retry-After (the error handler sets the header). */
export class RetryLaterError extends DomainError {
  constructor(public readonly retryAfterSeconds: number) {
    super('Q001');
  }
}

const stores = new WeakMap<ApiDeps, MemoryStore>();

function storeOf(deps: ApiDeps): MemoryStore {
  let store = stores.get(deps);
  if (!store) {
    store = new MemoryStore();
    store.init({ windowMs: WINDOW_MS } as Options);
    stores.set(deps, store);
  }
  return store;
}

/** Counts one paid request of the user; RetryLaterError past the limit of the minute. */
export async function countPaidRequest(deps: ApiDeps, userId: string): Promise<void> {
  const limit = deps.paidRequestsPerMinute ?? DEFAULT_PAID_REQUESTS_PER_MINUTE;
  const { totalHits, resetTime } = await storeOf(deps).increment(userId);
  if (totalHits > limit) {
    const waitMs = resetTime ? resetTime.getTime() - Date.now() : WINDOW_MS;
    throw new RetryLaterError(Math.max(1, Math.ceil(waitMs / 1000)));
  }
}
