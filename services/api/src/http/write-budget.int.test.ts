/**
 * Every route that writes counts in its user's budget of writes (60 a minute by default): one account
 * saving searches in a loop (300 saves in 1.7 s added 7 MB to the event store) is told to retry
 * later, while other users write as usual and the account still reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { openSqliteDocumentStore } from '@rna/infra/documents';
import {
  countPaidRequest,
  countWriteRequest,
  DEFAULT_WRITE_REQUESTS_PER_MINUTE,
  REQUEST_BUDGETS_COLLECTION,
  RetryLaterError,
} from './paid-work-limit';
import { startApiHarness, type ApiHarness } from '../documents/testing';

jest.setTimeout(60_000);

describe('the per-user budget of writes', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    // the harness lifts the budget for tests that race; this one runs with the portal's default
    api = await startApiHarness({ writeRequestsPerMinute: DEFAULT_WRITE_REQUESTS_PER_MINUTE });
  });
  afterAll(() => api.close());

  const save = (token: string, code: string) =>
    request(api.app)
      .put('/api/users/saved-searches')
      .set('Authorization', `Bearer ${token}`)
      .send([{ taxCodes: [code], deMinimis: false, last3Years: false }]);

  it('answers Q001 with Retry-After past the budget, for that user only', async () => {
    const greedy = await api.client({ remainingSearches: 10 });
    const other = await api.client({ remainingSearches: 10 });
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_WRITE_REQUESTS_PER_MINUTE + 5; i++)
      statuses.push((await save(greedy.token, String(10_000_000_000 + i))).status);
    expect(statuses.slice(0, DEFAULT_WRITE_REQUESTS_PER_MINUTE).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(DEFAULT_WRITE_REQUESTS_PER_MINUTE)).toEqual([429, 429, 429, 429, 429]);
    const refused = await save(greedy.token, '01234567897');
    expect(refused.body.code).toBe('Q001');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // what was saved last within the budget is kept; reading is not a write
    const kept = await request(api.app)
      .get('/api/users/saved-searches')
      .set('Authorization', `Bearer ${greedy.token}`)
      .expect(200);
    expect(kept.body[0].taxCodes).toEqual([String(10_000_000_000 + DEFAULT_WRITE_REQUESTS_PER_MINUTE - 1)]);
    await save(other.token, '01234567897').expect(200);
  });
});

describe('budgets shared by several API processes', () => {
  type Budgets = Parameters<typeof countWriteRequest>[0];
  const withTwoProcesses = async (run: (a: Budgets, b: Budgets) => Promise<void>, shared: boolean) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'budgets-'));
    // two connections to one store file, as two API processes on one DATA_DIR have
    const first = openSqliteDocumentStore(path.join(dir, 'documents.db'));
    const second = openSqliteDocumentStore(path.join(dir, 'documents.db'));
    const deps = (documents: typeof first): Budgets => ({
      documents,
      writeRequestsPerMinute: 10,
      paidRequestsPerMinute: 10,
      sharedRequestBudgets: shared,
    });
    try {
      await run(deps(first), deps(second));
    } finally {
      await first.close();
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const outcomes = (counts: Promise<void>[]) =>
    Promise.all(
      counts.map((c) =>
        c.then(
          () => 'ok',
          (e: unknown) => (e instanceof RetryLaterError ? 'Q001' : String(e)),
        ),
      ),
    );

  it('give a user one budget across the processes, not one per process', () =>
    withTwoProcesses(async (a, b) => {
      const writes = await outcomes(
        Array.from({ length: 16 }, (_, i) => countWriteRequest(i % 2 ? a : b, 'greedy')),
      );
      expect(writes.filter((o) => o === 'ok')).toHaveLength(10);
      expect(writes.filter((o) => o === 'Q001')).toHaveLength(6);
      // another user, and the other budget, are counted apart
      await countWriteRequest(b, 'other');
      await countPaidRequest(a, 'greedy');
    }, true));

  it('are one per process when a single process counts in memory', () =>
    withTwoProcesses(async (a, b) => {
      const writes = await outcomes(
        Array.from({ length: 16 }, (_, i) => countWriteRequest(i % 2 ? a : b, 'greedy')),
      );
      expect(writes.filter((o) => o === 'ok')).toHaveLength(16);
    }, false));

  // a minute of the epoch: shared counters count by it; a process's own counter by the minute from
  // the user's first count, which here begins with it
  const minuteStart = Date.UTC(2026, 10, 26, 10, 0); // the first instant of a minute

  it.each([true, false])(
    'tell a user refused 15 s into the minute to retry in 45 s, when it ends (shared counters: %s)',
    (shared) =>
      withTwoProcesses(async (a) => {
        const clock = jest.spyOn(Date, 'now').mockReturnValue(minuteStart);
        try {
          for (let i = 0; i < 10; i++) await countWriteRequest(a, 'greedy');
          clock.mockReturnValue(minuteStart + 15_000);
          const refused = await countWriteRequest(a, 'greedy').catch((error: unknown) => error);
          expect(refused).toBeInstanceOf(RetryLaterError);
          expect((refused as RetryLaterError).retryAfterSeconds).toBe(45);
        } finally {
          clock.mockRestore();
        }
      }, shared),
  );

  it("keep one shared counter a user: the minute before is dropped by the minute's first count, and only by it", () =>
    withTwoProcesses(async (a) => {
      const counters = a.documents.collection<{ id: string; hits: number }>(REQUEST_BUDGETS_COLLECTION);
      const minute = minuteStart / 60_000;
      const clock = jest.spyOn(Date, 'now').mockReturnValue(minuteStart + 59_000);
      try {
        for (let i = 0; i < 3; i++) await countPaidRequest(a, 'greedy');
        await countPaidRequest(a, 'other');
        clock.mockReturnValue(minuteStart + 60_500);
        const deletes = jest.spyOn(counters.constructor.prototype as typeof counters, 'delete');
        await countPaidRequest(a, 'greedy');
        await new Promise((resolve) => setImmediate(resolve)); // the drop is not awaited by the count
        expect(await counters.get(`paid:greedy:${minute}`)).toBeNull();
        expect(await counters.get(`paid:greedy:${minute + 1}`)).toEqual(expect.objectContaining({ hits: 1 }));
        // another user's minute is theirs to drop
        expect(await counters.get(`paid:other:${minute}`)).toEqual(expect.objectContaining({ hits: 1 }));
        // the minute's later counts write their counter only
        await countPaidRequest(a, 'greedy');
        await countPaidRequest(a, 'greedy');
        await new Promise((resolve) => setImmediate(resolve));
        expect(deletes).toHaveBeenCalledTimes(1);
        deletes.mockRestore();
      } finally {
        clock.mockRestore();
      }
    }, true));
});
