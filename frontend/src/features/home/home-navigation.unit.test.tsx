/**
 * Home stays reachable once a search is saved: the logo and the «Ricerca» item open it, it offers the
 * saved search instead of forcing it, and saving, alerting and removing each say what they did.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SavedSearchDto, VariationAlertDto } from '@rna/domain';
import {
  aidRow,
  clientUser,
  documentsCall,
  searchResult,
  signedInRoutes,
  startRememberedApp,
} from '../../test/app';
import type { FakeRoutes } from '../../test/fake-server';

const CODE = '01234567897';
const EMAIL = 'cliente@example.it';
const SAVED: SavedSearchDto = { id: 's1', taxCodes: [CODE], deMinimis: true, last3Years: false };
const ALERT: VariationAlertDto = {
  id: 'a1',
  taxCodes: [CODE],
  group: null,
  createdAt: Date.UTC(2026, 0, 15, 10),
  lastNotification: null,
  companies: [{ taxCode: CODE, name: 'ALFA SRL' }],
};

// whole-app journeys on two shared cores
jest.setTimeout(20_000);

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
const home = () => screen.findByRole('heading', { name: 'Ricerca aiuti di Stato' });
const logo = () => screen.getByRole('link', { name: /Portale Aiuti di Stato/ });
const navItem = () =>
  within(screen.getByRole('navigation', { name: 'Menu principale' })).getByRole('link', { name: 'Ricerca' });

function routesFor(saved: SavedSearchDto[] = []): FakeRoutes {
  const user = { ...clientUser('c1', EMAIL), enableVariationAlerts: true };
  const result = { status: 200, body: searchResult([CODE], [aidRow(CODE, 'ALFA SRL', 'Bando alfa')]) };
  return {
    ...signedInRoutes(user, 5),
    'GET /api/users/saved-searches': { status: 200, body: saved },
    [documentsCall([CODE])]: result,
    [documentsCall([CODE], true)]: result,
  };
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('home once a search is saved', () => {
  it('saving says so; the logo and «Ricerca» then open home, which offers the saved search', async () => {
    const routes = routesFor();
    await startRememberedApp(routes);
    await home();
    await userEvent.type(screen.getByLabelText('Codice fiscale', { exact: true }), CODE);
    await userEvent.click(screen.getByRole('button', { name: 'Avvia ricerca' }));
    await screen.findByText('Bando alfa');

    const saved = { ...SAVED, deMinimis: false };
    routes['PUT /api/users/saved-searches'] = { status: 200, body: [saved] };
    routes['GET /api/users/saved-searches'] = { status: 200, body: [saved] };
    await userEvent.click(screen.getByRole('button', { name: 'Salva ricerca' }));
    // a notification, read out politely by a screen reader
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent(
      'Ricerca salvata: la ritrova nella pagina «Ricerca», da «Riprendi l’ultima ricerca».',
    );
    expect(toast).toHaveAttribute('aria-live', 'polite');
    expect(toast.closest('.toasts')).toHaveAttribute('aria-live', 'polite');
    await screen.findByRole('button', { name: 'Rimuovi dai preferiti' });

    // the logo: home, not the saved results
    await userEvent.click(logo());
    await home();
    await settle();
    expect(screen.queryByText('Bando alfa')).not.toBeInTheDocument();
    const resume = screen.getByRole('link', { name: 'Riprendi l’ultima ricerca' });
    expect(resume).toHaveAttribute('href', `/documents?taxCode=${CODE}&deMinimis=false&last3Years=false`);

    // the saved search is one click away, and «Ricerca» leads back home
    await userEvent.click(resume);
    await screen.findByText('Bando alfa');
    await userEvent.click(navItem());
    await home();
    await settle();
    expect(screen.queryByText('Bando alfa')).not.toBeInTheDocument();
    expect(navItem()).toHaveAttribute('aria-current', 'page');
  });

  it('a visit opened on the results goes home from the logo, with the saved search offered', async () => {
    await startRememberedApp(
      routesFor([SAVED]),
      `/documents?taxCode=${CODE}&deMinimis=true&last3Years=false`,
    );
    await screen.findByText('Bando alfa');
    await userEvent.click(logo());
    await home();
    await settle();
    expect(screen.queryByText('Bando alfa')).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Ricerca salvata' })).toHaveTextContent(
      `${CODE} · Solo de minimis`,
    );
  });

  it('a visit that opens the app at home still lands on the saved search (SPEC §2, on load)', async () => {
    await startRememberedApp(routesFor([SAVED]));
    await screen.findByText('Bando alfa');
  });
});

describe('notifications of alert changes', () => {
  it('turning an alert on names the codes and the address mailed; removing one on home says so', async () => {
    const routes = routesFor();
    routes['POST /api/variation-alerts'] = { status: 201, body: ALERT };
    await startRememberedApp(routes, `/documents?taxCode=${CODE}&deMinimis=false&last3Years=false`);
    await screen.findByText('Bando alfa');
    routes['GET /api/variation-alerts'] = { status: 200, body: [ALERT] };
    await userEvent.click(screen.getByRole('button', { name: 'Attiva avviso' }));
    const added = await screen.findByRole('status');
    expect(added).toHaveTextContent(
      `Avviso di variazione attivato per ${CODE}: nuovi aiuti, modifiche o revoche saranno segnalati via email a ${EMAIL}.`,
    );
    await screen.findByRole('button', { name: 'Disattiva avviso' });

    await userEvent.click(navItem());
    await home();
    const alerts = screen.getByRole('region', { name: 'Avvisi di variazione' });
    expect(within(alerts).getByRole('link', { name: 'ALFA SRL' })).toBeInTheDocument();
    expect(alerts).toHaveTextContent(EMAIL);
    routes[`DELETE /api/variation-alerts/${ALERT.id}`] = { status: 204 };
    routes['GET /api/variation-alerts'] = { status: 200, body: [] };
    await userEvent.click(within(alerts).getByRole('button', { name: `Rimuovi l’avviso per ${CODE}` }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Rimuovere l’avviso?' })).getByRole('button', {
        name: 'Conferma',
      }),
    );
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(`Avviso di variazione per ${CODE} rimosso.`),
    );
    await within(alerts).findByText('Nessun avviso attivo');
  });
});
