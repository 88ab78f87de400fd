import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import type { UserDto } from '@rna/domain';
import { MemoryRouter } from 'react-router-dom';
import { AppRoutes } from '../../app/router';
import { createStore } from '../../app/store';
import { restoreSession } from '../../lib/session/session-actions';
import { storage } from '../../lib/storage';
import { installFakeServer, type FakeRoutes } from '../../test/fake-server';

const EXPIRED = 'Abbonamento scaduto, contatti il referente commerciale';
const A002 = { status: 403, body: { code: 'A002', message: 'Abbonamento scaduto' } };

/** The app as a reload starts it: the session restored from storage (if any), then the routes. */
async function startApp(routes: FakeRoutes) {
  const calls = installFakeServer(routes);
  const store = createStore();
  render(
    <Provider store={store}>
      <MemoryRouter>
        <AppRoutes />
      </MemoryRouter>
    </Provider>,
  );
  await act(() => restoreSession(store.dispatch));
  await screen.findByRole('heading', { name: 'Accedi' });
  return calls;
}

function reloadWithRememberedSession(routes: FakeRoutes) {
  storage.setTokens('old-access', 'old-refresh');
  storage.setRemember(true);
  return startApp(routes);
}

async function signIn(email: string, password: string) {
  await userEvent.type(screen.getByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByLabelText(/Dichiaro di aver letto/));
  await userEvent.click(screen.getByRole('button', { name: 'Accedi' }));
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('a CLIENT whose access expired', () => {
  it('reloads the page: the login screen says the subscription expired (A002), tokens are gone', async () => {
    const calls = await reloadWithRememberedSession({ 'POST /api/auth/refresh': A002 });
    expect(calls).toContain('POST /api/auth/refresh');
    expect(screen.getByRole('alert')).toHaveTextContent(EXPIRED);
    expect(storage.getRefreshToken()).toBeNull();
  });

  it('signs in: refused with A002 shown; a wrong password then shows A001 instead', async () => {
    const routes: FakeRoutes = { 'POST /api/auth/login': A002 };
    await startApp(routes);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await signIn('cliente@example.it', 'password-giusta');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(EXPIRED));
    await screen.findByRole('button', { name: 'Accedi' }); // the attempt is over

    routes['POST /api/auth/login'] = { status: 401, body: { code: 'A001', message: 'x' } };
    await userEvent.click(screen.getByRole('button', { name: 'Accedi' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Credenziali non valide'));
    expect(screen.getByRole('heading', { name: 'Accedi' })).toBeInTheDocument();
  });

  it('a session that ends for any other reason (token revoked) stays a plain login screen', async () => {
    await reloadWithRememberedSession({
      'POST /api/auth/refresh': { status: 401, body: { code: 'A001', message: 'x' } },
    });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('a signed-in CLIENT whose access expires mid-session', () => {
  it('is taken to the login screen with A002 when the token refresh is refused', async () => {
    storage.setTokens('old-access', 'old-refresh');
    // the access token has run out: every call answers 401 until it is refreshed
    const unauthorized = { status: 401, body: { code: 'A001', message: 'x' } };
    installFakeServer({
      'GET /api/users/me': unauthorized,
      'GET /api/users/saved-searches': unauthorized,
      'GET /api/variation-alerts': unauthorized,
      'POST /api/auth/refresh': A002,
    });
    const client: UserDto = {
      id: 'c1',
      email: 'cliente@example.it',
      role: 'CLIENT',
      taxCode: null,
      pdfEnabled: true,
      enableVariationAlerts: true,
      logo: null,
    };
    const store = createStore({ auth: { user: client } });
    render(
      <Provider store={store}>
        <MemoryRouter>
          <AppRoutes />
        </MemoryRouter>
      </Provider>,
    );
    await screen.findByRole('heading', { name: 'Accedi' });
    expect(screen.getByRole('alert')).toHaveTextContent(EXPIRED);
  });
});
