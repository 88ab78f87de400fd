/**
 * A client with years of searches: a quota decision folds a snapshot and the events after it, a page
 * at a time, never the whole stream — in this process and in a fresh one (measured in a child process).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { streams, type QuotaEvent } from '@rna/domain';
import type { EventStore } from '@rna/infra';
import { openSqliteEventStore, type SqliteEventStore } from '@rna/infra/event-store';
import { QUOTA_PAGE, readQuota, SNAPSHOT_EVERY } from './quota-metering';

jest.setTimeout(120_000);

const CLIENT = 'c-long';
const EVENTS = 200_000;
const by = { userId: CLIENT, email: 'studio@example.com', role: 'CLIENT' as const };

function searchEvent(i: number): QuotaEvent {
  return {
    type: 'SearchPerformed',
    data: {
      clientId: CLIENT,
      taxCodes: [String(10_000_000_000 + (i % 5_000))],
      deMinimis: false,
      last3Years: false,
      at: new Date(Date.parse('2020-01-01T09:00:00Z') + i * 600_000).toISOString(),
      by,
      dataSource: 'ARCHIVE',
      resultCount: 3,
      cost: 1,
    },
  };
}

/** Counts what each read of the quota stream returned. */
function counting(store: EventStore): { store: EventStore; reads: number[] } {
  const reads: number[] = [];
  const wrapped = Object.create(store) as EventStore;
  wrapped.readStream = (async (stream: string, options?: { fromVersion?: number; maxCount?: number }) => {
    const read = await store.readStream(stream, options);
    if (stream === streams.quota(CLIENT)) reads.push(read.events.length);
    return read;
  }) as EventStore['readStream'];
  return { store: wrapped, reads };
}

describe('quota decisions on a long stream', () => {
  let dir: string;
  let file: string;
  let store: SqliteEventStore;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'rna-quota-long-'));
    file = path.join(dir, 'events.db');
    store = openSqliteEventStore(file);
    const grant: QuotaEvent = {
      type: 'SearchAllowanceGranted',
      data: {
        clientId: CLIENT,
        availableYearlySearches: 1_000_000,
        remainingSearches: 1_000_000,
        endDate: Date.parse('2030-01-01T11:00:00Z'),
        at: '2020-01-01T08:00:00Z',
        by,
      },
    };
    await store.appendToStream(streams.quota(CLIENT), [grant]);
    for (let i = 0; i < EVENTS; i += 10_000) {
      await store.appendToStream(
        streams.quota(CLIENT),
        Array.from({ length: 10_000 }, (_, j) => searchEvent(i + j)),
      );
    }
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('decides in bounded memory in a fresh process, before any snapshot exists', () => {
    const api = path.resolve(__dirname, '..', '..', 'dist', 'documents', 'quota-metering.js');
    // the compiled modules (npm test builds them before the tests run)
    const infra = path.resolve(__dirname, '..', '..', '..', '..', 'infra', 'dist', 'event-store', 'index.js');
    const script = `
      const { readQuota } = require(${JSON.stringify(api)});
      const { openSqliteEventStore } = require(${JSON.stringify(infra)});
      (async () => {
        const store = openSqliteEventStore(process.argv[1]);
        let peak = process.memoryUsage().rss;
        const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
        const before = process.memoryUsage().rss;
        const folded = await readQuota(store, ${JSON.stringify(CLIENT)});
        clearInterval(sampler);
        peak = Math.max(peak, process.memoryUsage().rss);
        await store.close();
        process.stdout.write(JSON.stringify({ version: folded.version, grewMb: (peak - before) / 1048576 }));
      })();`;
    const { version, grewMb } = JSON.parse(
      execFileSync(process.execPath, ['-e', script, file], { encoding: 'utf8' }),
    ) as { version: number; grewMb: number };
    console.log(`cold quota decision over ${version + 1} events: RSS grew ${grewMb.toFixed(1)} MB`);
    expect(version).toBeGreaterThanOrEqual(EVENTS);
    // measured on these machines: ~64 MB a page at a time (the collector's slack), ~260 MB reading the stream whole
    expect(grewMb).toBeLessThan(120);
  });
  it('folds a page at a time, leaves a snapshot, and a fresh reader starts from it', async () => {
    const first = counting(store);
    const folded = await readQuota(first.store, CLIENT);
    expect(folded).toMatchObject({ version: EVENTS, state: { remainingSearches: 1_000_000 - EVENTS } });
    expect(Math.max(...first.reads)).toBeLessThanOrEqual(QUOTA_PAGE);

    // another process (another store instance on the same file): the snapshot, then what follows it
    await store.appendToStream(streams.quota(CLIENT), [searchEvent(EVENTS)]);
    const other = openSqliteEventStore(file);
    try {
      const fresh = counting(other);
      const again = await readQuota(fresh.store, CLIENT);
      expect(again).toMatchObject({
        version: EVENTS + 1,
        state: { remainingSearches: 1_000_000 - EVENTS - 1 },
      });
      expect(fresh.reads.reduce((sum, n) => sum + n, 0)).toBeLessThan(SNAPSHOT_EVERY);
    } finally {
      await other.close();
    }
  });
});
