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

/** Folded state per stream, so that a long quota stream is read from where we left it. */
interface Folded {
  version: number;
  state: QuotaState;
}
const foldCache = new WeakMap<EventStore, Map<string, Folded>>();

export async function readQuota(eventStore: EventStore, clientId: string): Promise<Folded> {
  const stream = streams.quota(clientId);
  let perStore = foldCache.get(eventStore);
  if (!perStore) {
    perStore = new Map();
    foldCache.set(eventStore, perStore);
  }
  const known = perStore.get(stream) ?? { version: -1, state: initialQuotaState };
  const { currentVersion, events } = await eventStore.readStream(stream, { fromVersion: known.version + 1 });
  if (currentVersion < known.version) {
    // The stream is shorter than what we folded (a test store was reset): fold it again from zero.
    perStore.delete(stream);
    return readQuota(eventStore, clientId);
  }
  let state = known.state;
  let version = known.version;
  for (const event of events) {
    if (event.streamVersion <= version) continue;
    state = evolveQuota(state, { type: event.type, data: event.data } as QuotaEvent);
    version = event.streamVersion;
  }
  const folded = { version, state };
  perStore.set(stream, folded);
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
