/** The clients screen as an administrator uses it: a list that failed, a filtered list, the default logo. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClientDto, LogoDto } from '@rna/domain';
import { adminUser, signedInRoutes, startRememberedApp } from '../../test/app';
import { sentBodies, type FakeRoutes } from '../../test/fake-server';

const client = (i: number, overrides: Partial<ClientDto> = {}): ClientDto => ({
  id: `c${i}`,
  email: `cliente${String(i).padStart(2, '0')}@example.it`,
  taxCode: null,
  invitedAt: Date.UTC(2025, 11, 20, 9),
  active: true,
  activationTime: Date.UTC(2026, 0, 1),
  lastAccessTime: null,
  endDate: Date.UTC(2030, 0, 1, 11), // 12:00 in Rome, as the settings keep it
  availableYearlySearches: 50,
  remainingSearches: 40,
  enableVariationAlerts: false,
  pdfEnabled: true,
  logo: null,
  status: 'Attivo',
  ...overrides,
});

const logo = (id: number, name: string): LogoDto => ({
  id,
  name,
  fileName: `${name}.png`,
  subRenewUrl: '',
  pdfConfig: { primaryColor: '#1f4e79', footer1: '', footer2: '' },
});

function adminRoutes(clients: ClientDto[]): FakeRoutes {
  return {
    ...signedInRoutes(adminUser()),
    'GET /api/clients': { status: 200, body: clients },
    'GET /api/logos': { status: 200, body: [logo(-1, 'default'), logo(3, 'Studio Rossi')] },
  };
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the clients screen', () => {
  it('counts nothing while the list loads, then shows each client’s searches left of the year’s; the waiting tab leads with the e-mail', async () => {
    let answer: () => void = () => undefined;
    const routes = adminRoutes([
      client(1, { remainingSearches: 4 }),
      client(2, { id: 'f3b2c1d0-uuid', active: false, activationTime: null, status: 'In attesa' }),
    ]);
    routes['GET /api/clients'] = {
      ...routes['GET /api/clients']!,
      after: new Promise<void>((resolve) => (answer = resolve)),
    };
    await startRememberedApp(routes, '/clients');
    await screen.findByRole('table', { name: 'Tutti i clienti' });
    // loading: a dash on both cards, never "0" clients or "0 / 0" waiting
    expect(screen.queryByText('0 / 0')).not.toBeInTheDocument();
    expect(screen.getAllByText('—').length).toBeGreaterThanOrEqual(2);
    answer();
    const all = screen.getByRole('table', { name: 'Tutti i clienti' });
    const row = (await within(all).findByText('cliente01@example.it')).closest('tr')!;
    expect(within(all).getByRole('columnheader', { name: /Ricerche rimaste \/ annue/ })).toBeInTheDocument();
    expect(row).toHaveTextContent('4 / 50');
    expect(screen.getByText('1 / 2')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Clienti in attesa' }));
    const list = await screen.findByRole('table', { name: 'Clienti in attesa' });
    const headers = within(list)
      .getAllByRole('columnheader')
      .map((header) => header.textContent ?? '');
    expect(headers[0]).toMatch(/^Email/);
    expect(headers.some((header) => /^ID/.test(header))).toBe(false);
    expect(list).not.toHaveTextContent('f3b2c1d0-uuid');
  });

  it('says the list failed, with the spec’s text and a retry, instead of an empty list', async () => {
    const routes = adminRoutes([]);
    routes['GET /api/clients'] = { status: 500, body: { code: 'G001', message: 'x' } };
    const { calls } = await startRememberedApp(routes, '/clients');
    const table = await screen.findByRole('table', { name: 'Tutti i clienti' });
    await within(table).findByText('Errore interno del server, riprovi più tardi');
    expect(within(table).queryByText('Nessun dato disponibile')).not.toBeInTheDocument();
    expect(screen.getAllByText('—').length).toBeGreaterThanOrEqual(2); // no "0" clients on the cards

    routes['GET /api/clients'] = { status: 200, body: [client(1)] };
    await userEvent.click(within(table).getByRole('button', { name: 'Riprova' }));
    await within(table).findByText('cliente01@example.it');
    expect(calls.filter((c) => c === 'GET /api/clients')).toHaveLength(2);
  });

  it('goes back to the first page when a filter leaves fewer rows than the page shown', async () => {
    await startRememberedApp(adminRoutes(Array.from({ length: 30 }, (_, i) => client(i))), '/clients');
    await screen.findByText('cliente00@example.it');
    await userEvent.click(screen.getByRole('button', { name: 'Vai a pagina 2' }));
    await screen.findByText('cliente12@example.it');
    await userEvent.type(screen.getByLabelText('Cerca per email'), 'cliente0');
    await screen.findByText('cliente05@example.it');
    expect(screen.getAllByRole('row')).toHaveLength(11); // header + cliente00…cliente09
  });

  it('saves "Logo predefinito" chosen over another logo', async () => {
    const routes = adminRoutes([client(1, { logo: { id: 3, name: 'Studio Rossi' } })]);
    routes['POST /api/clients/c1/change-logo'] = { status: 200, body: client(1) };
    const { calls } = await startRememberedApp(routes, '/clients');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Impostazioni di cliente01@example.it' }),
    );
    const logoSelect = screen.getByLabelText('Logo');
    expect(
      within(logoSelect)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Logo predefinito', 'Studio Rossi']);
    await userEvent.selectOptions(logoSelect, 'Logo predefinito');
    await userEvent.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(calls).toContain('POST /api/clients/c1/change-logo'));
    expect(calls).not.toContain('PUT /api/clients/c1/limits'); // only what changed is sent
    expect(sentBodies).toContainEqual({ call: 'POST /api/clients/c1/change-logo', body: { logoId: -1 } });
    await screen.findByText('Impostazioni aggiornate');
  });

  it('shows the invitation code once, in the invite dialog; the lists show only that the client is waiting', async () => {
    const waiting = client(2, { active: false, activationTime: null, status: 'In attesa' });
    const routes = adminRoutes([client(1), waiting]);
    routes['POST /api/clients/invite'] = {
      status: 200,
      body: {
        ...client(3, { active: false, activationTime: null, status: 'In attesa' }),
        invitationCode: 'Kq7pXz4mRt',
      },
    };
    await startRememberedApp(routes, '/clients');
    const all = await screen.findByRole('table', { name: 'Tutti i clienti' });
    const waitingRow = (await within(all).findByText('cliente02@example.it')).closest('tr')!;
    expect(waitingRow).toHaveTextContent('In attesa del primo accesso (invitato il 20-12-2025)');
    const activeRow = within(all).getByText('cliente01@example.it').closest('tr')!;
    expect(activeRow).toHaveTextContent('Primo accesso eseguito');
    expect(screen.queryByRole('columnheader', { name: /Password iniziale/ })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Invita cliente' }));
    await userEvent.type(screen.getByLabelText('Email'), 'cliente03@example.it');
    await userEvent.click(screen.getByRole('button', { name: 'Invia invito' }));
    const shown = await screen.findByRole('dialog', { name: 'Invito inviato' });
    expect(shown).toHaveTextContent('L’invito è stato inviato a cliente03@example.it');
    expect(within(shown).getByText('Kq7pXz4mRt')).toBeInTheDocument();
    expect(shown).toHaveTextContent('Il codice non sarà più mostrato');
    await userEvent.click(within(shown).getByRole('button', { name: 'Fatto' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByText('Kq7pXz4mRt')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Clienti in attesa' }));
    const list = await screen.findByRole('table', { name: 'Clienti in attesa' });
    expect(within(list).getByText('cliente02@example.it').closest('tr')).toHaveTextContent(
      'In attesa del primo accesso (invitato il 20-12-2025)',
    );
  });

  it('a renewal is saved with "Salva"; answered after the dialog was closed, it does not open it again', async () => {
    let answer: () => void = () => undefined;
    const routes = adminRoutes([client(1), client(2)]);
    routes['PUT /api/clients/c1/limits'] = {
      status: 200,
      body: client(1, { endDate: Date.UTC(2031, 0, 1, 11) }),
      after: new Promise<void>((resolve) => (answer = resolve)),
    };
    const { calls } = await startRememberedApp(routes, '/clients');
    await userEvent.click(
      await screen.findByRole('button', { name: 'Impostazioni di cliente01@example.it' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Rinnova di un anno' }));
    expect(calls).not.toContain('PUT /api/clients/c1/limits'); // nothing is sent before "Salva"
    await userEvent.click(screen.getByRole('button', { name: 'Salva' }));
    await waitFor(() => expect(calls).toContain('PUT /api/clients/c1/limits'));
    expect(sentBodies).toContainEqual({
      call: 'PUT /api/clients/c1/limits',
      body: { availableYearlySearches: 50, remainingSearches: 50, endDate: Date.UTC(2031, 0, 1, 11) },
    });
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // meanwhile the administrator opens another client's settings
    await userEvent.click(screen.getByRole('button', { name: 'Impostazioni di cliente02@example.it' }));
    const other = screen.getByRole('dialog', { name: 'Impostazioni cliente' });

    answer();
    await screen.findByText('Impostazioni aggiornate');
    // still the second client's dialog, the only one
    expect(screen.getAllByRole('dialog')).toEqual([other]);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
