import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streams, type ClientEvent } from '@rna/domain';
import { openSqliteEventStore, type SqliteEventStore } from '@rna/infra/event-store';
import { performSearch, searchRequestFrom } from '../documents/search';
import { ADMIN, clientActor, grantAllowance, memoryAidIndex } from '../documents/testing';
import { clientAuditHistory, findClientIdByEmail } from './history';

describe('client audit history', () => {
  let dir: string;
  let eventStore: SqliteEventStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'audit-'));
    eventStore = openSqliteEventStore(join(dir, 'events.db'));
  });
  afterEach(async () => {
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists allowance, searches and refusals with who and when, and the remaining searches as of any date', async () => {
    let now = new Date('2025-03-01T09:00:00Z');
    const deps = { eventStore, aidIndex: memoryAidIndex(), clock: () => now };
    await grantAllowance(eventStore, 'c1', 2, Date.parse('2026-01-01T11:00:00Z'));
    const searcher = { actor: clientActor('c1'), fixedTaxCode: null };
    await performSearch(deps, searcher, searchRequestFrom({ taxCodes: '01234567897' }));
    now = new Date('2025-03-05T09:00:00Z');
    await performSearch(deps, searcher, searchRequestFrom({ taxCodes: '98765432109' }));
    now = new Date('2025-03-06T09:00:00Z');
    await expect(
      performSearch(deps, searcher, searchRequestFrom({ taxCodes: '11111111111' })),
    ).rejects.toMatchObject({
      code: 'U004',
    });

    const history = await clientAuditHistory(eventStore, 'c1');
    expect(history.entries.map((e) => [e.kind, e.remainingSearches, e.detail ?? ''])).toEqual([
      ['ALLOWANCE', 2, ''],
      ['SEARCH', 1, ''],
      ['SEARCH', 0, ''],
      ['REFUSAL', 0, 'U004'],
    ]);
    // what the allowance set is data (the end date as ms), never an ISO text to show as it is
    expect(history.entries[0]?.allowance).toEqual({
      remainingSearches: 2,
      availableYearlySearches: 2,
      endDate: Date.parse('2026-01-01T11:00:00Z'),
    });
    expect(history.entries[1]?.allowance).toBeNull();
    expect(history.entries[1]).toMatchObject({
      by: { email: 'c1@example.com' },
      taxCodes: ['01234567897'],
      cost: 1,
    });
    const asOfMarch3 = await clientAuditHistory(eventStore, 'c1', Date.parse('2025-03-03T00:00:00Z'));
    expect(asOfMarch3.remainingSearches).toBe(1);
    expect(asOfMarch3.entries).toHaveLength(2);

    // a date range: only what happened from March 4 to 5 is listed; the remaining count is still right
    const range = await clientAuditHistory(eventStore, 'c1', Date.parse('2025-03-05T23:59:59Z'), {
      since: Date.parse('2025-03-04T00:00:00Z'),
    });
    expect(range.entries.map((e) => [e.kind, e.taxCodes, e.remainingSearches])).toEqual([
      ['SEARCH', ['98765432109'], 0],
    ]);
    expect(range.totalEntries).toBe(1);
    expect(range.remainingSearches).toBe(0);
  });

  it('pages through a long history: the state folds every event, only the page asked for is listed', async () => {
    await grantAllowance(eventStore, 'c2', 5_000, Date.parse('2030-01-01T11:00:00Z'));
    const search = (i: number) => ({
      type: 'SearchPerformed',
      data: {
        clientId: 'c2',
        taxCodes: [String(10_000_000_000 + i)],
        deMinimis: false,
        last3Years: false,
        at: new Date(Date.parse('2025-01-01T00:00:00Z') + i * 60_000).toISOString(),
        by: clientActor('c2'),
        dataSource: 'ARCHIVE',
        resultCount: 1,
        cost: 1,
      },
    });
    await eventStore.appendToStream(
      streams.quota('c2'),
      Array.from({ length: 2_500 }, (_, i) => search(i)),
    );
    const reads: (number | undefined)[] = [];
    const counting = {
      ...eventStore,
      readStream: (stream: string, options?: { fromVersion?: number; maxCount?: number }) => {
        reads.push(options?.maxCount);
        return eventStore.readStream(stream, options);
      },
    } as typeof eventStore;

    const first = await clientAuditHistory(counting, 'c2', null, { limit: 100 });
    expect(first.entries).toHaveLength(100);
    expect(first.totalEntries).toBe(2_501);
    expect(first.remainingSearches).toBe(2_500);
    expect(first.nextFrom).toBe(100);
    // never one read of the whole stream
    expect(reads.every((maxCount) => maxCount !== undefined && maxCount <= 1_000)).toBe(true);

    const last = await clientAuditHistory(eventStore, 'c2', null, { from: 2_450, limit: 100 });
    expect(last.entries.map((e) => e.version)).toEqual(Array.from({ length: 51 }, (_, i) => 2_450 + i));
    expect(last.entries.at(-1)?.remainingSearches).toBe(2_500);
    expect(last.nextFrom).toBeNull();

    // newest first, as an auditor reads it: the last page first, then back in time
    const newest = await clientAuditHistory(counting, 'c2', null, { order: 'desc', limit: 100 });
    expect(newest.entries.map((e) => e.version)).toEqual(Array.from({ length: 100 }, (_, i) => 2_500 - i));
    expect(newest.entries[0]?.remainingSearches).toBe(2_500);
    expect(newest.totalEntries).toBe(2_501);
    expect(newest.nextFrom).toBe(2_400);
    const oldest = await clientAuditHistory(eventStore, 'c2', null, { order: 'desc', from: 50, limit: 100 });
    expect(oldest.entries.map((e) => e.version)).toEqual(Array.from({ length: 51 }, (_, i) => 50 - i));
    expect(oldest.entries.at(-1)?.kind).toBe('ALLOWANCE');
    expect(oldest.nextFrom).toBeNull();
    expect(reads.every((maxCount) => maxCount !== undefined && maxCount <= 1_000)).toBe(true);
  });

  it('finds a client by the email it was invited with', async () => {
    const invited: ClientEvent = {
      type: 'ClientInvited',
      data: {
        clientId: 'c9',
        email: 'Studio@Example.com',
        fixedTaxCode: null,
        invitedAt: '2025-01-01T00:00:00Z',
        by: ADMIN,
      },
    };
    await eventStore.appendToStream(streams.client('c9'), [invited]);
    expect(await findClientIdByEmail(eventStore, 'studio@example.com')).toBe('c9');
    expect(await findClientIdByEmail(eventStore, 'other@example.com')).toBeNull();
  });
});
