/**
 * The search allowance of a client, decided on the `quota-<clientId>` stream alone (ARCHITECTURE:
 * the one strongly consistent decision). evolveQuota folds the stream's events; decideSearch and
 * decideReportDownload say whether a search may run now and what it costs.
 *
 * Costs are carried by SearchPerformed only. A report download that is not free should be recorded as
 * SearchPerformed (with its cost) followed by ReportDownloaded, so every reader sums costs one way.
 */
import type { QuotaEvent, SearchRequest } from './events';
import { romeDay } from './dates';
import { splitTaxCodes } from './tax-codes';

export interface QuotaState {
  availableYearlySearches: number;
  remainingSearches: number;
  /** epoch ms; null until an allowance is granted (no access yet) */
  endDate: number | null;
  /**
   * Searches performed on the most recent calendar day (Rome) seen in the stream, by searchKey.
   * Only that day matters for "the same search today is free", so older days are dropped
   * to keep the state small however long the stream grows.
   */
  searchesOfDay: { day: string; keys: string[] } | null;
}

export const initialQuotaState: QuotaState = {
  availableYearlySearches: 0,
  remainingSearches: 0,
  endDate: null,
  searchesOfDay: null,
};

export type QuotaDecision = { ok: true; cost: number } | { ok: false; code: 'A002' | 'U004' };

/** The identity of a search: its distinct normalised tax codes, sorted, and both flags. */
export function searchKey(request: SearchRequest): string {
  const codes = splitTaxCodes(request.taxCodes).sort();
  return `${codes.join(',')}|deMinimis=${request.deMinimis}|last3Years=${request.last3Years}`;
}

/** One unit per distinct tax code. */
export function searchCost(request: SearchRequest): number {
  return splitTaxCodes(request.taxCodes).length;
}

function rememberSearch(state: QuotaState, request: SearchRequest, at: string): QuotaState['searchesOfDay'] {
  const ms = Date.parse(at);
  // a stream must always fold: an unreadable timestamp just does not make later repeats free
  if (!Number.isFinite(ms)) return state.searchesOfDay;
  const day = romeDay(ms);
  const key = searchKey(request);
  const current = state.searchesOfDay;
  if (!current || day > current.day) return { day, keys: [key] };
  if (day < current.day || current.keys.includes(key)) return current;
  return { day, keys: [...current.keys, key] };
}

export function evolveQuota(state: QuotaState, event: QuotaEvent): QuotaState {
  switch (event.type) {
    case 'SearchAllowanceGranted':
      return {
        ...state,
        availableYearlySearches: event.data.availableYearlySearches,
        remainingSearches: event.data.remainingSearches,
        endDate: event.data.endDate,
      };
    case 'SearchPerformed':
      return {
        ...state,
        remainingSearches: Math.max(0, state.remainingSearches - event.data.cost),
        searchesOfDay: rememberSearch(state, event.data, event.data.at),
      };
    case 'ReportDownloaded':
      // a report shows a search's results: repeating that search today is free too
      return { ...state, searchesOfDay: rememberSearch(state, event.data, event.data.at) };
    case 'SearchRefused':
      return state;
  }
}

/** Folds a whole stream. */
export function quotaStateOf(events: Iterable<QuotaEvent>): QuotaState {
  let state = initialQuotaState;
  for (const event of events) state = evolveQuota(state, event);
  return state;
}

export function wasSearchedToday(state: QuotaState, request: SearchRequest, now: Date | number): boolean {
  const today = state.searchesOfDay;
  return today !== null && today.day === romeDay(now) && today.keys.includes(searchKey(request));
}

function toEpochMs(instant: Date | number): number {
  return typeof instant === 'number' ? instant : instant.getTime();
}

/**
 * A002 from the end date on (or before any allowance); a search repeated the same Rome day with the
 * same codes and flags costs 0; otherwise one unit per distinct code, and U004 refuses the whole
 * search when it costs more than what remains.
 */
export function decideSearch(state: QuotaState, request: SearchRequest, now: Date | number): QuotaDecision {
  if (state.endDate === null || toEpochMs(now) >= state.endDate) return { ok: false, code: 'A002' };
  if (wasSearchedToday(state, request, now)) return { ok: true, cost: 0 };
  const cost = searchCost(request);
  if (cost > state.remainingSearches) return { ok: false, code: 'U004' };
  return { ok: true, cost };
}

/** A report of a search performed today is free; otherwise it is decided (and charged) like the search. */
export function decideReportDownload(
  state: QuotaState,
  request: SearchRequest,
  now: Date | number,
): QuotaDecision {
  return decideSearch(state, request, now);
}
