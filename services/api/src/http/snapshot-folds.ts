/**
 * A decision taken on a stream that only grows (a client's quota, a user's alerts) must not replay
 * the whole stream each time: every alert change read the user's whole stream, so an account that
 * writes a lot slowed down its own decisions, linearly, for ever. A fold is read from this process's
 * last fold of the stream, else from its newest snapshot (a stream of its own), then the events after
 * it a page at a time; a process that folded SNAPSHOT_EVERY events past the newest snapshot writes a
 * new one for the others. Bounded memory and work, however long the stream.
 */
import type { EventShape } from '@rna/domain';
import type { EventStore, RecordedEvent, StreamName } from '@rna/infra';

/** A stream folded up to `version`. */
export interface Folded<S> {
  version: number;
  state: S;
}

/** The event a snapshot stream holds: the fold up to `version`. */
export type SnapshotEvent<T extends string, S> = { type: T; data: Folded<S> };

export interface SnapshotFold<E extends EventShape, S, T extends string> {
  stream: StreamName<E>;
  snapshots: StreamName<SnapshotEvent<T, S>>;
  snapshotType: T;
  initial: S;
  evolve(state: S, event: RecordedEvent<E>): S;
}

/** Events read at a time: a decision holds at most this many in memory, whatever the stream's length. */
export const FOLD_PAGE = 1_000;
/** A process that folded this many events past the newest snapshot writes a new one for the others. */
export const SNAPSHOT_EVERY = 1_000;

interface Known {
  folded: Folded<unknown>;
  /** the version of the newest snapshot known to exist */
  snapshotVersion: number;
}

/** Folded state per stream, so that a long stream is read from where this process left it. */
const foldCache = new WeakMap<EventStore, Map<string, Known>>();

async function latestSnapshot<S, T extends string>(
  eventStore: EventStore,
  snapshots: StreamName<SnapshotEvent<T, S>>,
): Promise<Folded<S> | null> {
  const { currentVersion } = await eventStore.readStream(snapshots, { maxCount: 0 });
  if (currentVersion < 0) return null;
  const { events } = await eventStore.readStream(snapshots, { fromVersion: currentVersion, maxCount: 1 });
  return events[0]?.data ?? null;
}

/** Folds the events after `from`, a page at a time; null when the stream is shorter than `from`. */
async function foldAfter<E extends EventShape, S, T extends string>(
  eventStore: EventStore,
  fold: SnapshotFold<E, S, T>,
  from: Folded<S>,
): Promise<Folded<S> | null> {
  let { version, state } = from;
  for (;;) {
    const page = await eventStore.readStream(fold.stream, { fromVersion: version + 1, maxCount: FOLD_PAGE });
    if (page.currentVersion < from.version) return null;
    for (const event of page.events) {
      state = fold.evolve(state, event);
      version = event.streamVersion;
    }
    if (page.events.length < FOLD_PAGE) return { version, state };
  }
}

/** The stream's state now (see the module), with the version a decision appends at. */
export async function readFolded<E extends EventShape, S, T extends string>(
  eventStore: EventStore,
  fold: SnapshotFold<E, S, T>,
): Promise<Folded<S>> {
  let perStore = foldCache.get(eventStore);
  if (!perStore) {
    perStore = new Map();
    foldCache.set(eventStore, perStore);
  }
  const nothing: Folded<S> = { version: -1, state: fold.initial };
  let known = perStore.get(fold.stream) as (Known & { folded: Folded<S> }) | undefined;
  if (!known) {
    const snapshot = await latestSnapshot(eventStore, fold.snapshots);
    known = snapshot
      ? { folded: snapshot, snapshotVersion: snapshot.version }
      : { folded: nothing, snapshotVersion: -1 };
  }
  // A stream shorter than what was folded (a test store was reset): fold it again from zero.
  const folded =
    (await foldAfter(eventStore, fold, known.folded)) ?? (await foldAfter(eventStore, fold, nothing))!;
  let snapshotVersion = Math.min(known.snapshotVersion, folded.version);
  if (folded.version - snapshotVersion >= SNAPSHOT_EVERY) {
    await eventStore.appendToStream(fold.snapshots, [
      { type: fold.snapshotType, data: folded } as SnapshotEvent<T, S>,
    ]);
    snapshotVersion = folded.version;
  }
  perStore.set(fold.stream, { folded, snapshotVersion });
  return folded;
}
