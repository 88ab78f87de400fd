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
  type LookUpRecord,
  type QuotaCommand,
  type QuotaEvent,
  type QuotaState,
  type ReportKind,
  type SearchRequest,
} from '@rna/domain';
import { ConcurrencyError, type EventStore, type StreamName } from '@rna/infra';

/** A quota stream folded up to `version`. */
export interface Folded {
  version: number;
  state: QuotaState;
}

interface KnownQuota {
  folded: Folded;
  /** the version of the newest snapshot known to exist */
  snapshotVersion: number;
}

/** Folded state per stream, so that a long quota stream is read from where this process left it. */
const foldCache = new WeakMap<EventStore, Map<string, KnownQuota>>();

/** Events read at a time: a decision holds at most this many in memory, whatever the stream's length. */
export const QUOTA_PAGE = 1_000;
/** A process that folded this many events past the newest snapshot writes a new one for the others. */
export const SNAPSHOT_EVERY = 1_000;

const NOTHING_FOLDED: KnownQuota = { folded: { version: -1, state: initialQuotaState }, snapshotVersion: -1 };

/** The newest snapshot of a client's quota (QuotaSnapshotTaken), or null. */
async function latestSnapshot(eventStore: EventStore, clientId: string): Promise<Folded | null> {
  const stream = streams.quotaSnapshots(clientId);
  const { currentVersion } = await eventStore.readStream(stream, { maxCount: 0 });
  if (currentVersion < 0) return null;
  const { events } = await eventStore.readStream(stream, {
    fromVersion: currentVersion,
    maxCount: 1,
  });
  return events[0]?.data ?? null;
}

/** Folds the events after `from`, a page at a time; null when the stream is shorter than `from`. */
async function foldAfter(
  eventStore: EventStore,
  stream: StreamName<QuotaEvent>,
  from: Folded,
): Promise<Folded | null> {
  let { version, state } = from;
  for (;;) {
    const page = await eventStore.readStream(stream, { fromVersion: version + 1, maxCount: QUOTA_PAGE });
    if (page.currentVersion < from.version) return null;
    for (const event of page.events) {
      state = evolveQuota(state, event);
      version = event.streamVersion;
    }
    if (page.events.length < QUOTA_PAGE) return { version, state };
  }
}

/**
 * The client's quota state: from this process's fold, else from the newest snapshot, then the events
 * after it a page at a time — bounded memory and work however many searches the client has made.
 */
export async function readQuota(eventStore: EventStore, clientId: string): Promise<Folded> {
  const stream = streams.quota(clientId);
  let perStore = foldCache.get(eventStore);
  if (!perStore) {
    perStore = new Map();
    foldCache.set(eventStore, perStore);
  }
  let known = perStore.get(stream);
  if (!known) {
    const snapshot = await latestSnapshot(eventStore, clientId);
    known = snapshot ? { folded: snapshot, snapshotVersion: snapshot.version } : NOTHING_FOLDED;
  }
  // A stream shorter than what was folded (a test store was reset): fold it again from zero.
  const folded =
    (await foldAfter(eventStore, stream, known.folded)) ??
    (await foldAfter(eventStore, stream, NOTHING_FOLDED.folded))!;
  let snapshotVersion = Math.min(known.snapshotVersion, folded.version);
  if (folded.version - snapshotVersion >= SNAPSHOT_EVERY) {
    await eventStore.appendToStream(streams.quotaSnapshots(clientId), [
      { type: 'QuotaSnapshotTaken', data: folded },
    ]);
    snapshotVersion = folded.version;
  }
  perStore.set(stream, { folded, snapshotVersion });
  return folded;
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

/** The look-up the context describes, as the quota rules record it. */
export function lookUpOf(
  ctx: MeteringContext,
  lookUp: { purpose: 'search' | ReportKind; dataSource: DataSource },
  resultCount: number,
): LookUpRecord {
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
  lookUp: { purpose: 'search' | ReportKind; dataSource: DataSource },
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
