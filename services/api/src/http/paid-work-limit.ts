/**
 * Searches and report downloads are paid work (an index look-up, a spreadsheet, a browser render):
 * each user may ask for at most so many a minute, whatever its quota, so that one account (or a
 * stolen token) cannot monopolise the portal. Writes are budgeted the same way, separately: every
 * route that changes something appends to a stream and a read model, and 300 saved searches in
 * 1.7 s from one account added 7 MB to the event store. One API process counts in memory
 * (express-rate-limit's store); several (scale-out) count in the shared document store, one atomic
 * counter per user and minute, so that N replicas do not give a user N budgets.
 */
import { DomainError } from '@rna/domain';
import { MemoryStore, type Options } from 'express-rate-limit';
import type { ApiDeps } from './deps';

/** What counting needs of the API's dependencies. */
type BudgetDeps = Pick<
  ApiDeps,
  'documents' | 'paidRequestsPerMinute' | 'writeRequestsPerMinute' | 'sharedRequestBudgets'
>;

export const DEFAULT_PAID_REQUESTS_PER_MINUTE = 60;
/** Writes (saves, alerts, invitations, logos, settings…) a user may send a minute: far above a person's pace. */
export const DEFAULT_WRITE_REQUESTS_PER_MINUTE = 60;
const WINDOW_MS = 60_000;
/** The shared counters: `<budget>:<userId>:<minute>` → hits. */
export const REQUEST_BUDGETS_COLLECTION = 'request-budgets';

/** Too many requests for now: 429 with Retry-After (the error handler sets the header). */
export class RetryLaterError extends DomainError {
  constructor(public readonly retryAfterSeconds: number) {
    super('Q001');
  }
}

type Budget = 'paid' | 'write';
const stores = {
  paid: new WeakMap<BudgetDeps, MemoryStore>(),
  write: new WeakMap<BudgetDeps, MemoryStore>(),
};

function storeOf(deps: BudgetDeps, budget: Budget): MemoryStore {
  let store = stores[budget].get(deps);
  if (!store) {
    store = new MemoryStore();
    store.init({ windowMs: WINDOW_MS } as Options);
    stores[budget].set(deps, store);
  }
  return store;
}

/** Counts one paid request of the user; RetryLaterError past the limit of the minute. */
export function countPaidRequest(deps: BudgetDeps, userId: string): Promise<void> {
  return count(deps, 'paid', userId, deps.paidRequestsPerMinute ?? DEFAULT_PAID_REQUESTS_PER_MINUTE);
}

/** Counts one write of the user (the router does, for every route that is no GET); Q001 past the minute's budget. */
export function countWriteRequest(deps: BudgetDeps, userId: string): Promise<void> {
  return count(deps, 'write', userId, deps.writeRequestsPerMinute ?? DEFAULT_WRITE_REQUESTS_PER_MINUTE);
}

/**
 * One count in the store shared by the API processes. Minutes are read on each host's clock: a skew
 * between hosts moves where a minute ends, by as much, not the limit within it.
 */
async function sharedIncrement(
  deps: BudgetDeps,
  budget: Budget,
  userId: string,
): Promise<{ totalHits: number; resetTime: Date }> {
  const minute = Math.floor(Date.now() / WINDOW_MS);
  const counters = deps.documents.collection<{ id: string; hits: number }>(REQUEST_BUDGETS_COLLECTION);
  const totalHits = await counters.increment(`${budget}:${userId}:${minute}`, 'hits');
  // the first count of a minute drops the user's minute before: one counter a user at most is kept
  if (totalHits === 1) void counters.delete(`${budget}:${userId}:${minute - 1}`).catch(() => undefined);
  return { totalHits, resetTime: new Date((minute + 1) * WINDOW_MS) };
}

async function count(deps: BudgetDeps, budget: Budget, userId: string, limit: number): Promise<void> {
  const { totalHits, resetTime } = deps.sharedRequestBudgets
    ? await sharedIncrement(deps, budget, userId)
    : await storeOf(deps, budget).increment(userId);
  if (totalHits > limit) {
    const waitMs = resetTime ? resetTime.getTime() - Date.now() : WINDOW_MS;
    throw new RetryLaterError(Math.max(1, Math.ceil(waitMs / 1000)));
  }
}
