/**
 * Fencing tokens. A lease (leases/) names its holder and a token that grows by one at each change of
 * holder; the holder hands `{ name, token }` to every write it makes. A store that checks fences keeps,
 * per name, the highest token that wrote, in the same transaction as the write: a write carrying a
 * lower token is refused (FencedError). So a holder that was paused past its lease (a GC pause, a frozen
 * VM) and wakes up cannot change anything once its successor has written — not even a write already on
 * its way when the pause began, which no check made by the holder itself can stop.
 *
 * The embedded SQLite stores check fences, and so does the MongoDB document store (the check and the
 * write in one transaction). EventStoreDB, which writes one stream atomically and never two before
 * 25.x, checks the lease's fence stream and then the target stream's last event, appending at that
 * event's revision: a former holder's event never lands after a later holder's on a stream, and an
 * append begun after the later holder took the lease is refused; one already past its check when the
 * lease changed hands may still land on a stream the later holder has not written to, after the later
 * holder's raise in $all, and readers leave it out (its position is after the raise). Kafka cannot
 * refuse a write by an application's token (that needs transactions, which librdkafka's mock cannot
 * serve to kafkajs here), so there the fence is checked where the messages are read: every message
 * carries its holder's token, a new holder's first write is a marker on every partition, and consumers
 * drop a former holder's messages that come after it (message-log/kafka-fencing.ts). Where a check is
 * partial, the holder's own deadline and the import order (domain/import-order.ts) are the protection.
 */
import type { SqliteDatabase } from '../embedded/sqlite';

export interface Fence {
  /** the lease's name: tokens of different leases are never compared */
  name: string;
  /** grows by one at each change of the lease's holder */
  token: number;
}

/** A write refused because a later holder of the same lease has written since. */
export class FencedError extends Error {
  override readonly name = 'FencedError';
  constructor(
    readonly fence: Fence,
    readonly seenToken: number,
  ) {
    super(
      `Write fenced off: lease ${fence.name} token ${fence.token}, a later holder wrote with ${seenToken}`,
    );
  }
}

export function assertFence(fence: Fence): void {
  if (typeof fence.name !== 'string' || fence.name.length === 0)
    throw new TypeError('A fence needs the name of its lease');
  if (!Number.isSafeInteger(fence.token) || fence.token < 1)
    throw new TypeError(`A fence token is a positive integer, not ${String(fence.token)}`);
}

export const FENCES_SCHEMA = `
CREATE TABLE IF NOT EXISTS fences (
  name TEXT PRIMARY KEY,
  token INTEGER NOT NULL
);
`;

/**
 * The fence check of one SQLite file, to be called inside the transaction of the write it guards:
 * throws FencedError when a higher token of the same lease wrote here, else records this token as
 * the highest. The file's schema must include FENCES_SCHEMA (files made before fencing get the table
 * when next opened).
 */
export function sqliteFenceCheck(db: SqliteDatabase): (fence: Fence) => void {
  const read = db.prepare<[string], { token: number }>('SELECT token FROM fences WHERE name = ?');
  const raise = db.prepare<[string, number]>(
    'INSERT INTO fences (name, token) VALUES (?, ?) ' +
      'ON CONFLICT (name) DO UPDATE SET token = MAX(token, excluded.token)',
  );
  return (fence) => {
    assertFence(fence);
    const seen = read.get(fence.name)?.token ?? 0;
    if (seen > fence.token) throw new FencedError(fence, seen);
    if (seen < fence.token) raise.run(fence.name, fence.token);
  };
}

/**
 * `target` with some of its methods replaced (a holder's view of a store, a test's failing store):
 * every other member is the target's own, its methods bound to it (class methods need their `this`).
 */
export function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get: (inner, key) => {
      if (Object.prototype.hasOwnProperty.call(overrides, key)) return overrides[key as keyof T];
      const value: unknown = Reflect.get(inner, key, inner);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(inner) : value;
    },
  });
}
