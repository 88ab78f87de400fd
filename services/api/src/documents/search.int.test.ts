import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError, streams, type QuotaEvent } from '@rna/domain';
import { ConcurrencyError } from '@rna/infra';
import { openSqliteEventStore, type SqliteEventStore } from '@rna/infra/event-store';
import { performSearch, searchRequestFrom, type SearchDeps } from './search';
import { ADMIN, anAid, clientActor, grantAllowance, memoryAidIndex, taxCodeNumber } from './testing';

const NOW = new Date('2025-06-10T10:00:00Z');
const NEXT_YEAR = Date.parse('2026-06-10T10:00:00Z');

describe('search with audited quotas', () => {
  let dir: string;
  let eventStore: SqliteEventStore;
  let deps: SearchDeps;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'search-'));
    eventStore = openSqliteEventStore(join(dir, 'events.db'));
    deps = {
      eventStore,
      aidIndex: memoryAidIndex([
        anAid({ codiceFiscaleBeneficiario: '01234567897', dataConcessione: '2024-05-10' }),
        anAid({
          codiceFiscaleBeneficiario: '01234567897',
          dataConcessione: '2020-01-15',
          codProcedimento: '3',
        }),
      ]),
      clock: () => NOW,
    };
  });
  afterEach(async () => {
    await eventStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const quotaEvents = async (clientId: string) =>
    (await eventStore.readStream(streams.quota(clientId))).events.map(
      (e) => ({ type: e.type, data: e.data }) as QuotaEvent,
    );

  it('lets exactly as many of 200 concurrent searches through as the client has units left', async () => {
    await grantAllowance(eventStore, 'c1', 50, NEXT_YEAR);
    const searcher = { actor: clientActor('c1'), fixedTaxCode: null };
    // Count lost races, to be sure the searches really competed for the stream.
    let conflicts = 0;
    const append = eventStore.appendToStream.bind(eventStore);
    eventStore.appendToStream = async (...args) =>
      append(...args).catch((error: unknown) => {
        if (error instanceof ConcurrencyError) conflicts += 1;
        throw error;
      });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        performSearch(deps, searcher, searchRequestFrom({ taxCodes: taxCodeNumber(i) })),
      ),
    );
    const succeeded = outcomes.filter((o) => o.status === 'fulfilled');
    const refusedCodes = outcomes.flatMap((o) =>
      o.status === 'rejected' ? [(o.reason as DomainError).code] : [],
    );
    expect(conflicts).toBeGreaterThan(0);
    expect(succeeded).toHaveLength(50);
    expect(refusedCodes).toEqual(Array(150).fill('U004'));
    const events = await quotaEvents('c1');
    expect(events.filter((e) => e.type === 'SearchPerformed')).toHaveLength(50);
    expect(events.filter((e) => e.type === 'SearchRefused')).toHaveLength(150);
    const remaining = succeeded.map(
      (o) => (o as PromiseFulfilledResult<{ remainingSearches?: number }>).value,
    );
    expect(remaining.map((r) => r.remainingSearches).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      Array.from({ length: 50 }, (_, i) => i),
    );
  }, 60_000);

  it('records who searched what, on which source, with how many results and at what cost', async () => {
    await grantAllowance(eventStore, 'c2', 10, NEXT_YEAR);
    const result = await performSearch(
      deps,
      { actor: clientActor('c2'), fixedTaxCode: null },
      searchRequestFrom({ taxCodes: '01234567897, 98765432109', deMinimis: false, last3Years: true }),
    );
    expect(result.remainingSearches).toBe(8);
    expect(result.rows).toHaveLength(1); // the 2020 aid is older than 3 years
    const performed = (await quotaEvents('c2')).find((e) => e.type === 'SearchPerformed');
    expect(performed?.data).toMatchObject({
      clientId: 'c2',
      taxCodes: ['01234567897', '98765432109'],
      deMinimis: false,
      last3Years: true,
      by: { userId: 'c2', role: 'CLIENT' },
      dataSource: 'ARCHIVE',
      resultCount: 1,
      cost: 2,
      at: NOW.toISOString(),
    });
  });

  it('answers a search of several companies with each one’s own figures, in the order searched', async () => {
    deps.aidIndex = memoryAidIndex([
      anAid({
        codiceFiscaleBeneficiario: '01234567897',
        denominazioneBeneficiario: 'ALFA SRL',
        dataConcessione: '2024-05-10',
        elementoDiAiutoCents: 10_000_000,
        codProcedimento: '1',
      }),
      anAid({
        codiceFiscaleBeneficiario: '98765432109',
        denominazioneBeneficiario: 'BETA SPA',
        dataConcessione: '2025-01-20',
        elementoDiAiutoCents: 25_000_000,
        codProcedimento: '1',
      }),
    ]);
    const result = await performSearch(
      deps,
      { actor: ADMIN, fixedTaxCode: null },
      searchRequestFrom({ taxCodes: '98765432109,01234567897' }),
    );
    expect(result.perCode).toEqual([
      {
        taxCode: '98765432109',
        name: 'BETA SPA',
        totalDocuments: 1,
        totalImport: 250_000,
        deMinimisUsed: 250_000,
        remainingDeMinimis: 50_000,
      },
      {
        taxCode: '01234567897',
        name: 'ALFA SRL',
        totalDocuments: 1,
        totalImport: 100_000,
        deMinimisUsed: 100_000,
        remainingDeMinimis: 200_000,
      },
    ]);
    // the cards still add the companies up, as before
    expect(result.stats.totalImport).toBe(350_000);
  });

  it('charges nothing for the same search again the same day', async () => {
    await grantAllowance(eventStore, 'c3', 5, NEXT_YEAR);
    const searcher = { actor: clientActor('c3'), fixedTaxCode: null };
    const request = searchRequestFrom({ taxCodes: '01234567897' });
    expect((await performSearch(deps, searcher, request)).remainingSearches).toBe(4);
    expect((await performSearch(deps, searcher, request)).remainingSearches).toBe(4);
  });

  it('refuses an expired client with A002 and keeps the refusal on the stream', async () => {
    await grantAllowance(eventStore, 'c4', 5, Date.parse('2025-01-01T11:00:00Z'));
    const attempt = performSearch(
      deps,
      { actor: clientActor('c4'), fixedTaxCode: null },
      searchRequestFrom({ taxCodes: '01234567897' }),
    );
    await expect(attempt).rejects.toMatchObject({ code: 'A002' });
    expect((await quotaEvents('c4')).map((e) => e.type)).toEqual(['SearchAllowanceGranted', 'SearchRefused']);
  });

  it('does not meter ADMIN searches', async () => {
    const result = await performSearch(
      deps,
      { actor: ADMIN, fixedTaxCode: null },
      searchRequestFrom({ taxCodes: '01234567897' }),
    );
    expect(result.rows).toHaveLength(2);
    expect(result.remainingSearches).toBeUndefined();
    expect((await eventStore.readStream(streams.quota(ADMIN.userId))).currentVersion).toBe(-1);
  });

  it('lets a user with a fixed tax code search only that code', async () => {
    await grantAllowance(eventStore, 'c5', 5, NEXT_YEAR);
    const searcher = { actor: clientActor('c5'), fixedTaxCode: '01234567897' };
    await expect(
      performSearch(deps, searcher, searchRequestFrom({ taxCodes: '98765432109' })),
    ).rejects.toMatchObject({ code: 'P001' });
    await expect(
      performSearch(deps, searcher, searchRequestFrom({ taxCodes: '01234567897' })),
    ).resolves.toBeTruthy();
  });

  it('answers T001 without tax codes and T002 for a code shorter than 11 characters', () => {
    expect(() => searchRequestFrom({ taxCodes: ' , ' })).toThrow(expect.objectContaining({ code: 'T001' }));
    expect(() => searchRequestFrom({})).toThrow(expect.objectContaining({ code: 'T001' }));
    expect(() => searchRequestFrom({ taxCodes: '01234567897,1234' })).toThrow(
      expect.objectContaining({ code: 'T002' }),
    );
  });
});
