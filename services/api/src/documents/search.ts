/**
 * The look-up behind GET /documents and both reports: validate the request, pick the data source,
 * meter a CLIENT on its quota stream, find the aids, and shape rows, totals and the 36-month series.
 */
import {
  decideReportDownload,
  decideSearch,
  deMinimisSeries,
  documentTotals,
  DomainError,
  isDeMinimisProcedure,
  assertOnlyFixedTaxCode,
  parseSearchTaxCodes,
  threeYearsAgo,
  type Actor,
  type AidRecord,
  type DataSource,
  type ReportKind,
  type SearchRequest,
  type SearchResultDto,
} from '@rna/domain';
import type { AidIndex, EventStore } from '@rna/infra';
import { LiveRegisterUnavailableError, type LiveRegister } from '@rna/infra/register-live';
import { dataSourceForSearch, dataSourceOf } from '../data-source/settings';
import { metered, reportDownloaded, searchPerformed, type MeteringContext } from './quota-metering';
import { aidToRow, newestFirst } from './rows';

export interface SearchDeps {
  eventStore: EventStore;
  aidIndex: AidIndex;
  clock: () => Date;
  liveRegister?: LiveRegister;
  /** When the archive was last synchronised (ms), null = never. */
  archiveLastUpdate?: () => Promise<number | null>;
}

/** Who searches, as far as searching cares. */
export interface Searcher {
  actor: Actor;
  /** A user with a fixed tax code may search only that code. */
  fixedTaxCode: string | null;
}

export interface SearchQuery {
  taxCodes?: string | string[];
  deMinimis?: boolean;
  last3Years?: boolean;
}

/** T001 without tax codes, T002 when one is shorter than 11 characters. */
export function searchRequestFrom(query: SearchQuery): SearchRequest {
  return {
    taxCodes: parseSearchTaxCodes(query.taxCodes),
    deMinimis: query.deMinimis ?? false,
    last3Years: query.last3Years ?? false,
  };
}

function assertMaySearch(searcher: Searcher, request: SearchRequest): void {
  assertOnlyFixedTaxCode(searcher.fixedTaxCode, request.taxCodes);
}

const matchesFlags = (request: SearchRequest, dateFrom: string | undefined) => (aid: AidRecord) =>
  (!dateFrom || aid.dataConcessione >= dateFrom) &&
  (!request.deMinimis || isDeMinimisProcedure(aid.codProcedimento, aid.desProcedimento));

export async function findAids(
  deps: SearchDeps,
  request: SearchRequest,
  source: DataSource,
  now: Date,
): Promise<AidRecord[]> {
  const dateFrom = request.last3Years ? threeYearsAgo(now) : undefined;
  if (source === 'ARCHIVE') {
    return deps.aidIndex.search({ taxCodes: request.taxCodes, dateFrom, deMinimisOnly: request.deMinimis });
  }
  if (!deps.liveRegister) throw new DomainError('G007');
  try {
    const found: AidRecord[] = [];
    // One code after the other: the register's own pause applies between them anyway.
    for (const code of request.taxCodes) found.push(...(await deps.liveRegister.lookup(code)));
    return found.filter(matchesFlags(request, dateFrom)).sort(newestFirst);
  } catch (error) {
    if (error instanceof LiveRegisterUnavailableError) throw new DomainError('G007');
    throw error;
  }
}

export function searchResult(
  request: SearchRequest,
  source: DataSource,
  aids: readonly AidRecord[],
  now: Date,
  lastUpdate: number | null,
): SearchResultDto {
  const deMinimisRows = aids.map((aid) => ({
    dataConcessione: aid.dataConcessione,
    elementoDiAiutoCents: aid.elementoDiAiutoCents,
    isDeMinimis: isDeMinimisProcedure(aid.codProcedimento, aid.desProcedimento),
  }));
  return {
    taxCodes: request.taxCodes,
    deMinimis: request.deMinimis,
    last3Years: request.last3Years,
    dataSource: source,
    lastUpdate: source === 'LIVE' ? -1 : lastUpdate,
    rows: aids.map(aidToRow),
    stats: documentTotals(deMinimisRows, now),
    deMinimisSeries: deMinimisSeries(deMinimisRows, now),
  };
}

/**
 * A search (purpose 'search') or the search behind a report download. A CLIENT is metered:
 * the decision and its event are taken on the quota stream; ADMIN searches are not metered.
 */
export async function performSearch(
  deps: SearchDeps,
  searcher: Searcher,
  request: SearchRequest,
  purpose: 'search' | ReportKind = 'search',
): Promise<SearchResultDto> {
  assertMaySearch(searcher, request);
  const now = deps.clock();
  const source = dataSourceOf(await dataSourceForSearch(deps.eventStore));
  const lastUpdate = source === 'ARCHIVE' && deps.archiveLastUpdate ? await deps.archiveLastUpdate() : null;
  const find = () => findAids(deps, request, source, now);
  if (searcher.actor.role !== 'CLIENT') return searchResult(request, source, await find(), now, lastUpdate);

  const ctx: MeteringContext = {
    eventStore: deps.eventStore,
    clientId: searcher.actor.userId,
    actor: searcher.actor,
    request,
    now,
  };
  const decide = purpose === 'search' ? decideSearch : decideReportDownload;
  const { result, remainingSearches } = await metered(
    ctx,
    (state) => decide(state, request, now),
    find,
    (cost, aids) => {
      if (purpose === 'search') return [searchPerformed(ctx, source, aids.length, cost)];
      // A report that is not free is a search too: charged as one, then recorded as a download.
      const download = reportDownloaded(ctx, purpose);
      return cost > 0 ? [searchPerformed(ctx, source, aids.length, cost), download] : [download];
    },
  );
  return { ...searchResult(request, source, result, now, lastUpdate), remainingSearches };
}
