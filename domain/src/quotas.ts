/**
 * The search allowance of a client, decided on the `quota-<clientId>` stream alone (ARCHITECTURE:
 * the one strongly consistent decision). evolveQuota folds the stream's events; decideSearch and
 * decideReportDownload say whether a search may run now and what it costs.
 *
 * Costs are carried by SearchPerformed only. A report download that is not free should be recorded as
 * SearchPerformed (with its cost) followed by ReportDownloaded, so every reader sums costs one way.
 */
import { renewedEndDate } from './clients';
import type { Decider } from './decider';
import type {
  Actor,
  DataSource,
  EventOfType,
  QuotaEvent,
  QuotaState,
  ReportKind,
  SearchRequest,
} from './events';
import { romeDay } from './dates';
import { splitTaxCodes } from './tax-codes';

export const initialQuotaState: QuotaState = {
  availableYearlySearches: 0,
  remainingSearches: 0,
  endDate: null,
  lookedUpToday: null,
};

export type QuotaDecision = { ok: true; cost: number } | { ok: false; code: 'A002' | 'U004' };

/** One unit per distinct tax code, before what was looked up today is taken off. */
export function searchCost(request: SearchRequest): number {
  return splitTaxCodes(request.taxCodes).length;
}

function rememberCodes(state: QuotaState, request: SearchRequest, at: string): QuotaState['lookedUpToday'] {
  const ms = Date.parse(at);
  // a stream must always fold: an unreadable timestamp just does not make later look-ups free
  if (!Number.isFinite(ms)) return state.lookedUpToday;
  const day = romeDay(ms);
  const codes = splitTaxCodes(request.taxCodes);
  const current = state.lookedUpToday;
  if (!current || day > current.day) return { day, codes };
  if (day < current.day) return current;
  const added = codes.filter((code) => !current.codes.includes(code));
  return added.length === 0 ? current : { day, codes: [...current.codes, ...added] };
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
        lookedUpToday: rememberCodes(state, event.data, event.data.at),
      };
    case 'ReportDownloaded':
      // a report shows a search's results: its codes were looked up today too
      return { ...state, lookedUpToday: rememberCodes(state, event.data, event.data.at) };
    case 'SearchRefused':
      return state;
    case 'SearchRefunded':
      return { ...state, remainingSearches: state.remainingSearches + event.data.cost };
  }
}

/** Folds a whole stream. */
export function quotaStateOf(events: Iterable<QuotaEvent>): QuotaState {
  let state = initialQuotaState;
  for (const event of events) state = evolveQuota(state, event);
  return state;
}

/** The request's codes not yet looked up on the Rome day of `now`: what the request costs. */
export function codesNewToday(state: QuotaState, request: SearchRequest, now: Date | number): string[] {
  const today = state.lookedUpToday;
  const codes = splitTaxCodes(request.taxCodes);
  if (today === null || today.day !== romeDay(now)) return codes;
  return codes.filter((code) => !today.codes.includes(code));
}

function toEpochMs(instant: Date | number): number {
  return typeof instant === 'number' ? instant : instant.getTime();
}

/**
 * A002 from the end date on (or before any allowance). Otherwise one unit per tax code not yet
 * looked up on the same Rome day — whatever the filters, the data source or the format (screen,
 * Excel, PDF) of the earlier look-up — so a code already looked up today costs nothing again; U004
 * refuses the whole search, charging nothing, when its new codes are more than what remains.
 */
export function decideSearch(state: QuotaState, request: SearchRequest, now: Date | number): QuotaDecision {
  if (state.endDate === null || toEpochMs(now) >= state.endDate) return { ok: false, code: 'A002' };
  const cost = codesNewToday(state, request, now).length;
  if (cost > state.remainingSearches) return { ok: false, code: 'U004' };
  return { ok: true, cost };
}

/** A report is decided (and charged) as its search: free for codes looked up today. */
export function decideReportDownload(
  state: QuotaState,
  request: SearchRequest,
  now: Date | number,
): QuotaDecision {
  return decideSearch(state, request, now);
}

/** What is asked of a client's quota stream. */
export type QuotaCommand =
  /** Limits set by an administrator: recorded as they are given. */
  | { type: 'GrantAllowance'; data: EventOfType<'SearchAllowanceGranted'>['data'] }
  /** "Rinnova": a year more (renewedEndDate) and the full yearly allowance again. */
  | { type: 'RenewAccess'; data: { clientId: string; at: string; by: Actor } }
  /**
   * A client's search or report, charged by decideSearch: a refusal is recorded too (SearchRefused,
   * whose code the caller answers with); a report that is not free is a search first.
   */
  | {
      type: 'ChargeLookUp';
      data: {
        clientId: string;
        by: Actor;
        at: string;
        request: SearchRequest;
        purpose: 'search' | ReportKind;
        dataSource: DataSource;
        /** The rows the client was shown. */
        resultCount: number;
        /** The bulk search job this look-up is the charge of (Ricerca massiva). */
        bulkJobId?: string;
        /** A report's verification code and the organisation it is issued under. */
        report?: IssuedReportStamp;
      };
    };

/** What a verifiable report records of itself when it is issued. */
export interface IssuedReportStamp {
  code: string;
  organisation: string;
}

export type LookUpRecord = Extract<QuotaCommand, { type: 'ChargeLookUp' }>['data'];

/**
 * The events that record a look-up at a cost: a search is a SearchPerformed; a report is a
 * ReportDownloaded, preceded by a SearchPerformed when it cost something. An administrator's look-ups
 * (never charged) are recorded the same way at cost 0.
 */
export function lookUpEvents(lookUp: LookUpRecord, cost: number): QuotaEvent[] {
  const { clientId, by, at, request, purpose, dataSource, resultCount, bulkJobId, report } = lookUp;
  const base = { ...request, clientId, at, by };
  const performed: QuotaEvent = {
    type: 'SearchPerformed',
    data: { ...base, dataSource, resultCount, cost, ...(bulkJobId ? { bulkJobId } : {}) },
  };
  if (purpose === 'search') return [performed];
  const stamp = report ? { reportCode: report.code, organisation: report.organisation } : {};
  const downloaded: QuotaEvent = { type: 'ReportDownloaded', data: { ...base, kind: purpose, ...stamp } };
  return cost > 0 ? [performed, downloaded] : [downloaded];
}

export const quotaDecider: Decider<QuotaCommand, QuotaEvent, QuotaState> = {
  initialState: initialQuotaState,
  evolve: evolveQuota,
  decide(command, state) {
    switch (command.type) {
      case 'GrantAllowance':
        return [{ type: 'SearchAllowanceGranted', data: command.data }];
      case 'RenewAccess': {
        const { clientId, at, by } = command.data;
        return [
          {
            type: 'SearchAllowanceGranted',
            data: {
              clientId,
              availableYearlySearches: state.availableYearlySearches,
              remainingSearches: state.availableYearlySearches,
              endDate: renewedEndDate(state.endDate, Date.parse(at)),
              at,
              by,
            },
          },
        ];
      }
      case 'ChargeLookUp': {
        const { clientId, by, at, request } = command.data;
        // a report is decided as its search (decideReportDownload)
        const decision = decideSearch(state, request, Date.parse(at));
        if (!decision.ok) {
          return [{ type: 'SearchRefused', data: { ...request, clientId, at, by, code: decision.code } }];
        }
        return lookUpEvents(command.data, decision.cost);
      }
    }
  },
};
