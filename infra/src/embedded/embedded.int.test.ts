import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '../event-store/port';
import { openSqliteEventStore } from '../event-store/sqlite-event-store';
import { eventually } from './contract-helpers';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE_NAME } from './data-dir-lock';
import { openStores } from '../stores';
import { spawnTsChild, waitForExit, waitForLine } from './test-children/spawn-ts-child';

let dataDir: string;
beforeEach(() => {
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rna-embedded-')), 'data');
});
afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

describe('openStores with no engine (the embedded default)', () => {
  it('creates the data directory with one file per store, and keeps data across a reopen', async () => {
    const stores = openStores({ dataDir });
    await stores.eventStore.appendToStream('settings', [
      { type: 'DataSourceSwitched', data: { useLiveData: true } },
    ]);
    await stores.messageLog.publish('aids', [{ key: '01234567890', value: { type: 'AidWithdrawn' } }]);
    await stores.documents.collection<{ id: string; n: number }>('counters').put({ id: 'c', n: 1 });
    await stores.blobs.put('logo.png', Buffer.from('png'), 'image/png');
    await stores.close();

    for (const name of ['events.db', 'messages.db', 'aids.db', 'documents.db', 'blobs']) {
      expect(fs.existsSync(path.join(dataDir, name))).toBe(true);
    }

    const again = openStores({ dataDir });
    expect((await again.eventStore.readStream('settings')).currentVersion).toBe(0);
    expect(await again.documents.collection('counters').get('c')).toEqual({ id: 'c', n: 1 });
    expect((await again.blobs.get('logo.png'))?.contentType).toBe('image/png');
    const seen: string[] = [];
    const consumer = again.messageLog.consume({
      topic: 'aids',
      groupId: 'g',
      handler: async (batch) => void seen.push(...batch.map((m) => m.key)),
    });
    await consumer.caughtUp();
    expect(seen).toEqual(['01234567890']);
    await again.close();
  });

  it('close stops running subscriptions and can be called twice', async () => {
    const stores = openStores({ dataDir });
    const sub = stores.eventStore.subscribeToAll({ subscriberId: 's', handler: async () => undefined });
    await sub.caughtUp();
    await Promise.all([stores.close(), stores.close()]);
    await expect(sub.caughtUp()).rejects.toThrow(/stopped/);
  });
});

describe('acquireDataDirLock', () => {
  it('lets one holder in and names it to the next, until released', () => {
    const release = acquireDataDirLock(dataDir, 'standalone');
    let refusal: unknown;
    try {
      acquireDataDirLock(dataDir, 'second standalone');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataDirLockedError);
    expect((refusal as Error).message).toContain(`pid ${process.pid}`);
    expect((refusal as Error).message).toContain('standalone');
    release();
    const again = acquireDataDirLock(dataDir, 'standalone');
    again();
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE_NAME))).toBe(false);
  });

  it('takes over a lock left by a process that no longer exists', async () => {
    const gone = spawnTsChild('hold-lock.child.ts', [path.join(dataDir, 'elsewhere')]);
    const pid = gone.pid!;
    await waitForLine(gone, (l) => l.startsWith('locked'));
    gone.kill('SIGKILL');
    await waitForExit(gone);
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(
      path.join(dataDir, LOCK_FILE_NAME),
      JSON.stringify({ pid, owner: 'crashed', host: os.hostname(), since: 'earlier' }),
    );
    const release = acquireDataDirLock(dataDir, 'standalone');
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE_NAME), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
    release();
  });

  it('a second process on the same directory is refused with the holder pid; a killed holder is taken over', async () => {
    const holder = spawnTsChild('hold-lock.child.ts', [dataDir]);
    await waitForLine(holder, (l) => l.startsWith('locked'));
    try {
      expect(() => acquireDataDirLock(dataDir, 'second')).toThrow(`pid ${holder.pid}`);

      const second = spawnTsChild('hold-lock.child.ts', [dataDir]);
      const line = await waitForLine(second, (l) => l.startsWith('refused'));
      expect(line).toContain(`pid ${holder.pid}`);
      expect(await waitForExit(second)).toBe(3);
    } finally {
      holder.kill('SIGKILL');
      await waitForExit(holder);
    }
    const release = acquireDataDirLock(dataDir, 'after the crash');
    release();
  }, 20_000);
});

describe('event store across processes', () => {
  it('a live subscription sees events appended by another process on the same file', async () => {
    const file = path.join(dataDir, 'events.db');
    const store = openSqliteEventStore(file, { pollIntervalMs: 50 });
    const seen: RecordedEvent[] = [];
    const sub = store.subscribeToAll({
      subscriberId: 'p',
      handler: async (events) => void seen.push(...events),
    });
    await sub.caughtUp();

    const child = spawnTsChild('append-events.child.ts', [file, 'from-child', '3']);
    await waitForLine(child, (l) => l === 'appended');
    await eventually('events from the other process', () => seen.length === 3);
    expect(seen.map((e) => [e.streamName, e.streamVersion, e.type])).toEqual([
      ['from-child', 0, 'AppendedByChild'],
      ['from-child', 1, 'AppendedByChild'],
      ['from-child', 2, 'AppendedByChild'],
    ]);
    await store.close();
  }, 20_000);
});
