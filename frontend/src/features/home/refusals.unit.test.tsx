/** A refused search ends on the home page with its reason, without bouncing back to the search. */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  aidRow,
  clientUser,
  documentsCall,
  searchResult,
  signedInRoutes,
  startRememberedApp,
} from '../../test/app';
import type { FakeRoutes } from '../../test/fake-server';

const CODE = '00116594550';
const U004 = { status: 403, body: { code: 'U004', message: 'x' } };
const A002 = { status: 403, body: { code: 'A002', message: 'x' } };
const EXHAUSTED = 'Ricerche disponibili esaurite, contatti l’amministratore';
const EXPIRED = 'Abbonamento scaduto, contatti il referente commerciale';

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
const count = (calls: string[], call: string) => calls.filter((c) => c === call).length;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('a refusal on the way from home to a search', () => {
  it.each([
    ['no searches left (U004)', U004, EXHAUSTED],
    ['a subscription that ended (A002)', A002, EXPIRED],
  ])('with a saved search and %s: home says why and stays', async (_label, refusal, message) => {
    const user = clientUser('c1', 'cliente@example.it');
    const routes: FakeRoutes = {
      ...signedInRoutes(user, 0),
      'GET /api/users/saved-searches': {
        status: 200,
        body: [{ id: 's1', taxCodes: [CODE], deMinimis: false, last3Years: false }],
      },
      [documentsCall([CODE])]: refusal,
    };
    const { calls } = await startRememberedApp(routes);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(message));
    await settle();
    expect(count(calls, documentsCall([CODE]))).toBe(1);
    expect(screen.getByRole('heading', { name: /Ricerca aiuti/ })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    // who to turn to, and the code refused still in the box
    expect(screen.getByRole('alert')).toHaveTextContent('si rivolga all’amministratore del portale');
    expect(screen.getByLabelText('Codice fiscale')).toHaveValue(CODE);
  });

  it('with a fixed tax code and no searches left: one request, the reason on the home page', async () => {
    const user = clientUser('c1', 'cliente@example.it', CODE);
    const routes: FakeRoutes = { ...signedInRoutes(user, 0), [documentsCall([CODE])]: U004 };
    const { calls } = await startRememberedApp(routes);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(EXHAUSTED));
    await settle();
    expect(count(calls, documentsCall([CODE]))).toBe(1);
    // the badge says none are left, in words and in its look, not like a full allowance
    expect(screen.getByText(/^Ricerche esaurite: 0 \//)).toHaveClass('nav-bar__badge--empty');
  });
});

describe('the redirect to a saved search', () => {
  it('happens once per visit: going home later stays home', async () => {
    const user = clientUser('c1', 'cliente@example.it');
    const routes: FakeRoutes = {
      ...signedInRoutes(user, 5),
      'GET /api/users/saved-searches': {
        status: 200,
        body: [{ id: 's1', taxCodes: [CODE], deMinimis: false, last3Years: false }],
      },
      [documentsCall([CODE])]: {
        status: 200,
        body: searchResult([CODE], [aidRow(CODE, 'ALFA SRL', 'Bando salvato')]),
      },
    };
    const { calls } = await startRememberedApp(routes);
    await screen.findByText('Bando salvato');
    await userEvent.click(screen.getByRole('link', { name: /Portale Aiuti di Stato/ }));
    await screen.findByRole('heading', { name: /Ricerca aiuti/ });
    await settle();
    expect(screen.queryByText('Bando salvato')).not.toBeInTheDocument();
    expect(count(calls, documentsCall([CODE]))).toBe(1);
  });
});
