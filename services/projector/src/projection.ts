/**
 * A projection keeps one read model from the event store's all-events feed.
 * `apply` must be idempotent (upsert by a natural key): delivery is at-least-once, and a rebuild
 * replays every event from position zero.
 */
import type { RecordedEvent, DocumentStore, AidIndex, EventStore } from '@rna/infra';

export interface ProjectionStores {
  documents: DocumentStore;
  aidIndex: AidIndex;
}

export interface Projection {
  /** Unique; also the subscriber id under which the checkpoint is stored. */
  name: string;
  /** Event types it reads; others are skipped without calling apply. */
  handles: readonly string[];
  apply(event: RecordedEvent, stores: ProjectionStores): Promise<void>;
  /** Forgets the read model (rebuild from zero). */
  reset(stores: ProjectionStores): Promise<void>;
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

/** Subscribes every projection to the all-events feed from its own checkpoint. */
export function startProjections(
  projections: readonly Projection[],
  eventStore: EventStore,
  stores: ProjectionStores,
): RunningProjections {
  const subscriptions = projections.map((projection) =>
    eventStore.subscribeToAll({
      subscriberId: subscriberIdOf(projection),
      handler: async (events) => {
        for (const event of events) {
          if (projection.handles.includes(event.type)) await projection.apply(event, stores);
        }
      },
    }),
  );
  return {
    caughtUp: async () => {
      await Promise.all(subscriptions.map((s) => s.caughtUp()));
    },
    stop: async () => {
      await Promise.all(subscriptions.map((s) => s.stop()));
    },
  };
}

/** Rebuild: forget read models and checkpoints; the next start replays from zero. */
export async function resetProjections(
  projections: readonly Projection[],
  eventStore: EventStore,
  stores: ProjectionStores,
): Promise<void> {
  for (const projection of projections) {
    await projection.reset(stores);
    await eventStore.storeCheckpoint(subscriberIdOf(projection), 0);
  }
}
