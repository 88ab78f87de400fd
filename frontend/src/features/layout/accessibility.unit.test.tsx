/** Accessibility beyond axe: titles, focus after navigation, the skip link, the chart's data, field errors. */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { pageTitleKey } from '../../lib/page-title';
import DeMinimisChart from '../documents/de-minimis-chart';
import {
  aidRow,
  clientUser,
  documentsCall,
  searchResult,
  signedInRoutes,
  startRememberedApp,
  startSignedOutApp,
} from '../../test/app';

const CODE = '01234567897';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('page titles', () => {
  it('name every route, and send unknown addresses to the home title', () => {
    expect(pageTitleKey('/clients', true)).toBe('clients.title');
    expect(pageTitleKey('/sync/', true)).toBe('sync.title');
    expect(pageTitleKey('/nowhere', true)).toBe('home.title');
    expect(pageTitleKey('/forgot', false)).toBe('forgot.title');
  });

  it('are written in the tab, and the new page’s heading takes the focus after a navigation', async () => {
    const routes = {
      ...signedInRoutes(clientUser('c1', 'cliente@example.it')),
      [documentsCall([CODE])]: {
        status: 200,
        body: searchResult([CODE], [aidRow(CODE, 'ALFA SRL', 'Bando')]),
      },
    };
    await startRememberedApp(routes);
    await screen.findByRole('heading', { name: 'Ricerca aiuti di Stato' });
    expect(document.title).toBe('Ricerca aiuti di Stato – Portale Aiuti di Stato');
    expect(screen.getByRole('link', { name: 'Vai al contenuto' })).toHaveAttribute('href', '#main');

    await userEvent.type(screen.getByLabelText('Codice fiscale'), CODE);
    await userEvent.click(screen.getByRole('button', { name: 'Avvia ricerca' }));
    await screen.findByText('Bando');
    expect(document.title).toBe('Risultati della ricerca – Portale Aiuti di Stato');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 })));
  });

  it('the login screen has its own', async () => {
    startSignedOutApp();
    await screen.findByRole('heading', { name: 'Accedi' });
    expect(document.title).toBe('Accedi – Portale Aiuti di Stato');
  });
});

describe('the de minimis chart', () => {
  it('offers its 36 points as a table', async () => {
    const points = Array.from({ length: 36 }, (_, i) => ({
      month: `${String((i % 12) + 1).padStart(2, '0')}/${27 + Math.floor(i / 12)}`,
      total: 1000 * i,
      remaining: 300_000 - 1000 * i,
    }));
    render(<DeMinimisChart points={points} />);
    const toggle = screen.getByRole('button', { name: 'Mostra dati' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Nascondi dati' })).toHaveAttribute('aria-expanded', 'true');
    const rows = screen.getAllByRole('row');
    expect(rows).toHaveLength(37);
    expect(rows[2]).toHaveTextContent('02/271.000,00 €299.000,00 €');
  });
});

describe('form errors', () => {
  it('point from the field they are about to their message', async () => {
    startSignedOutApp();
    await userEvent.click(await screen.findByRole('button', { name: 'Accedi' }));
    const email = screen.getByLabelText('Email');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('L’email è obbligatoria');
    expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid');

    await userEvent.type(email, 'cliente@example.it');
    await userEvent.type(screen.getByLabelText('Password'), 'una-password');
    await userEvent.click(screen.getByRole('button', { name: 'Accedi' }));
    expect(screen.getByLabelText(/Dichiaro di aver letto/)).toHaveAttribute('aria-invalid', 'true');
    expect(email).not.toHaveAttribute('aria-invalid');
  });
});
