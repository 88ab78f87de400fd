/**
 * The one strongly consistent decision (ARCHITECTURE): may this client search now? Taken on the
 * `quota-<clientId>` stream with optimistic concurrency: read, fold, decide, append with the
 * version read; when another request appended first, read again and decide again.
 */
import {
  DomainError,
  evolveQuota,
  initialQuotaState,
  quotaDecider,
  streams,
  type Actor,
  type DataSource,
  type IssuedReportStamp,
  type LookUpRecord,
  type QuotaCommand,
  type QuotaState,
  type ReportKind,
  type SearchRequest,
} from '@rna/domain';
import { ConcurrencyError, type EventStore } from '@rna/infra';
import { FOLD_PAGE, readFolded, SNAPSHOT_EVERY, type Folded as FoldedStream } from '../http/snapshot-folds';

/** A quota stream folded up to `version`. */
export type Folded = FoldedStream<QuotaState>;

/** Events read at a time: a decision holds at most this many in memory, whatever the stream's length. */
export const QUOTA_PAGE = FOLD_PAGE;
export { SNAPSHOT_EVERY };

/**
 * The client's quota state: from this process's fold, else from the newest snapshot, then the events
 * after it a page at a time — bounded memory and work however many searches the client has made.
 */
export function readQuota(eventStore: EventStore, clientId: string): Promise<Folded> {
  return readFolded(eventStore, {
    stream: streams.quota(clientId),
    snapshots: streams.quotaSnapshots(clientId),
    snapshotType: 'QuotaSnapshotTaken',
    initial: initialQuotaState,
    evolve: evolveQuota,
  });
}

export interface MeteringContext {
  eventStore: EventStore;
  clientId: string;
  actor: Actor;
  request: SearchRequest;
  now: Date;
  /** The Ricerca massiva job the look-up is the charge of: its SearchPerformed names it. */
  bulkJobId?: string;
  /** How long to keep retrying under contention before giving up with G001. */
  budgetMs?: number;
}

export interface Metered<T> {
  result: T;
  remainingSearches: number;
  /** searches charged (0 when every code was looked up earlier that day) */
  cost: number;
}

/** What is looked up for: a search, or a report (with its verification stamp), and from where. */
export interface LookUpKind {
  purpose: 'search' | ReportKind;
  dataSource: DataSource;
  report?: IssuedReportStamp;
}

/** The look-up the context describes, as the quota rules record it. */
export function lookUpOf(ctx: MeteringContext, lookUp: LookUpKind, resultCount: number): LookUpRecord {
  return {
    clientId: ctx.clientId,
    by: ctx.actor,
    at: ctx.now.toISOString(),
    request: ctx.request,
    ...lookUp,
    resultCount,
    ...(ctx.bulkJobId ? { bulkJobId: ctx.bulkJobId } : {}),
  };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A client's look-up charged by the domain's quotaDecider: decided before the work (a refusal is
 * recorded as SearchRefused and answered with its code, and nothing is looked up), then `perform` runs
 * once and what the decider makes of it (with the rows the client was shown) is appended at the version
 * the decision was read at; a concurrent charge makes the append fail and the decision is taken again.
 */
export async function metered<T>(
  ctx: MeteringContext,
  lookUp: LookUpKind,
  perform: () => Promise<T>,
  shownOf: (result: T) => number,
): Promise<Metered<T>> {
  const deadline = Date.now() + (ctx.budgetMs ?? 20_000);
  const charge = (resultCount: number): QuotaCommand => ({
    type: 'ChargeLookUp',
    data: lookUpOf(ctx, lookUp, resultCount),
  });
  let outcome: { value: T } | null = null;
  for (let attempt = 0; ; attempt += 1) {
    const { version, state } = await readQuota(ctx.eventStore, ctx.clientId);
    const expectedVersion = version === -1 ? ('no_stream' as const) : version;
    const stream = streams.quota(ctx.clientId);
    try {
      const refused = quotaDecider.decide(charge(0), state).find((e) => e.type === 'SearchRefused');
      if (refused) {
        await ctx.eventStore.appendToStream(stream, [refused], { expectedVersion });
        throw new DomainError(refused.data.code);
      }
      outcome ??= { value: await perform() };
      const decided = quotaDecider.decide(charge(shownOf(outcome.value)), state);
      await ctx.eventStore.appendToStream(stream, decided, { expectedVersion });
      const cost = decided.reduce((sum, e) => sum + (e.type === 'SearchPerformed' ? e.data.cost : 0), 0);
      return {
        result: outcome.value,
        remainingSearches: Math.max(0, state.remainingSearches - cost),
        cost,
      };
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      if (Date.now() > deadline) throw new DomainError('G001', 'Troppe ricerche contemporanee, riprovare');
      // Jittered back-off: the losers of a race should not collide again in lockstep.
      await pause(Math.random() * Math.min(50, 2 ** Math.min(attempt, 6)));
    }
  }
}
