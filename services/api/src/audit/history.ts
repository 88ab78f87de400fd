/**
 * The audit of a client's searches: a replay of `quota-<clientId>` listing every search, download,
 * refusal and allowance change with who and when, and the remaining searches as of any instant.
 */
import { evolveQuota, initialQuotaState, streams, type Actor, type QuotaEvent } from '@rna/domain';
import type { EventStore, RecordedEvent } from '@rna/infra';

export type AuditEntryKind = 'ALLOWANCE' | 'SEARCH' | 'DOWNLOAD' | 'REFUSAL';

export interface AuditEntry {
  /** position in the quota stream */
  version: number;
  kind: AuditEntryKind;
  /** ms */
  at: number;
  by: Actor;
  taxCodes: string[];
  deMinimis: boolean | null;
  last3Years: boolean | null;
  dataSource: 'ARCHIVE' | 'LIVE' | null;
  resultCount: number | null;
  cost: number;
  /** 'sheet' | 'pdf' for downloads, 'A002' | 'U004' for refusals */
  detail: string | null;
  /** remaining searches right after this entry */
  remainingSearches: number;
}

export interface ClientAuditHistory {
  clientId: string;
  /** ms; null = now (every event) */
  asOf: number | null;
  entries: AuditEntry[];
  remainingSearches: number;
  availableYearlySearches: number;
  endDate: number | null;
}

function entryOf(event: QuotaEvent): Omit<AuditEntry, 'version' | 'remainingSearches'> {
  const base = { at: Date.parse(event.data.at), by: event.data.by };
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
        detail: `${event.data.remainingSearches}/${event.data.availableYearlySearches} fino al ${new Date(event.data.endDate).toISOString()}`,
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
  }
}

/** Pure replay; events after `asOf` (ms) are left out. */
export function replayQuotaHistory(
  clientId: string,
  events: readonly RecordedEvent[],
  asOf: number | null = null,
): ClientAuditHistory {
  let state = initialQuotaState;
  const entries: AuditEntry[] = [];
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as QuotaEvent;
    const entry = entryOf(event);
    if (asOf !== null && entry.at > asOf) break;
    state = evolveQuota(state, event);
    entries.push({ ...entry, version: recorded.streamVersion, remainingSearches: state.remainingSearches });
  }
  return {
    clientId,
    asOf,
    entries,
    remainingSearches: state.remainingSearches,
    availableYearlySearches: state.availableYearlySearches,
    endDate: state.endDate,
  };
}

export async function clientAuditHistory(
  eventStore: EventStore,
  clientId: string,
  asOf: number | null = null,
): Promise<ClientAuditHistory> {
  const { events } = await eventStore.readStream(streams.quota(clientId));
  return replayQuotaHistory(clientId, events, asOf);
}

/** An administrator's searches and downloads (its audit stream: never charged, always recorded). */
export async function userAuditHistory(
  eventStore: EventStore,
  userId: string,
  asOf: number | null = null,
): Promise<ClientAuditHistory> {
  const { events } = await eventStore.readStream(streams.audit(userId));
  return replayQuotaHistory(userId, events, asOf);
}

/** An administrator's id from its email (UserRegistered), found in the event store itself. */
export async function findAdminIdByEmail(eventStore: EventStore, email: string): Promise<string | null> {
  const wanted = email.trim().toLowerCase();
  for (let after = 0; ;) {
    const page = await eventStore.readAll({ after, maxCount: 1000 });
    if (page.length === 0) return null;
    for (const event of page) {
      const data = event.data as { userId?: string; email?: string; role?: string };
      if (event.type === 'UserRegistered' && data.role === 'ADMIN' && data.email?.toLowerCase() === wanted)
        return data.userId ?? null;
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
      const data = event.data as { clientId?: string; email?: string };
      if (event.type === 'ClientInvited' && data.email?.toLowerCase() === wanted && data.clientId)
        found = data.clientId;
      if (event.type === 'ClientRemoved' && data.clientId === found) found = null;
    }
    after = page[page.length - 1]?.globalPosition ?? after;
  }
}
