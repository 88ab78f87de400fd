/**
 * A user whose stream has grown long (years of saved searches and alerts triggered by every sync):
 * an alert decision folds a snapshot and the events after it, never the whole stream, and still
 * counts the live alerts exactly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { streams, type UserEvent } from '@rna/domain';
import type { EventStore } from '@rna/infra';
import { openSqliteEventStore, type SqliteEventStore } from '@rna/infra/event-store';
import { SNAPSHOT_EVERY } from '../http/snapshot-folds';
import { addAlert, MAX_VARIATION_ALERTS, removeAlert } from './variation-alerts';

jest.setTimeout(120_000);

const USER = 'u-long';
const owner = { userId: USER, role: 'CLIENT' as const, enableVariationAlerts: true, fixedTaxCode: null };
const at = '2026-03-10T09:00:00.000Z';

/** Counts the events each read of the user's stream returned; a new wrapper is a process that folded nothing. */
function counting(store: EventStore): { store: EventStore; reads: number[] } {
  const reads: number[] = [];
  const wrapped = Object.create(store) as EventStore;
  wrapped.readStream = (async (stream: string, options?: { fromVersion?: number; maxCount?: number }) => {
    const read = await store.readStream(stream, options);
    if (stream === streams.user(USER)) reads.push(read.events.length);
    return read;
  }) as EventStore['readStream'];
  return { store: wrapped, reads };
}

describe('alert decisions on a long user stream', () => {
  let dir: string;
  let store: SqliteEventStore;
  const alertIds: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rna-user-long-'));
    store = openSqliteEventStore(path.join(dir, 'events.db'));
    // 5,000 saved searches, with 60 alerts added and 20 of them removed along the way: 40 live
    const events: UserEvent[] = [];
    for (let i = 0; i < 5_000; i++) {
      events.push({
        type: 'SearchSaved',
        data: {
          userId: USER,
          searchId: `s${i}`,
          taxCodes: ['01234567897'],
          deMinimis: false,
          last3Years: false,
          at,
        },
      });
      if (i % 80 === 0 && alertIds.length < 60) {
        const alertId = `a${alertIds.length}`;
        alertIds.push(alertId);
        events.push({
          type: 'VariationAlertAdded',
          data: { userId: USER, alertId, taxCodes: ['01234567897'], at },
        });
      }
      if (i % 80 === 40 && alertIds.length <= 60 && alertIds.length % 3 === 0 && alertIds.length / 3 <= 20)
        events.push({
          type: 'VariationAlertRemoved',
          data: { userId: USER, alertId: alertIds[alertIds.length / 3 - 1]!, at },
        });
    }
    await store.appendToStream(streams.user(USER), events);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the whole stream once, then only the snapshot and what came after it', async () => {
    const clock = () => new Date(at);
    const live = async () => {
      const { events } = await store.readStream<UserEvent>(streams.user(USER));
      const ids = new Set<string>();
      for (const event of events) {
        if (event.type === 'VariationAlertAdded') ids.add(event.data.alertId);
        if (event.type === 'VariationAlertRemoved') ids.delete(event.data.alertId);
      }
      return ids.size;
    };
    const before = await live();
    expect(before).toBeLessThan(MAX_VARIATION_ALERTS);
    // the first decision anywhere folds the whole stream, and leaves a snapshot for the others
    const first = counting(store);
    await addAlert({ eventStore: first.store, clock }, owner, ['98765432109']);
    expect(first.reads.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(SNAPSHOT_EVERY);
    expect((await store.readStream(streams.userSnapshots(USER))).events).toHaveLength(1);
    // a process that folded nothing reads the snapshot and the few events after it
    const fresh = counting(store);
    const added = await addAlert({ eventStore: fresh.store, clock }, owner, ['98765432109']);
    expect(fresh.reads.reduce((sum, n) => sum + n, 0)).toBeLessThan(10);
    await removeAlert({ eventStore: fresh.store, clock }, owner, added.id);
    // and still counts exactly: alerts up to the limit, then V001
    let count = before + 1;
    while (count < MAX_VARIATION_ALERTS) {
      await addAlert({ eventStore: counting(store).store, clock }, owner, ['01234567897']);
      count += 1;
    }
    expect(await live()).toBe(MAX_VARIATION_ALERTS);
    await expect(
      addAlert({ eventStore: counting(store).store, clock }, owner, ['01234567897']),
    ).rejects.toMatchObject({
      code: 'V001',
    });
  });
});
