/**
 * A projector paused (SIGSTOP) while it indexes a sync's aids, past its lease, with a second
 * projector beside it, on the embedded SQLite stores. The second takes the aids over and indexes the
 * rest; the first is then woken (SIGCONT) with its batch in hand and stopped cleanly (SIGTERM), so that
 * everything it still had to write has been written once it exited. The index ends exactly equal to
 * the register's files: the late batch changed nothing the second projector had settled.
 *
 * The narrow window (a late batch of an import a newer one settled without some of its aids) is
 * pinned by the aid index contract ("never brings back an aid the newer import dropped").
 *
 * A process frozen inside a write transaction keeps that SQLite file's write lock until it runs again:
 * nobody can write the file meanwhile (SQLite cannot take a lock from a live process). That is the
 * embedded default's limit, said in README; the freeze here is made to land between two writes.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { requestSync } from '@rna/api';
import type { Actor } from '@rna/domain';
import { PINNED_TEST_INSTANT } from '@rna/infra/config';
import { EMBEDDED_FILES } from '@rna/infra/stores';
import { expectIndexMatches } from '../rna-mirror/sync-harness';
import { buildMains, type ServiceProcess } from './processes';
import { openSyncScenario, type SyncScenario } from './sync-scenario';

jest.setTimeout(240_000);

const admin: Actor = { userId: 'u-admin', email: 'admin@example.it', role: 'ADMIN' };
const AIDS_GROUP = 'projection:aid-index';
const STORE_FILES = [
  EMBEDDED_FILES.messages,
  EMBEDDED_FILES.aids,
  EMBEDDED_FILES.events,
  EMBEDDED_FILES.documents,
];

/**
 * Whether every store file's write lock can be taken now (waiting up to a second for a live
 * writer's transaction): false when a frozen process holds one.
 */
function writeLocksFree(dataDir: string): boolean {
  return STORE_FILES.every((name) => {
    const db = new Database(path.join(dataDir, name), { timeout: 1_000 });
    try {
      db.exec('BEGIN IMMEDIATE');
      db.exec('ROLLBACK');
      return true;
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return false;
      throw error;
    } finally {
      db.close();
    }
  });
}

let scenario: SyncScenario;

beforeAll(async () => {
  buildMains();
  scenario = await openSyncScenario('projector-paused', {
    bytesPerSecond: 120_000,
    env: { LEASE_TTL_MS: '1500', LOG_LEVEL: 'info' },
  });
});

afterAll(() => scenario?.close());

it('a projector paused past its lease while indexing, then woken and stopped, leaves every aid indexed once', async () => {
  const { stores, start, until } = scenario;
  const truth = await scenario.generateRegister({ aids: 3_000, seed: 29 });
  const messages = new Database(path.join(scenario.dataDir, EMBEDDED_FILES.messages), { readonly: true });
  try {
    const projectors = [start('projector-1', 'projector'), start('projector-2', 'projector')];
    start('sync', 'sync');
    // who fetches the aids: the member of the group holding its lease (host:pid:uuid)
    const fetcher = async (): Promise<ServiceProcess | null> => {
      const row = messages
        .prepare<[string, string], { lease_owner: string | null }>(
          'SELECT lease_owner FROM consumer_groups WHERE topic = ? AND group_id = ?',
        )
        .get('aids', AIDS_GROUP);
      const pid = Number(row?.lease_owner?.split(':')[1]);
      return projectors.find((projector) => projector.child.pid === pid) ?? null;
    };
    await requestSync(stores.eventStore, {
      scope: 'ALL',
      onlyDocuments: [],
      by: admin,
      now: new Date(PINNED_TEST_INSTANT),
    });

    // some aids indexed, more on their way: freeze the projector that fetches them
    await until('a part of the aids indexed', async () => {
      const count = await stores.aidIndex.count();
      return count > 0 && count < truth.length / 2 ? count : null;
    });
    // frozen between two writes: a freeze that caught it holding a file's write lock is undone and
    // tried again (the lock would stop everyone until it runs again)
    const first = await until('the projector fetching the aids, frozen between two writes', async () => {
      const holder = await fetcher();
      if (!holder) return null;
      holder.child.kill('SIGSTOP');
      if (writeLocksFree(scenario.dataDir)) return holder;
      holder.child.kill('SIGCONT');
      return null;
    });
    const second = await until('the aids taken over by the other projector', async () => {
      const holder = await fetcher();
      return holder && holder !== first ? holder : null;
    });
    await scenario.runEnded();
    await until('every aid indexed by the other projector', async () =>
      (await stores.aidIndex.count()) === truth.length ? true : null,
    );

    // the first wakes up with its batch in hand, and is stopped cleanly: once it exited, whatever it
    // was still writing has been written
    first.child.kill('SIGCONT');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    await expectIndexMatches(stores.aidIndex, truth);
    expect(second.child.exitCode).toBeNull();
  } finally {
    messages.close();
  }
});
