import { clientDecider, signInStep } from './clients';
import { stateOf } from './decider';
import { romeNoonEpochMs } from './dates';
import type { Actor, ClientEvent, QuotaEvent, SearchRequest, SyncEvent } from './events';
import { quotaDecider } from './quotas';
import { syncControlDecider, type SyncRequest } from './sync-control';
import { deciderSpecification } from './testing';

const admin: Actor = { userId: 'admin-1', email: 'admin@portale.it', role: 'ADMIN' };
const client: Actor = { userId: 'c1', email: 'studio@rossi.it', role: 'CLIENT' };

describe('the quota decider (quota-<clientId>)', () => {
  const spec = deciderSpecification(quotaDecider);
  const endDate = romeNoonEpochMs('2026-12-31');
  const granted = (remainingSearches: number): QuotaEvent => ({
    type: 'SearchAllowanceGranted',
    data: { clientId: 'c1', availableYearlySearches: 100, remainingSearches, endDate, at: '2026-01-02T09:00:00.000Z', by: admin },
  }); // prettier-ignore
  const request = (...taxCodes: string[]): SearchRequest => ({
    taxCodes,
    deMinimis: false,
    last3Years: false,
  });
  const lookUp = (at: string, purpose: 'search' | 'pdf', ...taxCodes: string[]) => ({
    type: 'ChargeLookUp' as const,
    data: { clientId: 'c1', by: client, at, request: request(...taxCodes), purpose, dataSource: 'ARCHIVE' as const, resultCount: 4 },
  }); // prettier-ignore
  const performed = (at: string, cost: number, ...taxCodes: string[]): QuotaEvent => ({
    type: 'SearchPerformed',
    data: { ...request(...taxCodes), clientId: 'c1', at, by: client, dataSource: 'ARCHIVE', resultCount: 4, cost },
  }); // prettier-ignore

  it('charges one search per tax code', () => {
    const at = '2026-03-10T10:00:00.000Z';
    spec
      .given([granted(10)])
      .when(lookUp(at, 'search', '01234567897', '12345678903'))
      .then([performed(at, 2, '01234567897', '12345678903')]);
  });

  it('charges nothing for a code already looked up the same day in Rome, and again the next day', () => {
    const morning = '2026-03-10T08:00:00.000Z';
    const evening = '2026-03-10T22:30:00.000Z'; // 23:30 in Rome: still the 10th
    const nextDay = '2026-03-10T23:30:00.000Z'; // 00:30 of the 11th in Rome
    spec
      .given([granted(10), performed(morning, 1, '01234567897')])
      .when(lookUp(evening, 'search', '01234567897'))
      .then([performed(evening, 0, '01234567897')]);
    spec
      .given([granted(10), performed(morning, 1, '01234567897')])
      .when(lookUp(nextDay, 'search', '01234567897'))
      .then([performed(nextDay, 1, '01234567897')]);
  });

  it('records a report that is not free as a search, then the download', () => {
    const at = '2026-03-10T10:00:00.000Z';
    spec
      .given([granted(10)])
      .when(lookUp(at, 'pdf', '01234567897'))
      .then([
        performed(at, 1, '01234567897'),
        { type: 'ReportDownloaded', data: { ...request('01234567897'), clientId: 'c1', at, by: client, kind: 'pdf' } },
      ]); // prettier-ignore
  });

  it('refuses, charging nothing, more new codes than remain (U004) and any look-up past the end date (A002)', () => {
    const at = '2026-03-10T10:00:00.000Z';
    spec
      .given([granted(1)])
      .when(lookUp(at, 'search', '01234567897', '12345678903'))
      .then([
        { type: 'SearchRefused', data: { ...request('01234567897', '12345678903'), clientId: 'c1', at, by: client, code: 'U004' } },
      ]); // prettier-ignore
    const late = '2027-01-01T10:00:00.000Z';
    spec
      .given([granted(10)])
      .when(lookUp(late, 'search', '01234567897'))
      .then([{ type: 'SearchRefused', data: { ...request('01234567897'), clientId: 'c1', at: late, by: client, code: 'A002' } }]); // prettier-ignore
  });

  it('records an allowance as the administrator gave it', () => {
    const data = { clientId: 'c1', availableYearlySearches: 40, remainingSearches: 12, endDate, at: '2026-02-01T09:00:00.000Z', by: admin }; // prettier-ignore
    spec
      .given([granted(3)])
      .when({ type: 'GrantAllowance', data })
      .then([{ type: 'SearchAllowanceGranted', data }]);
  });

  it('records a free report (its codes looked up today) as the download alone, with its verification stamp', () => {
    const morning = '2026-03-10T08:00:00.000Z';
    const at = '2026-03-10T10:00:00.000Z';
    const command = lookUp(at, 'pdf', '01234567897');
    spec
      .given([granted(10), performed(morning, 1, '01234567897')])
      .when({ ...command, data: { ...command.data, report: { code: 'RNA-7Q2K', organisation: 'Studio Rossi' } } })
      .then([
        { type: 'ReportDownloaded', data: { ...request('01234567897'), clientId: 'c1', at, by: client, kind: 'pdf', reportCode: 'RNA-7Q2K', organisation: 'Studio Rossi' } },
      ]); // prettier-ignore
  });

  it('names the bulk job a charged look-up belongs to', () => {
    const at = '2026-03-10T10:00:00.000Z';
    const command = lookUp(at, 'search', '01234567897');
    spec
      .given([granted(10)])
      .when({ ...command, data: { ...command.data, bulkJobId: 'job-1' } })
      .then([{ type: 'SearchPerformed', data: { ...request('01234567897'), clientId: 'c1', at, by: client, dataSource: 'ARCHIVE', resultCount: 4, cost: 1, bulkJobId: 'job-1' } }]); // prettier-ignore
  });

  it('renews a year from the later of today and the end date, with the full yearly allowance again', () => {
    const at = '2026-06-01T10:00:00.000Z';
    spec
      .given([granted(3)])
      .when({ type: 'RenewAccess', data: { clientId: 'c1', at, by: admin } })
      .then([
        {
          type: 'SearchAllowanceGranted',
          data: { clientId: 'c1', availableYearlySearches: 100, remainingSearches: 100, endDate: romeNoonEpochMs('2027-12-31'), at, by: admin },
        },
      ]); // prettier-ignore
  });
});

describe('the client decider (client-<id>)', () => {
  const spec = deciderSpecification(clientDecider);
  const invited: ClientEvent = {
    type: 'ClientInvited',
    data: { clientId: 'c1', email: 'studio@rossi.it', fixedTaxCode: null, invitedAt: '2026-01-02T09:00:00.000Z', by: admin },
  }; // prettier-ignore

  it('sets and removes the fixed tax code', () => {
    spec
      .given([invited])
      .when({ type: 'SetFixedTaxCode', data: { clientId: 'c1', fixedTaxCode: '01234567897', by: admin } })
      .then([
        { type: 'ClientFixedTaxCodeSet', data: { clientId: 'c1', fixedTaxCode: '01234567897', by: admin } },
      ]);
    spec
      .given([invited])
      .when({ type: 'SetFixedTaxCode', data: { clientId: 'c1', fixedTaxCode: null, by: admin } })
      .then([{ type: 'ClientFixedTaxCodeRemoved', data: { clientId: 'c1', by: admin } }]);
  });

  it('records only the flags that were sent', () => {
    spec
      .given([invited])
      .when({ type: 'SetFlags', data: { clientId: 'c1', enableVariationAlerts: true, by: admin } })
      .then([
        { type: 'ClientVariationAlertsEnabledSet', data: { clientId: 'c1', enabled: true, by: admin } },
      ]);
  });

  const activated: ClientEvent = { type: 'ClientActivated', data: { clientId: 'c1', activatedAt: '2026-01-03T08:00:00.000Z' } }; // prettier-ignore
  const at = '2026-01-05T10:00:00.000Z';

  it('activates the client when it chooses its first password, in the session the code opened', () => {
    spec
      .given([invited])
      .when({ type: 'ChooseFirstPassword', data: { clientId: 'c1', at, signedIn: true } })
      .then([
        { type: 'ClientActivated', data: { clientId: 'c1', activatedAt: at } },
        { type: 'ClientAccessed', data: { clientId: 'c1', accessedAt: at } },
      ]);
    // from a reset link: active, but no access recorded (it has not signed in)
    spec
      .given([invited])
      .when({ type: 'ChooseFirstPassword', data: { clientId: 'c1', at, signedIn: false } })
      .then([{ type: 'ClientActivated', data: { clientId: 'c1', activatedAt: at } }]);
  });

  it('records nothing when the first password was chosen already (a second tab, a retry)', () => {
    spec
      .given([invited, activated])
      .when({ type: 'ChooseFirstPassword', data: { clientId: 'c1', at, signedIn: true } })
      .then([]);
  });

  it('records a sign-in only once the client chose its password: before, the code opens nothing (A004)', () => {
    spec
      .given([invited])
      .when({ type: 'RecordSignIn', data: { clientId: 'c1', at } })
      .thenThrows('A004');
    spec
      .given([invited, activated])
      .when({ type: 'RecordSignIn', data: { clientId: 'c1', at } })
      .then([{ type: 'ClientAccessed', data: { clientId: 'c1', accessedAt: at } }]);
  });

  it('tells a sign-in with the invitation code from one with the client’s own password', () => {
    expect(signInStep(stateOf(clientDecider, [invited]))).toBe('choose-password');
    expect(signInStep(stateOf(clientDecider, [invited, activated]))).toBe('signed-in');
  });

  it('refuses every change to a client never invited or already removed (U001)', () => {
    spec
      .given([])
      .when({ type: 'AssignLogo', data: { clientId: 'c1', logoId: 2, by: admin } })
      .thenThrows('U001');
    spec
      .given([invited, { type: 'ClientRemoved', data: { clientId: 'c1', by: admin } }])
      .when({ type: 'RemoveClient', data: { clientId: 'c1', by: admin } })
      .thenThrows('U001');
    spec
      .given([invited, activated, { type: 'ClientRemoved', data: { clientId: 'c1', by: admin } }])
      .when({ type: 'RecordSignIn', data: { clientId: 'c1', at: '2026-01-05T10:00:00.000Z' } })
      .thenThrows('U001');
  });
});

describe('the sync-control decider (sync-control)', () => {
  const spec = deciderSpecification(syncControlDecider);
  const request = (runId: string): SyncRequest => ({
    runId,
    scope: 'LAST_YEAR',
    onlyDocuments: [],
    at: '2026-03-10T10:00:00.000Z',
    by: admin,
  });
  const requested = (runId: string): SyncEvent => ({ type: 'SyncRequested', data: request(runId) });
  const completed = (runId: string): SyncEvent => ({
    type: 'SyncCompleted',
    data: { runId, at: '2026-03-10T10:05:00.000Z', succeeded: 1, failed: 0, skipped: 0, records: 3 },
  });

  it('starts a run when none is going', () => {
    spec
      .given([])
      .when({ type: 'RequestSync', data: request('r1') })
      .then([requested('r1')]);
    spec
      .given([requested('r1'), completed('r1')])
      .when({ type: 'RequestSync', data: request('r2') })
      .then([requested('r2')]);
  });

  it('refuses a second run while one is going (S001), whatever ended before it', () => {
    spec
      .given([requested('r1')])
      .when({ type: 'RequestSync', data: request('r2') })
      .thenThrows('S001');
    spec
      .given([requested('r1'), completed('r0')])
      .when({ type: 'RequestSync', data: request('r2') })
      .thenThrows('S001');
  });

  it('keeps the chosen files only for a custom run', () => {
    spec
      .given([])
      .when({ type: 'RequestSync', data: { ...request('r1'), onlyDocuments: ['2024_01'] } })
      .then([requested('r1')]);
    const custom: SyncRequest = { ...request('r2'), scope: 'CUSTOM', onlyDocuments: ['2024_01', '2014_12'] };
    spec
      .given([])
      .when({ type: 'RequestSync', data: custom })
      .then([{ type: 'SyncRequested', data: custom }]);
  });

  it('keeps a run going while it starts and works through its files, until it completes', () => {
    const started: SyncEvent = {
      type: 'SyncStarted',
      data: { runId: 'r1', files: ['2024_01'], at: '2026-03-10T10:00:01.000Z' },
    };
    const queued: SyncEvent = {
      type: 'RegisterFileQueued',
      data: { runId: 'r1', name: '2024_01', at: '2026-03-10T10:00:02.000Z' },
    };
    spec
      .given([requested('r1'), started, queued])
      .when({ type: 'RequestSync', data: request('r2') })
      .thenThrows('S001');
    spec
      .given([requested('r1'), started, queued, completed('r1')])
      .when({ type: 'RequestSync', data: request('r2') })
      .then([requested('r2')]);
  });

  it('lets a new run start once the one going has failed', () => {
    spec
      .given([
        requested('r1'),
        { type: 'SyncFailed', data: { runId: 'r1', at: '2026-03-10T10:01:00.000Z', reason: 'x' } },
      ])
      .when({ type: 'RequestSync', data: request('r2') })
      .then([requested('r2')]);
  });
});
