/**
 * The embedded stores refuse a former lease holder's writes once a later holder wrote: the message
 * log and the event store, each in its own SQLite file, seen from several connections as several
 * processes would open them. (The document stores' fences are in their contract, documents/contract.ts.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConsumedMessage } from '../message-log/port';
import { openSqliteMessageLog, type SqliteMessageLog } from '../message-log/sqlite-message-log';
import { openSqliteEventStore } from '../event-store/sqlite-event-store';
import { fencedEventStore } from '../event-store/port';
import { FencedError, type Fence } from '.';

const fence = (token: number, name = 'sync-worker'): Fence => ({ name, token });

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-fencing-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Every message of the topic, in order, as a new consumer group reads them. */
async function readAll(log: SqliteMessageLog, topic: string): Promise<string[]> {
  const seen: string[] = [];
  const consumer = log.consume({
    topic,
    groupId: `reader-${Math.random()}`,
    handler: async (batch: ConsumedMessage[]) => {
      for (const message of batch) seen.push(String(message.value));
    },
  });
  await consumer.caughtUp();
  await consumer.stop();
  return seen;
}

describe('the embedded message log with fences', () => {
  it('refuses a former holder’s publish once a later holder published, in every process', async () => {
    const file = path.join(dir, 'messages.db');
    // two processes' connections to one log file
    const first = openSqliteMessageLog(file, { pollIntervalMs: 20, trimConsumed: false });
    const second = openSqliteMessageLog(file, { pollIntervalMs: 20, trimConsumed: false });
    try {
      await first.publish('aids', [{ key: 'k', value: 'a1' }], { fence: fence(1) });
      await second.publish('aids', [{ key: 'k', value: 'b1' }], { fence: fence(2) });
      // the former holder wakes up with a batch on its way: refused whole, whichever connection
      const late = first.publish(
        'aids',
        [
          { key: 'k', value: 'a2' },
          { key: 'k', value: 'a3' },
        ],
        { fence: fence(1) },
      );
      await expect(late).rejects.toBeInstanceOf(FencedError);
      await expect(late).rejects.toThrow(/sync-worker token 1, a later holder wrote with 2/);
      // the later holder goes on; writes without a fence (the API's) are not concerned
      await second.publish('aids', [{ key: 'k', value: 'b2' }], { fence: fence(2) });
      await first.publish('aids', [{ key: 'k', value: 'unfenced' }]);
      expect(await readAll(second, 'aids')).toEqual(['a1', 'b1', 'b2', 'unfenced']);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('lets a new holder shut its predecessor out before it sends anything, and keeps leases apart', async () => {
    const log = openSqliteMessageLog(path.join(dir, 'messages.db'), { trimConsumed: false });
    try {
      await log.publish('aids', [{ key: 'k', value: 'a1' }], { fence: fence(4) });
      await log.publish('aids', [], { fence: fence(5) }); // nothing to send yet, the fence is raised
      await expect(log.publish('aids', [{ key: 'k', value: 'a2' }], { fence: fence(4) })).rejects.toThrow(
        FencedError,
      );
      // another lease's tokens are its own: token 1 of the notifier is not older than 5 of the sync
      await log.publish('mails', [{ key: 'm', value: 'n1' }], { fence: fence(1, 'notifier') });
      // the same holder again, and a token that jumps ahead (holders that never wrote here), pass
      await log.publish('aids', [{ key: 'k', value: 'b1' }], { fence: fence(5) });
      await log.publish('aids', [{ key: 'k', value: 'c1' }], { fence: fence(9) });
      await expect(log.publish('aids', [{ key: 'k', value: 'b2' }], { fence: fence(5) })).rejects.toThrow(
        FencedError,
      );
      expect(await readAll(log, 'aids')).toEqual(['a1', 'b1', 'c1']);
      expect(await readAll(log, 'mails')).toEqual(['n1']);
    } finally {
      await log.close();
    }
  });

  it('refuses a fence that is not a lease’s token, sending nothing', async () => {
    const log = openSqliteMessageLog(path.join(dir, 'messages.db'), { trimConsumed: false });
    try {
      for (const bad of [fence(0), fence(1.5), fence(-1), fence(2, '')])
        await expect(log.publish('aids', [{ key: 'k', value: 'x' }], { fence: bad })).rejects.toThrow(
          TypeError,
        );
      expect(await readAll(log, 'aids')).toEqual([]);
    } finally {
      await log.close();
    }
  });
});

describe('the embedded event store with fences', () => {
  it('refuses a former holder’s append once a later holder appended, keeping the stream as it was', async () => {
    const file = path.join(dir, 'events.db');
    const first = openSqliteEventStore(file);
    const second = openSqliteEventStore(file);
    try {
      await first.appendToStream('sync-1', [{ type: 'FileStarted', data: { by: 'a' } }], { fence: fence(1) });
      await second.appendToStream('sync-1', [{ type: 'FileStarted', data: { by: 'b' } }], {
        fence: fence(2),
      });
      await expect(
        first.appendToStream('sync-1', [{ type: 'FileImported', data: { by: 'a' } }], { fence: fence(1) }),
      ).rejects.toBeInstanceOf(FencedError);
      // a fence raised with no event shuts the holder before out too
      await second.appendToStream('sync-control', [], { fence: fence(3) });
      await expect(
        second.appendToStream('sync-control', [{ type: 'SyncFailed', data: {} }], { fence: fence(2) }),
      ).rejects.toBeInstanceOf(FencedError);
      const { events, currentVersion } = await second.readStream('sync-1');
      expect(events.map((event) => (event.data as { by: string }).by)).toEqual(['a', 'b']);
      expect(currentVersion).toBe(1);
      expect((await second.readStream('sync-control')).events).toEqual([]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe('a lease holder’s view of the event store', () => {
  it('carries the holder’s fence on every append and checkpoint, and is the store for everything else', async () => {
    const file = path.join(dir, 'events.db');
    const store = openSqliteEventStore(file);
    try {
      const former = fencedEventStore(store, fence(1, 'bulk-search-runner'));
      const later = fencedEventStore(store, fence(2, 'bulk-search-runner'));
      await former.appendToStream('bulk-1', [{ type: 'BulkSearchProgressed', data: { done: 1 } }]);
      await former.storeCheckpoint('runner', 1);
      await later.appendToStream('bulk-1', [{ type: 'BulkSearchProgressed', data: { done: 2 } }]);
      await expect(
        former.appendToStream('bulk-1', [{ type: 'BulkSearchProgressed', data: { done: 1 } }], {
          expectedVersion: 'any',
        }),
      ).rejects.toBeInstanceOf(FencedError);
      await expect(former.storeCheckpoint('runner', 2)).rejects.toBeInstanceOf(FencedError);
      // reads, and writes that are not the holder's, go to the store as they are
      expect((await former.readStream('bulk-1')).currentVersion).toBe(1);
      await store.appendToStream('bulk-1', [{ type: 'Unfenced', data: {} }]);
      expect(await former.getCheckpoint('runner')).toBe(1);
    } finally {
      await store.close();
    }
  });
});
