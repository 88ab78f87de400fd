/**
 * A projection keeps one read model from the event store's all-events feed.
 * `apply` must be idempotent (upsert by a natural key): delivery is at-least-once, and a rebuild
 * replays every event from position zero.
 */
import type { DomainEvent, EventShape } from '@rna/domain';
import {
  fencedDocuments,
  fencedEventStore,
  type RecordedEvent,
  type DocumentStore,
  type AidIndex,
  type EventStore,
  type Subscription,
} from '@rna/infra';
import type { Fence } from '@rna/infra/fencing';
import { runWhileHoldingLease } from '@rna/infra/leases';
import {
  attemptsOf,
  deadLetterStream,
  errorText,
  recordDeadLetter,
  type DeadLetterDoc,
} from '@rna/infra/dead-letters';

export interface ProjectionStores {
  documents: DocumentStore;
  aidIndex: AidIndex;
}

/** A projection of the events E (by default any domain event); `apply` gets them typed, no cast. */
export interface Projection<E extends EventShape = DomainEvent> {
  /** Unique; also the subscriber id under which the checkpoint is stored. */
  name: string;
  /** Event types it reads; others are skipped without calling apply. */
  handles: readonly E['type'][];
  apply(event: RecordedEvent<E>, stores: ProjectionStores): Promise<void>;
  /** Forgets the read model (rebuild from zero). */
  reset(stores: ProjectionStores): Promise<void>;
  /** The document collections it writes (reset forgets them; a rebuild fills shadows of them). */
  collections: readonly string[];
}

export interface RunningProjections {
  /** Resolves when every projection has applied everything appended before the call. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

/** The subscriber id under which a projection's checkpoint is stored. */
export function subscriberIdOf(projection: Pick<Projection, 'name'>): string {
  return `projection:${projection.name}`;
}

export interface ProjectionOptions {
  /** An event was set aside (the operator should look at it). */
  onDeadLetter?: (letter: DeadLetterDoc) => void;
  /**
   * Several projector processes: each projection runs in the one process that holds its lease
   * (`projection:<name>`), so that no two processes write one read model at once.
   */
  leases?: { ttlMs?: number; holder?: string; onChange?: (projection: string, holding: boolean) => void };
}

/**
 * Applies one event; an event that keeps failing with its own error (not a store that is down) is
 * set aside after a few attempts — recorded in `dead-letters` and on the projection's dead-letter
 * stream — and the projection goes on with the next one instead of retrying it forever.
 */
async function applyOrSetAside(
  projection: Projection<EventShape>,
  event: RecordedEvent,
  eventStore: EventStore,
  stores: ProjectionStores,
  options: ProjectionOptions,
): Promise<void> {
  const failed = await attemptsOf(() => projection.apply(event, stores));
  if (!failed) return;
  const letter: DeadLetterDoc = {
    id: `${subscriberIdOf(projection)}@${event.globalPosition}`,
    consumer: subscriberIdOf(projection),
    position: String(event.globalPosition),
    type: event.type,
    error: errorText(failed.error),
    attempts: failed.attempts,
    at: Date.now(),
  };
  if (!(await recordDeadLetter(stores.documents, letter))) return;
  await eventStore.appendToStream(deadLetterStream(projection.name), [
    {
      type: 'EventDeadLettered',
      data: { ...letter, streamName: event.streamName, version: event.streamVersion },
    },
  ]);
  options.onDeadLetter?.(letter);
}

/** Subscribes every projection to the all-events feed from its own checkpoint. */
export function startProjections(
  projections: readonly Projection<EventShape>[],
  eventStore: EventStore,
  stores: ProjectionStores,
  options: ProjectionOptions = {},
): RunningProjections {
  // A lease holder's read-model writes and checkpoints carry its fence: a process paused past its
  // lease writes nothing once the next holder has, not even a write already on its way.
  const subscribe = (projection: Projection<EventShape>, fence?: Fence) => {
    const writes = fence ? { ...stores, documents: fencedDocuments(stores.documents, fence) } : stores;
    const events = fence ? fencedEventStore(eventStore, fence) : eventStore;
    return events.subscribeToAll({
      subscriberId: subscriberIdOf(projection),
      handler: async (batch) => {
        for (const event of batch) {
          // The runner hands a projection only the types it handles: apply's typed event holds.
          if (projection.handles.includes(event.type))
            await applyOrSetAside(projection, event, events, writes, options);
        }
      },
    });
  };
  const { leases } = options;
  if (!leases) {
    const subscriptions = projections.map((projection) => subscribe(projection));
    return {
      caughtUp: async () => {
        await Promise.all(subscriptions.map((s) => s.caughtUp()));
      },
      stop: async () => {
        await Promise.all(subscriptions.map((s) => s.stop()));
      },
    };
  }
  const held = new Map<string, Subscription>();
  const leased = projections.map((projection) =>
    runWhileHoldingLease(
      stores.documents,
      {
        name: subscriberIdOf(projection),
        holder: leases.holder,
        ttlMs: leases.ttlMs,
        onChange: (holding) => leases.onChange?.(projection.name, holding),
      },
      (lease) => {
        const subscription = subscribe(projection, lease.fence());
        held.set(projection.name, subscription);
        return {
          stop: async () => {
            held.delete(projection.name);
            await subscription.stop();
          },
        };
      },
    ),
  );
  return {
    // the projections this process holds; the others are another process's to keep up
    caughtUp: async () => {
      await Promise.all([...held.values()].map((s) => s.caughtUp()));
    },
    stop: async () => {
      await Promise.all(leased.map((work) => work.stop()));
    },
  };
}

/** Rebuild: forget read models and checkpoints; the next start replays from zero. */
export async function resetProjections(
  projections: readonly Projection<EventShape>[],
  eventStore: EventStore,
  stores: ProjectionStores,
): Promise<void> {
  for (const projection of projections) {
    await projection.reset(stores);
    await eventStore.storeCheckpoint(subscriberIdOf(projection), 0, { reset: true });
  }
}
