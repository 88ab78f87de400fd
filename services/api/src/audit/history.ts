/**
 * The audit of a client's searches: a replay of `quota-<clientId>` listing every search, download,
 * refusal and allowance change with who and when, and the remaining searches as of any instant.
 */
import {
  evolveQuota,
  initialQuotaState,
  isEventOf,
  streams,
  type AuditEntryDto,
  type AuditHistoryDto,
  type QuotaEvent,
  type StreamName,
} from '@rna/domain';
import { streamPages, type EventStore } from '@rna/infra';

export type { AuditEntryKind } from '@rna/domain';
export type AuditEntry = AuditEntryDto;
export type ClientAuditHistory = AuditHistoryDto;

function entryOf(event: QuotaEvent): Omit<AuditEntry, 'version' | 'remainingSearches'> {
  const base = { at: Date.parse(event.data.at), by: event.data.by, allowance: null };
  switch (event.type) {
    case 'SearchAllowanceGranted':
      return {
        ...base,
        kind: 'ALLOWANCE',
        taxCodes: [],
        deMinimis: null,
        last3Years: null,
        dataSource: null,
        resultCount: null,
        cost: 0,
        detail: null,
        allowance: {
          remainingSearches: event.data.remainingSearches,
          availableYearlySearches: event.data.availableYearlySearches,
          endDate: event.data.endDate,
        },
      };
    case 'SearchPerformed':
      return {
        ...base,
        kind: 'SEARCH',
        taxCodes: event.data.taxCodes,
        deMinimis: event.data.deMinimis,
        last3Years: event.data.last3Years,
        dataSource: event.data.dataSource,
        resultCount: event.data.resultCount,
        cost: event.data.cost,
        detail: null,
      };
    case 'ReportDownloaded':
      return {
        ...base,
        kind: 'DOWNLOAD',
        taxCodes: event.data.taxCodes,
        deMinimis: event.data.deMinimis,
        last3Years: event.data.last3Years,
        dataSource: null,
        resultCount: null,
        cost: 0,
        detail: event.data.kind,
      };
    case 'SearchRefused':
      return {
        ...base,
        kind: 'REFUSAL',
        taxCodes: event.data.taxCodes,
        deMinimis: event.data.deMinimis,
        last3Years: event.data.last3Years,
        dataSource: null,
        resultCount: null,
        cost: 0,
        detail: event.data.code,
      };
    case 'SearchRefunded':
      // a negative cost: the searches given back
      return {
        ...base,
        kind: 'REFUND',
        taxCodes: [],
        deMinimis: null,
        last3Years: null,
        dataSource: null,
        resultCount: null,
        cost: -event.data.cost,
        detail: event.data.reason,
      };
  }
}

/**
 * Which entries of a history to list: `limit` entries from stream version `from`, granted at or after
 * `since` (ms; the state still counts every earlier event). Oldest first by default; newest first
 * (`order: 'desc'`, as an auditor reads it) `from` is the newest version to list (default: the last).
 */
export interface HistoryPage {
  from?: number;
  limit?: number;
  since?: number | null;
  order?: 'asc' | 'desc';
}

export const DEFAULT_HISTORY_PAGE = 500;
export const MAX_HISTORY_PAGE = 1_000;

/**
 * A replay of a quota or audit stream, read page by page so that a history of any length is folded
 * in bounded memory: the state (remaining searches...) is the one after every event up to `asOf`;
 * only the entries of the requested page are kept.
 */
async function replayHistory(
  eventStore: EventStore,
  stream: StreamName<QuotaEvent>,
  id: string,
  asOf: number | null,
  page: HistoryPage,
): Promise<ClientAuditHistory> {
  const newestFirst = page.order === 'desc';
  const from = newestFirst ? (page.from ?? Number.POSITIVE_INFINITY) : Math.max(0, page.from ?? 0);
  const limit = Math.min(Math.max(1, page.limit ?? DEFAULT_HISTORY_PAGE), MAX_HISTORY_PAGE);
  const since = page.since ?? null;
  let state = initialQuotaState;
  // oldest first: the first `limit` entries from `from`; newest first: the last `limit` up to `from`,
  // trimmed now and then so that memory stays bounded by the page, not the history
  let entries: AuditEntry[] = [];
  let totalEntries = 0;
  let onPageSide = 0;
  replay: for await (const events of streamPages(eventStore, stream)) {
    for (const event of events) {
      const entry = entryOf(event);
      if (asOf !== null && entry.at > asOf) break replay;
      state = evolveQuota(state, event);
      if (since !== null && entry.at < since) continue;
      totalEntries += 1;
      if (newestFirst ? event.streamVersion > from : event.streamVersion < from) continue;
      onPageSide += 1;
      if (!newestFirst && entries.length >= limit) continue;
      entries.push({ ...entry, version: event.streamVersion, remainingSearches: state.remainingSearches });
      if (entries.length >= 2 * limit) entries = entries.slice(-limit);
    }
  }
  if (newestFirst) entries = entries.slice(-limit).reverse();
  const last = entries[entries.length - 1];
  return {
    clientId: id,
    asOf,
    entries,
    totalEntries,
    nextFrom: last && onPageSide > entries.length ? last.version + (newestFirst ? -1 : 1) : null,
    remainingSearches: state.remainingSearches,
    availableYearlySearches: state.availableYearlySearches,
    endDate: state.endDate,
  };
}

export function clientAuditHistory(
  eventStore: EventStore,
  clientId: string,
  asOf: number | null = null,
  page: HistoryPage = {},
): Promise<ClientAuditHistory> {
  return replayHistory(eventStore, streams.quota(clientId), clientId, asOf, page);
}

/** An administrator's searches and downloads (its audit stream: never charged, always recorded). */
export function userAuditHistory(
  eventStore: EventStore,
  userId: string,
  asOf: number | null = null,
  page: HistoryPage = {},
): Promise<ClientAuditHistory> {
  return replayHistory(eventStore, streams.audit(userId), userId, asOf, page);
}

/**
 * The address a client was invited with, or an administrator registered with (the first event of its
 * stream): how the Excel names whose history it is. null when the stream is unknown.
 */
export async function subjectEmail(
  eventStore: EventStore,
  kind: 'client' | 'user',
  id: string,
): Promise<string | null> {
  if (kind === 'client') {
    const [first] = (await eventStore.readStream(streams.client(id), { maxCount: 1 })).events;
    return first?.type === 'ClientInvited' ? first.data.email : null;
  }
  const [first] = (await eventStore.readStream(streams.user(id), { maxCount: 1 })).events;
  return first?.type === 'UserRegistered' ? first.data.email : null;
}

/** An administrator's id from its email (UserRegistered), found in the event store itself. */
export async function findAdminIdByEmail(eventStore: EventStore, email: string): Promise<string | null> {
  const wanted = email.trim().toLowerCase();
  for (let after = 0; ;) {
    const page = await eventStore.readAll({ after, maxCount: 1000 });
    if (page.length === 0) return null;
    for (const event of page) {
      if (!isEventOf('user', event) || event.type !== 'UserRegistered') continue;
      if (event.data.role === 'ADMIN' && event.data.email.toLowerCase() === wanted) return event.data.userId;
    }
    after = page[page.length - 1]?.globalPosition ?? after;
  }
}

/** A client's id from its email, found in the event store itself (ClientInvited), newest invitation wins. */
export async function findClientIdByEmail(eventStore: EventStore, email: string): Promise<string | null> {
  const wanted = email.trim().toLowerCase();
  let found: string | null = null;
  for (let after = 0; ;) {
    const page = await eventStore.readAll({ after, maxCount: 1000 });
    if (page.length === 0) return found;
    for (const event of page) {
      if (!isEventOf('client', event)) continue;
      if (event.type === 'ClientInvited' && event.data.email.toLowerCase() === wanted)
        found = event.data.clientId;
      if (event.type === 'ClientRemoved' && event.data.clientId === found) found = null;
    }
    after = page[page.length - 1]?.globalPosition ?? after;
  }
}

/** Every entry of a history in a date range, a page at a time (the Excel export). */
export async function allHistoryEntries(
  history: (page: HistoryPage) => Promise<ClientAuditHistory>,
  since: number | null,
): Promise<ClientAuditHistory> {
  let result = await history({ since, limit: MAX_HISTORY_PAGE });
  const entries = [...result.entries];
  while (result.nextFrom !== null) {
    result = await history({ since, from: result.nextFrom, limit: MAX_HISTORY_PAGE });
    entries.push(...result.entries);
  }
  return { ...result, entries, nextFrom: null };
}
