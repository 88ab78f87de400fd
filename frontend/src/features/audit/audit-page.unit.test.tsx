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
  by: { userId: 'fcf44c00-1111-4222-8333-944445555666', email: 'cliente@example.it', role: 'CLIENT' },
  taxCodes: ['01234567897'],
  deMinimis: false,
  last3Years: false,
  dataSource: 'ARCHIVE',
  resultCount: 3,
  cost: 1,
  detail: null,
  allowance: null,
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
    'GET /api/audit/users/admin-1/history?order=desc&limit=200': {
      status: 200,
      body: history(
        [entry(0, { by: { userId: 'admin-1', email: 'admin@example.it', role: 'ADMIN' }, cost: 0 })],
        0,
      ),
    },
    'GET /api/audit/clients/c1/history?order=desc&limit=200': {
      status: 200,
      body: history(
        [
          // as the API answers order=desc: newest first
          entry(3, { kind: 'REFUSAL', detail: 'U004', resultCount: null, cost: 0, remainingSearches: 0 }),
          entry(2, { kind: 'DOWNLOAD', detail: 'pdf', resultCount: null, cost: 0, remainingSearches: 9 }),
          entry(1, {}),
          entry(0, {
            kind: 'ALLOWANCE',
            taxCodes: [],
            resultCount: null,
            cost: 0,
            allowance: {
              remainingSearches: 10,
              availableYearlySearches: 50,
              endDate: Date.parse('2027-11-25T11:00:00.000Z'),
            },
            remainingSearches: 10,
          }),
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
    // who did it by address and an Italian role word, never a role and an id
    await within(table).findByText('admin@example.it (Amministratore)');

    await userEvent.selectOptions(screen.getByLabelText('Utente'), 'cliente@example.it');
    await within(table).findByText('Abbonamento');
    const rows = within(table).getAllByRole('row').slice(1);
    // newest first, as the server sent them
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]?.textContent)).toEqual([
      'Rifiuto',
      'Scaricamento',
      'Ricerca',
      'Abbonamento',
    ]);
    expect(rows[0]).toHaveTextContent('U004: Ricerche disponibili esaurite');
    // the allowance's end date as a day in Rome, never the ISO instant it is stored as
    expect(rows[3]).toHaveTextContent('10/50 ricerche fino al 25-11-2027');
    expect(rows[3]).not.toHaveTextContent('2027-11-25T');
    // the time in Rome (UTC+1 in March), as the Excel writes it
    expect(within(rows[3]!).getAllByRole('cell')[0]).toHaveTextContent('01-03-2026 10:00');
    expect(rows[2]).toHaveTextContent('Archivio');
    expect(within(rows[2]!).getAllByRole('cell')[2]).toHaveTextContent(/^cliente@example\.it \(Cliente\)$/);
    expect(within(rows[2]!).getAllByRole('cell')[7]).toHaveTextContent('9');
    expect(calls).toContain('GET /api/audit/clients/c1/history?order=desc&limit=200');
  });

  it('asks for a date range, and shows the state at its end', async () => {
    const fake = routes();
    // days in Rome, whatever the browser's zone: 2 March 00:00 to 3 March 23:59:59.999 (UTC+1)
    const since = Date.parse('2026-03-01T23:00:00.000Z');
    const at = Date.parse('2026-03-03T22:59:59.999Z');
    fake[`GET /api/audit/users/admin-1/history?since=${since}&at=${at}&order=desc&limit=200`] = {
      status: 200,
      body: history([], 7),
    };
    const { calls } = await startRememberedApp(fake, '/audit');
    await screen.findByRole('heading', { name: 'Registro delle attività' });
    await userEvent.type(screen.getByLabelText('Dal'), '02-03-2026{Enter}');
    await userEvent.type(screen.getByLabelText('Al (stato a questa data)'), '03-03-2026{Enter}');
    await screen.findByText('Ricerche rimanenti al 03-03-2026');
    await screen.findByText('Nessuna attività nel periodo');
    expect(calls).toContain(
      `GET /api/audit/users/admin-1/history?since=${since}&at=${at}&order=desc&limit=200`,
    );
  });

  it('refuses a range whose start is after its end before asking the server anything', async () => {
    const { calls } = await startRememberedApp(routes(), '/audit');
    await screen.findByRole('heading', { name: 'Registro delle attività' });
    await userEvent.type(screen.getByLabelText('Dal'), '05-03-2026{Enter}');
    await userEvent.type(screen.getByLabelText('Al (stato a questa data)'), '03-03-2026{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'La data «Dal» è successiva alla data «Al»: corregga l’intervallo per vedere la cronologia.',
    );
    expect(screen.getByRole('button', { name: 'Esporta Excel' })).toBeDisabled();
    expect(screen.queryByRole('table', { name: 'Cronologia' })).toBeNull();
    expect(calls.filter((call) => call.includes('at='))).toEqual([]);
  });

  it('pages back in time from the newest entries', async () => {
    const fake = routes();
    fake['GET /api/audit/users/admin-1/history?order=desc&limit=200'] = {
      status: 200,
      body: { ...history([entry(6, { taxCodes: ['66666666666'] })], 0), nextFrom: 5 },
    };
    fake['GET /api/audit/users/admin-1/history?order=desc&from=5&limit=200'] = {
      status: 200,
      body: history([entry(5, { taxCodes: ['55555555555'] })], 0),
    };
    await startRememberedApp(fake, '/audit');
    const table = await screen.findByRole('table', { name: 'Cronologia' });
    await within(table).findByText('66666666666');
    await userEvent.click(screen.getByRole('button', { name: 'Voci meno recenti' }));
    await within(table).findByText('55555555555');
    await userEvent.click(screen.getByRole('button', { name: 'Voci più recenti' }));
    await within(table).findByText('66666666666');
  });

  it('folds the many codes of a multiple search into their count, which opens on the whole list', async () => {
    const fake = routes();
    const codes = Array.from({ length: 47 }, (_, i) => String(10_000_000_000 + i));
    fake['GET /api/audit/users/admin-1/history?order=desc&limit=200'] = {
      status: 200,
      body: history(
        [entry(1, { taxCodes: codes }), entry(0, { taxCodes: ['01234567897', '98765432109'] })],
        0,
      ),
    };
    await startRememberedApp(fake, '/audit');
    const table = await screen.findByRole('table', { name: 'Cronologia' });
    const [many, few] = (await within(table).findAllByRole('row')).slice(1);
    // a couple of codes stay in line
    expect(within(few!).getAllByRole('cell')[3]).toHaveTextContent(/^01234567897, 98765432109$/);
    const cell = within(many!).getAllByRole('cell')[3]!;
    expect(cell).not.toHaveTextContent('10000000000, 10000000001');
    const count = within(cell).getByText('47 codici fiscali');
    expect(within(cell).getByText('10000000046')).not.toBeVisible();
    await userEvent.click(count);
    expect(
      within(cell)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(codes);
    expect(within(cell).getByText('10000000046')).toBeVisible();
  });
});
