/**
 * The look-up behind GET /documents and both reports: validate the request, pick the data source,
 * meter a CLIENT on its quota stream, find the aids, and shape rows, totals and the 36-month series.
 */
import type { Logger } from 'pino';
import {
  allowanceFigures,
  documentTotals,
  DomainError,
  isDeMinimisProcedure,
  lookUpEvents,
  assertOnlyFixedTaxCode,
  parseSearchTaxCodes,
  summariesByCode,
  threeYearsAgo,
  type Actor,
  type AidRecord,
  type BeneficiaryRow,
  type CodeSourceDto,
  type DataSource,
  type IssuedReportStamp,
  LIVE_MISSING_FIELDS,
  type ReportKind,
  streams,
  type SearchRequest,
  type SearchResultDto,
} from '@rna/domain';
import type { AidIndex, EventStore } from '@rna/infra';
import {
  LiveRegisterUnavailableError,
  type LiveAnswer,
  type LivePaced,
  type LiveRegister,
} from '@rna/infra/register-live';
import { dataSourceForSearch, dataSourceOf } from '../data-source/settings';
import type { AidLookups } from './aid-lookups';
import { lookUpOf, metered, type MeteringContext } from './quota-metering';
import { aidToRow, newestFirst } from './rows';

/** Below the 30 s request budget, with room for the rest of the answer. */
export const DEFAULT_LIVE_BUDGET_MS = 20_000;

export interface SearchDeps {
  eventStore: EventStore;
  aidIndex: AidIndex;
  clock: () => Date;
  liveRegister?: LiveRegister;
  /** When the archive was last synchronised (ms), null = never. */
  archiveLastUpdate?: () => Promise<number | null>;
  /** How long a live search may wait for the register before answering from the archive (ms). */
  liveBudgetMs?: number;
  /** Where a G007 (register unreachable) is logged with its cause. */
  logger?: Pick<Logger, 'warn'>;
  /** The archive's recent look-ups (./aid-lookups): a search's Excel and PDF reuse its aids. */
  aidLookups?: AidLookups;
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

/** Every aid of the searched codes, and where each code's aids come from. */
export interface FoundAids {
  aids: AidRecord[];
  sources: CodeSourceDto[];
}

/**
 * Every aid of the searched codes, whatever the display filters: the de minimis allowance left is a
 * property of the company, computed from all its de minimis aids (searchResult applies the filters
 * to the table and the first three cards only).
 */
export async function findAids(
  deps: SearchDeps,
  request: SearchRequest,
  source: DataSource,
  archiveAsOf: number | null,
): Promise<FoundAids> {
  const fromArchive = (taxCode: string): CodeSourceDto => ({ taxCode, source: 'ARCHIVE', asOf: archiveAsOf });
  if (source === 'ARCHIVE') {
    const lookUp = (taxCodes: string[]) => deps.aidIndex.search({ taxCodes });
    return {
      aids: deps.aidLookups
        ? await deps.aidLookups.archiveAids(request.taxCodes, lookUp)
        : await lookUp(request.taxCodes),
      sources: request.taxCodes.map(fromArchive),
    };
  }
  return findLiveAids(deps, request.taxCodes, archiveAsOf);
}

/**
 * Live mode: every code the register can answer before the budget runs out comes live; the others
 * (the register paces its callers, or did not answer) come from the archive at once, saying so.
 * G007 only when the register failed and there is no archive to fall back on.
 * Nothing here goes through aidLookups: the live client already keeps each code's answer for the
 * rest of the day, and which codes fall back on the archive changes from one request to the next
 * (a code paced during the search may be answered live by its report), so the archive's part is
 * looked up each time; it is the rarer path (a code the register could not answer yet).
 */
async function findLiveAids(
  deps: SearchDeps,
  taxCodes: string[],
  archiveAsOf: number | null,
): Promise<FoundAids> {
  const live = deps.liveRegister;
  const deadline = Date.now() + (deps.liveBudgetMs ?? DEFAULT_LIVE_BUDGET_MS);
  type CodeAnswer = { taxCode: string } & (
    { answer: LiveAnswer | LivePaced } | { failure: LiveRegisterUnavailableError }
  );
  const answers = await Promise.all(
    taxCodes.map(async (taxCode): Promise<CodeAnswer> => {
      if (!live) return { taxCode, failure: new LiveRegisterUnavailableError('No live register configured') };
      try {
        return { taxCode, answer: await live.lookup(taxCode, deadline) };
      } catch (error) {
        if (!(error instanceof LiveRegisterUnavailableError)) throw error;
        return { taxCode, failure: error };
      }
    }),
  );
  const failed = answers.flatMap((a) => ('failure' in a ? [a] : []));
  if (failed[0]) {
    // the operator needs to know why the register did not answer, whatever the user is shown
    deps.logger?.warn(
      { err: failed[0].failure, taxCodes: failed.map((a) => a.taxCode) },
      'live register unavailable',
    );
    if (archiveAsOf === null) throw new DomainError('G007');
  }
  const aids: AidRecord[] = [];
  const sources: CodeSourceDto[] = [];
  const fromArchive: string[] = [];
  for (const found of answers) {
    if ('answer' in found && found.answer.kind === 'ANSWERED') {
      aids.push(...found.answer.records);
      sources.push({
        taxCode: found.taxCode,
        source: 'LIVE',
        asOf: found.answer.answeredAt,
        missingFields: [...LIVE_MISSING_FIELDS],
      });
    } else {
      fromArchive.push(found.taxCode);
      sources.push({
        taxCode: found.taxCode,
        source: 'ARCHIVE',
        asOf: archiveAsOf,
        liveFallback: 'failure' in found ? 'UNAVAILABLE' : 'PACED',
      });
    }
  }
  if (fromArchive.length > 0 && archiveAsOf !== null) {
    aids.push(...(await deps.aidIndex.search({ taxCodes: fromArchive })));
  }
  return { aids: aids.sort(newestFirst), sources };
}

const deMinimisRowsOf = (aids: readonly AidRecord[]): BeneficiaryRow[] =>
  aids.map((aid) => ({
    dataConcessione: aid.dataConcessione,
    elementoDiAiutoCents: aid.elementoDiAiutoCents,
    isDeMinimis: isDeMinimisProcedure(aid.codProcedimento, aid.desProcedimento),
    codiceFiscaleBeneficiario: aid.codiceFiscaleBeneficiario,
    denominazioneBeneficiario: aid.denominazioneBeneficiario,
  }));

/**
 * The answer to a search from every aid of its codes: the table and the first three cards follow
 * the display filters (de minimis only, last 3 years); the de minimis series and the allowance left
 * never do, so the same company shows the same remaining figure however it is filtered, on screen,
 * in Excel and in the PDF.
 */
export function searchResult(
  request: SearchRequest,
  source: DataSource,
  { aids: allAids, sources }: FoundAids,
  now: Date,
  lastUpdate: number | null,
  /** the codes are a group counted as one undertaking (impresa unica): its allowance is one */
  oneUndertaking = false,
): SearchResultDto {
  const shown = allAids.filter(matchesFlags(request, request.last3Years ? threeYearsAgo(now) : undefined));
  const everyAid = deMinimisRowsOf(allAids);
  const shownRows = deMinimisRowsOf(shown);
  // the ceiling is per undertaking: unrelated companies are never added up (domain de-minimis.ts)
  const allowance = allowanceFigures(request.taxCodes, everyAid, now, oneUndertaking);
  return {
    taxCodes: request.taxCodes,
    deMinimis: request.deMinimis,
    last3Years: request.last3Years,
    dataSource: source,
    lastUpdate: source === 'LIVE' ? -1 : lastUpdate,
    rows: shown.map(aidToRow),
    sources,
    stats: { ...documentTotals(shownRows, now), remainingDeMinimis: allowance.remainingDeMinimis },
    perCode: summariesByCode(request.taxCodes, shownRows, everyAid, now),
    deMinimisSeries: allowance.deMinimisSeries,
    deMinimisOf: allowance.deMinimisOf,
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
  /** the codes are one of the user's groups, counted as one undertaking */
  oneUndertaking = false,
): Promise<SearchResultDto> {
  // the audit records what the client was shown: the rows after the display filters
  const { result, remainingSearches } = await performLookUp(
    deps,
    searcher,
    request,
    purpose,
    (found, source, now, archiveAsOf) =>
      searchResult(request, source, found, now, archiveAsOf, oneUndertaking),
    (shown) => shown.rows.length,
  );
  return remainingSearches === undefined ? result : { ...result, remainingSearches };
}

/**
 * Any look-up of tax codes that is charged like a search (the search, its reports, the de minimis
 * headroom): checks who may look the codes up, picks the data source, finds every aid of the codes
 * and shapes the answer with `shape`; a CLIENT is metered on its quota stream (decided with the
 * answer, `shownCount` of it audited), an ADMIN audited on its own stream, never charged.
 */
export async function performLookUp<T>(
  deps: SearchDeps,
  searcher: Searcher,
  request: SearchRequest,
  purpose: 'search' | ReportKind,
  shape: (found: FoundAids, source: DataSource, now: Date, archiveAsOf: number | null) => T,
  shownCount: (answer: T) => number,
  /** a report's verification stamp, recorded with its download */
  report?: IssuedReportStamp,
): Promise<{ result: T; remainingSearches?: number }> {
  assertMaySearch(searcher, request);
  const now = deps.clock();
  const source = dataSourceOf(await dataSourceForSearch(deps.eventStore));
  // live mode falls back on the archive for the codes the register cannot answer in time
  const archiveAsOf = deps.archiveLastUpdate ? await deps.archiveLastUpdate() : null;
  const answer = async () =>
    shape(await findAids(deps, request, source, archiveAsOf), source, now, archiveAsOf);
  const ctx: MeteringContext = {
    eventStore: deps.eventStore,
    clientId: searcher.actor.userId,
    actor: searcher.actor,
    request,
    now,
  };
  if (searcher.actor.role !== 'CLIENT') {
    // Not metered, but audited all the same: an administrator's look-ups go to its own audit stream.
    const result = await answer();
    const audited = lookUpEvents(
      lookUpOf(ctx, { purpose, dataSource: source, ...(report ? { report } : {}) }, shownCount(result)),
      0,
    );
    await deps.eventStore.appendToStream(streams.audit(searcher.actor.userId), audited, {
      expectedVersion: 'any',
    });
    return { result };
  }
  const { result, remainingSearches } = await metered(
    ctx,
    { purpose, dataSource: source, ...(report ? { report } : {}) },
    answer,
    shownCount,
  );
  return { result, remainingSearches };
}
