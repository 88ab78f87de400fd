/**
 * One tab, two people: whatever ends the first one's session, the second one must see nothing of it
 * (results, counter, status messages) once signed in.
 */
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AppStore } from '../../app/store';
import { api } from '../../lib/api';
import { signedOut } from '../../lib/session-events';
import { showError } from '../../lib/session/status-slice';
import {
  aidRow,
  clientUser,
  documentsCall,
  replaceRoutes,
  searchResult,
  signedInRoutes,
  startRememberedApp,
} from '../../test/app';
import type { FakeRoutes } from '../../test/fake-server';

const CODE_A = '01234567897'; // a valid check digit: no warning before the search
const FIRST = clientUser('c-first', 'primo@example.it');
const SECOND = clientUser('c-second', 'secondo@example.it');

function sessionOf(user: typeof FIRST, remaining: number): FakeRoutes {
  return {
    ...signedInRoutes(user, remaining),
    [documentsCall([CODE_A])]: {
      status: 200,
      body: searchResult([CODE_A], [aidRow(CODE_A, 'ALFA SRL', 'Bando riservato al primo')]),
    },
  };
}

/** The first client signs in (a remembered session), searches, and gets a status message. */
async function firstClientAtWork(): Promise<{ store: AppStore; routes: FakeRoutes }> {
  const routes = sessionOf(FIRST, 7);
  const { store } = await startRememberedApp(routes);
  await screen.findByText('Ricerche: 7 / 50');
  await userEvent.type(screen.getByLabelText('Codice fiscale'), CODE_A);
  await userEvent.click(screen.getByRole('button', { name: 'Avvia ricerca' }));
  await screen.findByText('Bando riservato al primo');
  act(() => {
    store.dispatch(showError('G001'));
  });
  return { store, routes };
}

async function secondClientSignsIn(routes: FakeRoutes): Promise<void> {
  await screen.findByRole('heading', { name: 'Accedi' });
  replaceRoutes(routes, sessionOf(SECOND, 3));
  await userEvent.type(screen.getByLabelText('Email'), SECOND.email);
  await userEvent.type(screen.getByLabelText('Password'), 'password-giusta');
  await userEvent.click(screen.getByLabelText(/Dichiaro di aver letto/));
  await userEvent.click(screen.getByRole('button', { name: 'Accedi' }));
  await screen.findByText('Ricerche: 3 / 50');
}

function expectNothingOfTheFirst(store: AppStore): void {
  expect(screen.queryByText('Ricerche: 7 / 50')).not.toBeInTheDocument();
  expect(screen.queryByText('Bando riservato al primo')).not.toBeInTheDocument();
  expect(screen.queryByText(CODE_A, { exact: false })).not.toBeInTheDocument();
  expect(screen.queryByText(FIRST.email)).not.toBeInTheDocument();
  expect(store.getState().status.error).toBeNull();
  // not even in memory, where a later screen could pick it up
  const cached = JSON.stringify(store.getState().api.queries);
  expect(cached).not.toContain('Bando riservato al primo');
  expect(cached).not.toContain(FIRST.id);
}

const unauthorized = (code: string) => ({ status: 401, body: { code, message: 'x' } });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the hand-over between two people at one tab', () => {
  it('after the token refresh is refused', async () => {
    const { store, routes } = await firstClientAtWork();
    replaceRoutes(routes, {
      'GET /api/clients/me': unauthorized('A001'),
      'POST /api/auth/refresh': unauthorized('A001'),
    });
    act(() => {
      store.dispatch(api.util.invalidateTags(['MyClient']));
    });
    await secondClientSignsIn(routes);
    expectNothingOfTheFirst(store);
  });

  it('after a logout in another tab', async () => {
    const { store, routes } = await firstClientAtWork();
    // what the other tab's message makes this tab do (session-actions useTabSync)
    act(() => {
      store.dispatch(signedOut());
    });
    await secondClientSignsIn(routes);
    expectNothingOfTheFirst(store);
  });

  it('after the client is removed by an administrator', async () => {
    const { store, routes } = await firstClientAtWork();
    replaceRoutes(routes, {
      'GET /api/clients/me': unauthorized('U001'),
      'POST /api/auth/refresh': unauthorized('U001'),
    });
    act(() => {
      store.dispatch(api.util.invalidateTags(['MyClient']));
    });
    await secondClientSignsIn(routes);
    expectNothingOfTheFirst(store);
  });

  it('after the first one signs out here', async () => {
    const { store, routes } = await firstClientAtWork();
    await userEvent.click(screen.getByRole('button', { name: 'Esci' }));
    await waitFor(() => expect(store.getState().auth.user).toBeNull());
    await secondClientSignsIn(routes);
    expectNothingOfTheFirst(store);
  });
});
