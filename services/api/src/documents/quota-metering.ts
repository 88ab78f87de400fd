/**
 * The one strongly consistent decision (ARCHITECTURE): may this client search now? Taken on the
 * `quota-<clientId>` stream with optimistic concurrency: read, fold, decide, append with the
 * version read; when another request appended first, read again and decide again.
 */
import {
  DomainError,
  evolveQuota,
  initialQuotaState,
  streams,
  type Actor,
  type DataSource,
  type QuotaDecision,
  type QuotaEvent,
  type QuotaState,
  type ReportKind,
  type SearchRequest,
} from '@rna/domain';
import { ConcurrencyError, type EventStore, type EventToAppend } from '@rna/infra';

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
  const { events } = await eventStore.readStream<Folded>(stream, {
    fromVersion: currentVersion,
    maxCount: 1,
  });
  return events[0]?.data ?? null;
}

/** Folds the events after `from`, a page at a time; null when the stream is shorter than `from`. */
async function foldAfter(eventStore: EventStore, stream: string, from: Folded): Promise<Folded | null> {
  let { version, state } = from;
  for (;;) {
    const page = await eventStore.readStream(stream, { fromVersion: version + 1, maxCount: QUOTA_PAGE });
    if (page.currentVersion < from.version) return null;
    for (const event of page.events) {
      state = evolveQuota(state, { type: event.type, data: event.data } as QuotaEvent);
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
  /** How long to keep retrying under contention before giving up with G001. */
  budgetMs?: number;
}

export interface Metered<T> {
  result: T;
  remainingSearches: number;
}

type QuotaEventData<K extends QuotaEvent['type']> = Extract<QuotaEvent, { type: K }>['data'];

function quotaEvent<K extends QuotaEvent['type']>(type: K, data: QuotaEventData<K>): EventToAppend {
  return { type, data };
}

function refusal(ctx: MeteringContext, code: 'A002' | 'U004'): EventToAppend {
  return quotaEvent('SearchRefused', {
    ...ctx.request,
    clientId: ctx.clientId,
    at: ctx.now.toISOString(),
    by: ctx.actor,
    code,
  });
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `perform` once, only if the decision allows it, and records the outcome on the quota
 * stream: `events(cost, result)` on success, SearchRefused (then the error) on refusal.
 */
export async function metered<T>(
  ctx: MeteringContext,
  decide: (state: QuotaState) => QuotaDecision,
  perform: () => Promise<T>,
  events: (cost: number, result: T) => EventToAppend[],
): Promise<Metered<T>> {
  const deadline = Date.now() + (ctx.budgetMs ?? 20_000);
  let outcome: { value: T } | null = null;
  for (let attempt = 0; ; attempt += 1) {
    const { version, state } = await readQuota(ctx.eventStore, ctx.clientId);
    const expectedVersion = version === -1 ? ('no_stream' as const) : version;
    const decision = decide(state);
    try {
      if (!decision.ok) {
        await ctx.eventStore.appendToStream(streams.quota(ctx.clientId), [refusal(ctx, decision.code)], {
          expectedVersion,
        });
        throw new DomainError(decision.code);
      }
      outcome ??= { value: await perform() };
      await ctx.eventStore.appendToStream(streams.quota(ctx.clientId), events(decision.cost, outcome.value), {
        expectedVersion,
      });
      return {
        result: outcome.value,
        remainingSearches: Math.max(0, state.remainingSearches - decision.cost),
      };
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      if (Date.now() > deadline) throw new DomainError('G001', 'Troppe ricerche contemporanee, riprovare');
      // Jittered back-off: the losers of a race should not collide again in lockstep.
      await pause(Math.random() * Math.min(50, 2 ** Math.min(attempt, 6)));
    }
  }
}

export function searchPerformed(
  ctx: MeteringContext,
  dataSource: DataSource,
  resultCount: number,
  cost: number,
): EventToAppend {
  return quotaEvent('SearchPerformed', {
    ...ctx.request,
    clientId: ctx.clientId,
    at: ctx.now.toISOString(),
    by: ctx.actor,
    dataSource,
    resultCount,
    cost,
  });
}

export function reportDownloaded(ctx: MeteringContext, kind: ReportKind): EventToAppend {
  return quotaEvent('ReportDownloaded', {
    ...ctx.request,
    clientId: ctx.clientId,
    at: ctx.now.toISOString(),
    by: ctx.actor,
    kind,
  });
}
