/** The audit screen as an auditor uses it: whose history, which dates, the state at the end of the range. */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntryDto, AuditHistoryDto } from '@rna/domain';
import { adminUser, signedInRoutes, startRememberedApp } from '../../test/app';
import type { FakeRoutes } from '../../test/fake-server';

const ADMIN = adminUser('admin-1', 'admin@example.it');

const entry = (version: number, overrides: Partial<AuditEntryDto>): AuditEntryDto => ({
  version,
  kind: 'SEARCH',
  at: Date.UTC(2026, 2, version + 1, 9),
  by: { userId: 'c1', email: 'cliente@example.it', role: 'CLIENT' },
  taxCodes: ['01234567897'],
  deMinimis: false,
  last3Years: false,
  dataSource: 'ARCHIVE',
  resultCount: 3,
  cost: 1,
  detail: null,
  remainingSearches: 10 - version,
  ...overrides,
});

const history = (entries: AuditEntryDto[], remaining: number): AuditHistoryDto => ({
  clientId: 'c1',
  asOf: null,
  entries,
  totalEntries: entries.length,
  nextFrom: null,
  remainingSearches: remaining,
  availableYearlySearches: 50,
  endDate: Date.UTC(2027, 0, 1, 11),
});

function routes(): FakeRoutes {
  return {
    ...signedInRoutes(ADMIN),
    'GET /api/clients': {
      status: 200,
      body: [{ id: 'c1', email: 'cliente@example.it' }],
    },
    'GET /api/audit/users/admin-1/history?from=0&limit=200': {
      status: 200,
      body: history(
        [entry(0, { by: { userId: 'admin-1', email: 'admin@example.it', role: 'ADMIN' }, cost: 0 })],
        0,
      ),
    },
    'GET /api/audit/clients/c1/history?from=0&limit=200': {
      status: 200,
      body: history(
        [
          entry(0, {
            kind: 'ALLOWANCE',
            taxCodes: [],
            resultCount: null,
            cost: 0,
            detail: '10/50',
            remainingSearches: 10,
          }),
          entry(1, {}),
          entry(2, { kind: 'DOWNLOAD', detail: 'pdf', resultCount: null, cost: 0, remainingSearches: 9 }),
          entry(3, { kind: 'REFUSAL', detail: 'U004', resultCount: null, cost: 0, remainingSearches: 0 }),
        ],
        0,
      ),
    },
  };
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the audit screen', () => {
  it('opens on the administrator’s own activity, then replays a client’s history with what was left after each', async () => {
    const fake = routes();
    const { calls } = await startRememberedApp(fake, '/audit');
    await screen.findByRole('heading', { name: 'Registro delle attività' });
    const table = screen.getByRole('table', { name: 'Cronologia' });
    await within(table).findByText('admin@example.it');

    await userEvent.selectOptions(screen.getByLabelText('Utente'), 'cliente@example.it');
    await within(table).findByText('Abbonamento');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual([
      'Abbonamento',
      'Ricerca',
      'Scaricamento',
      'Rifiuto',
    ]);
    expect(rows[3]).toHaveTextContent('U004: Ricerche disponibili esaurite');
    expect(rows[1]).toHaveTextContent('Archivio');
    expect(within(rows[1]!).getAllByRole('cell')[7]).toHaveTextContent('9');
    expect(calls).toContain('GET /api/audit/clients/c1/history?from=0&limit=200');
  });

  it('asks for a date range, and shows the state at its end', async () => {
    const fake = routes();
    const since = new Date(2026, 2, 2).getTime();
    const at = new Date(2026, 2, 3, 23, 59, 59, 999).getTime();
    fake[`GET /api/audit/users/admin-1/history?since=${since}&at=${at}&from=0&limit=200`] = {
      status: 200,
      body: history([], 7),
    };
    const { calls } = await startRememberedApp(fake, '/audit');
    await screen.findByRole('heading', { name: 'Registro delle attività' });
    await userEvent.type(screen.getByLabelText('Dal'), '02-03-2026{Enter}');
    await userEvent.type(screen.getByLabelText('Al (stato a questa data)'), '03-03-2026{Enter}');
    await screen.findByText('Ricerche rimanenti al 03-03-2026');
    await screen.findByText('Nessuna attività nel periodo');
    expect(calls).toContain(`GET /api/audit/users/admin-1/history?since=${since}&at=${at}&from=0&limit=200`);
  });
});
