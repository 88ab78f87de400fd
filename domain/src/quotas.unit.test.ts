import type { Actor, QuotaEvent, QuotaState, SearchRequest } from './events';
import { decideReportDownload, decideSearch, evolveQuota, initialQuotaState, quotaStateOf } from './quotas';

const admin: Actor = { userId: 'admin-1', email: 'admin@example.it', role: 'ADMIN' };
const client: Actor = { userId: 'client-1', email: 'cliente@example.it', role: 'CLIENT' };
const endDate = Date.UTC(2025, 11, 31, 11, 0); // 31 Dec 2025, 12:00 in Rome

const granted = (remainingSearches: number, at = '2025-01-02T09:00:00.000Z'): QuotaEvent => ({
  type: 'SearchAllowanceGranted',
  data: { clientId: 'c1', availableYearlySearches: 50, remainingSearches, endDate, at, by: admin },
});
const performed = (request: SearchRequest, at: string, cost: number): QuotaEvent => ({
  type: 'SearchPerformed',
  data: { ...request, clientId: 'c1', at, by: client, dataSource: 'ARCHIVE', resultCount: 3, cost },
});
const downloaded = (request: SearchRequest, at: string): QuotaEvent => ({
  type: 'ReportDownloaded',
  data: { ...request, clientId: 'c1', at, by: client, kind: 'pdf' },
});
const refused = (request: SearchRequest, at: string): QuotaEvent => ({
  type: 'SearchRefused',
  data: { ...request, clientId: 'c1', at, by: client, code: 'U004' },
});

const twoCodes: SearchRequest = {
  taxCodes: ['01234567897', 'RSSMRA85T10A562S'],
  deMinimis: false,
  last3Years: true,
};

/** Given events, when the client searches at `now`: decide, and append what the API would append. */
function searchAt(
  state: QuotaState,
  request: SearchRequest,
  now: string,
): { state: QuotaState; cost: number } {
  const decision = decideSearch(state, request, new Date(now));
  if (!decision.ok) throw new Error(`refused ${decision.code}`);
  return { state: evolveQuota(state, performed(request, now, decision.cost)), cost: decision.cost };
}

describe('charging: a tax code looked up today costs nothing again', () => {
  const at = (time: string) => new Date(`2025-03-10T${time}Z`);
  const one = (code: string, flags: Partial<SearchRequest> = {}): SearchRequest => ({
    taxCodes: [code],
    deMinimis: false,
    last3Years: false,
    ...flags,
  });

  it('whatever the filters: the same company, then de minimis only, then the last 3 years cost one search', () => {
    // given 9 searches left
    let state = quotaStateOf([granted(9)]);
    // when the client searches one code, then ticks each filter
    const costs: number[] = [];
    for (const request of [
      one('01234567897'),
      one('01234567897', { deMinimis: true }),
      one('01234567897', { deMinimis: true, last3Years: true }),
      one(' 0123 4567 897 ', { last3Years: true }),
    ]) {
      const step = searchAt(state, request, '2025-03-10T09:00:00Z');
      costs.push(step.cost);
      state = step.state;
    }
    // then it paid once
    expect(costs).toEqual([1, 0, 0, 0]);
    expect(state.remainingSearches).toBe(8);
  });

  it('whatever the format: a report of a code looked up today is free, and a report first makes the search free', () => {
    const afterSearch = quotaStateOf([granted(9), performed(one('01234567897'), '2025-03-10T08:00:00Z', 1)]);
    expect(
      decideReportDownload(afterSearch, one('01234567897', { deMinimis: true }), at('15:00:00')),
    ).toEqual({
      ok: true,
      cost: 0,
    });
    const afterReport = quotaStateOf([
      granted(9),
      performed(one('01234567897'), '2025-03-10T08:00:00Z', 1),
      downloaded(one('01234567897'), '2025-03-10T08:00:01Z'),
    ]);
    expect(decideSearch(afterReport, one('01234567897', { last3Years: true }), at('16:00:00'))).toEqual({
      ok: true,
      cost: 0,
    });
  });

  it('a multiple search pays only for its codes not yet looked up today', () => {
    const state = quotaStateOf([granted(9), performed(one('01234567897'), '2025-03-10T08:00:00Z', 1)]);
    const three = {
      taxCodes: ['01234567897', 'RSSMRA85T10A562S', '98765432109'],
      deMinimis: true,
      last3Years: false,
    };
    expect(decideSearch(state, three, at('10:00:00'))).toEqual({ ok: true, cost: 2 });
  });

  it('refuses the whole search, charging nothing, when its new codes exceed what is left', () => {
    const state = quotaStateOf([granted(2), performed(one('01234567897'), '2025-03-10T08:00:00Z', 1)]);
    expect(state.remainingSearches).toBe(1);
    const three = {
      taxCodes: ['01234567897', 'RSSMRA85T10A562S', '98765432109'],
      deMinimis: false,
      last3Years: false,
    };
    // two new codes, one search left: U004, and the code already looked up does not make it pass
    expect(decideSearch(state, three, at('10:00:00'))).toEqual({ ok: false, code: 'U004' });
    expect(evolveQuota(state, refused(three, '2025-03-10T10:00:00Z')).remainingSearches).toBe(1);
    // the code looked up today is still free at one search left, and at none
    expect(decideSearch(state, one('01234567897', { deMinimis: true }), at('10:00:00'))).toEqual({
      ok: true,
      cost: 0,
    });
  });
});

describe('quota decider', () => {
  it('refuses with A002 before any allowance is granted', () => {
    expect(decideSearch(initialQuotaState, twoCodes, new Date('2025-03-01T10:00:00Z'))).toEqual({
      ok: false,
      code: 'A002',
    });
  });

  it('grants 50, charges one unit per distinct code, and a same-day repeat is free', () => {
    let state = quotaStateOf([granted(50)]);
    expect(state).toMatchObject({ remainingSearches: 50, availableYearlySearches: 50, endDate });

    const first = searchAt(
      state,
      { ...twoCodes, taxCodes: ['01234567897', '01234567897 ', 'RSSMRA85T10A562S'] },
      '2025-03-10T08:00:00Z',
    );
    expect(first.cost).toBe(2);
    state = first.state;
    expect(state.remainingSearches).toBe(48);

    // same codes in another order and case, same flags, later the same Rome day
    const repeat = searchAt(
      state,
      { ...twoCodes, taxCodes: ['rssmra85t10a562s', '01234567897'] },
      '2025-03-10T22:30:00Z',
    );
    expect(repeat.cost).toBe(0);
    expect(repeat.state.remainingSearches).toBe(48);

    // other flags on the same codes are free too: the codes were looked up today
    expect(decideSearch(state, { ...twoCodes, deMinimis: true }, new Date('2025-03-10T12:00:00Z'))).toEqual({
      ok: true,
      cost: 0,
    });
  });

  it('charges the same search again on the next calendar day in Rome', () => {
    const state = quotaStateOf([granted(50), performed(twoCodes, '2025-03-10T08:00:00Z', 2)]);
    // 23:30 UTC on 10 Mar is already 11 Mar in Rome
    expect(decideSearch(state, twoCodes, new Date('2025-03-10T23:30:00Z'))).toEqual({ ok: true, cost: 2 });
    expect(decideSearch(state, twoCodes, new Date('2025-03-10T22:59:00Z'))).toEqual({ ok: true, cost: 0 });
  });

  it('refuses the whole search with U004 when it costs more than what remains', () => {
    const state = quotaStateOf([granted(1)]);
    expect(decideSearch(state, twoCodes, new Date('2025-03-10T08:00:00Z'))).toEqual({
      ok: false,
      code: 'U004',
    });
    expect(
      decideSearch(state, { ...twoCodes, taxCodes: ['01234567897'] }, new Date('2025-03-10T08:00:00Z')),
    ).toEqual({
      ok: true,
      cost: 1,
    });
  });

  it('lets codes looked up today through at 0 remaining, but no new code', () => {
    const state = quotaStateOf([granted(2), performed(twoCodes, '2025-03-10T08:00:00Z', 2)]);
    expect(state.remainingSearches).toBe(0);
    expect(decideSearch(state, twoCodes, new Date('2025-03-10T09:00:00Z'))).toEqual({ ok: true, cost: 0 });
    expect(
      decideSearch(state, { ...twoCodes, taxCodes: ['01234567897'] }, new Date('2025-03-10T09:00:00Z')),
    ).toEqual({ ok: true, cost: 0 });
    expect(
      decideSearch(state, { ...twoCodes, taxCodes: ['98765432109'] }, new Date('2025-03-10T09:00:00Z')),
    ).toEqual({
      ok: false,
      code: 'U004',
    });
  });

  it('refuses with A002 from the end date on, even a repeat', () => {
    const state = quotaStateOf([granted(50), performed(twoCodes, '2025-12-31T08:00:00Z', 2)]);
    expect(decideSearch(state, twoCodes, endDate - 1)).toEqual({ ok: true, cost: 0 });
    expect(decideSearch(state, twoCodes, endDate)).toEqual({ ok: false, code: 'A002' });
    expect(decideReportDownload(state, twoCodes, endDate + 1)).toEqual({ ok: false, code: 'A002' });
  });

  it('a new allowance (renewal) replaces remaining and end date', () => {
    const renewed: QuotaEvent = {
      type: 'SearchAllowanceGranted',
      data: {
        clientId: 'c1',
        availableYearlySearches: 100,
        remainingSearches: 100,
        endDate: endDate + 365 * 86_400_000,
        at: '2026-01-05T09:00:00Z',
        by: admin,
      },
    };
    const state = quotaStateOf([granted(0), renewed]);
    expect(decideSearch(state, twoCodes, Date.UTC(2026, 0, 10))).toEqual({ ok: true, cost: 2 });
    expect(state.availableYearlySearches).toBe(100);
  });

  it('leaves the state unchanged on a refusal', () => {
    const state = quotaStateOf([granted(1)]);
    expect(evolveQuota(state, refused(twoCodes, '2025-03-10T08:00:00Z'))).toBe(state);
  });

  it('keeps only the codes of the latest day', () => {
    const state = quotaStateOf([
      granted(50),
      performed(twoCodes, '2025-03-10T08:00:00Z', 2),
      performed({ ...twoCodes, taxCodes: ['98765432109'] }, '2025-03-11T08:00:00Z', 1),
    ]);
    expect(state.lookedUpToday).toEqual({ day: '2025-03-11', codes: ['98765432109'] });
  });
});

describe('report downloads', () => {
  it('are free for a search performed today', () => {
    const state = quotaStateOf([granted(50), performed(twoCodes, '2025-03-10T08:00:00Z', 2)]);
    expect(decideReportDownload(state, twoCodes, new Date('2025-03-10T15:00:00Z'))).toEqual({
      ok: true,
      cost: 0,
    });
  });

  it('cost like the search otherwise, and are refused like it', () => {
    const state = quotaStateOf([granted(50), performed(twoCodes, '2025-03-09T08:00:00Z', 2)]);
    expect(decideReportDownload(state, twoCodes, new Date('2025-03-10T15:00:00Z'))).toEqual({
      ok: true,
      cost: 2,
    });
    expect(
      decideReportDownload(quotaStateOf([granted(1)]), twoCodes, new Date('2025-03-10T15:00:00Z')),
    ).toEqual({
      ok: false,
      code: 'U004',
    });
  });

  it('make the same search free for the rest of the day once downloaded', () => {
    const state = quotaStateOf([granted(50), downloaded(twoCodes, '2025-03-10T09:00:00Z')]);
    expect(state.remainingSearches).toBe(50);
    expect(decideSearch(state, twoCodes, new Date('2025-03-10T16:00:00Z'))).toEqual({ ok: true, cost: 0 });
    expect(decideSearch(state, twoCodes, new Date('2025-03-11T16:00:00Z'))).toEqual({ ok: true, cost: 2 });
  });
});

describe('what the day remembers', () => {
  const one = (...taxCodes: string[]): SearchRequest => ({ taxCodes, deMinimis: false, last3Years: false });

  it('adds a second search of the same day to the first: both companies are free for the rest of the day', () => {
    const state = quotaStateOf([
      granted(50),
      performed(one('01234567897'), '2025-03-10T08:00:00Z', 1),
      performed(one('RSSMRA85T10A562S', '01234567897'), '2025-03-10T09:00:00Z', 1),
    ]);
    expect(state.lookedUpToday).toEqual({ day: '2025-03-10', codes: ['01234567897', 'RSSMRA85T10A562S'] });
    expect(
      decideSearch(state, one('RSSMRA85T10A562S', '01234567897'), new Date('2025-03-10T18:00:00Z')),
    ).toEqual({
      ok: true,
      cost: 0,
    });
  });

  it('a late event of an earlier day does not make today’s companies cost again', () => {
    const state = quotaStateOf([
      granted(50),
      performed(one('01234567897'), '2025-03-11T08:00:00Z', 1),
      performed(one('98765432109'), '2025-03-10T20:00:00Z', 1),
    ]);
    expect(state.lookedUpToday).toEqual({ day: '2025-03-11', codes: ['01234567897'] });
    expect(decideSearch(state, one('01234567897'), new Date('2025-03-11T10:00:00Z'))).toEqual({
      ok: true,
      cost: 0,
    });
  });

  it('an unreadable timestamp still charges but neither forgets nor frees anything', () => {
    const before = quotaStateOf([granted(50), performed(one('01234567897'), '2025-03-10T08:00:00Z', 1)]);
    const after = evolveQuota(before, performed(one('98765432109'), 'not a date', 1));
    expect(after.remainingSearches).toBe(before.remainingSearches - 1);
    expect(after.lookedUpToday).toEqual({ day: '2025-03-10', codes: ['01234567897'] });
  });

  it('a refund gives the searches back', () => {
    const state = quotaStateOf([
      granted(10),
      performed(one('01234567897', '98765432109'), '2025-03-10T08:00:00Z', 2),
      {
        type: 'SearchRefunded',
        data: {
          clientId: 'c1',
          at: '2025-03-10T08:05:00Z',
          by: admin,
          cost: 2,
          bulkJobId: 'j1',
          reason: 'B008',
        },
      },
    ]);
    expect(state.remainingSearches).toBe(10);
  });
});
