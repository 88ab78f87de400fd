/**
 * One tab, two people: whatever ends the first one's session, the second one must see nothing of it
 * (results, counter, status messages) once signed in.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import type { SearchResultDto, UserDto } from '@rna/domain';
import { AppRoutes } from '../../app/router';
import { createStore, type AppStore } from '../../app/store';
import { api } from '../../lib/api';
import { signedOut } from '../../lib/session-events';
import { restoreSession } from '../../lib/session/session-actions';
import { showError } from '../../lib/session/status-slice';
import { storage } from '../../lib/storage';
import { installFakeServer, type FakeRoutes } from '../../test/fake-server';

const CODE_A = '00116594550';

const client = (id: string, email: string): UserDto => ({
  id,
  email,
  role: 'CLIENT',
  taxCode: null,
  pdfEnabled: true,
  enableVariationAlerts: false,
  logo: null,
});
const FIRST = client('c-first', 'primo@example.it');
const SECOND = client('c-second', 'secondo@example.it');

const tokens = (user: UserDto) => ({ status: 200, body: { accessToken: 'a', refreshToken: 'r', user } });

function searchOf(code: string, procedure: string): SearchResultDto {
  return {
    taxCodes: [code],
    deMinimis: false,
    last3Years: false,
    dataSource: 'ARCHIVE',
    lastUpdate: null,
    rows: [
      {
        id: '1',
        idComponenteAiuto: '1',
        codiceFiscaleBeneficiario: code,
        denominazioneBeneficiario: 'ALFA SRL',
        soggettoConcedente: 'Regione',
        titoloMisura: procedure,
        dataConcessione: '01-02-2026',
        cup: '',
        desProcedimento: procedure,
        desRegolamento: '',
        isDeMinimis: false,
        importoNominale: '1000',
        elementoDiAiuto: '1000',
      },
    ],
    sources: [{ taxCode: code, source: 'ARCHIVE', asOf: null }],
    stats: { totalDocuments: 1, totalImport: 1000, totalImportDeMinimis: 0, remainingDeMinimis: 300000 },
    deMinimisSeries: [],
    remainingSearches: 6,
  };
}

/** What the portal answers while `user` is signed in. */
function sessionOf(user: UserDto, remaining: number): FakeRoutes {
  return {
    'POST /api/auth/refresh': tokens(user),
    'POST /api/auth/login': tokens(user),
    'GET /api/users/me': { status: 200, body: user },
    'GET /api/clients/me': {
      status: 200,
      body: {
        id: user.id,
        email: user.email,
        remainingSearches: remaining,
        availableYearlySearches: 50,
        endDate: Date.UTC(2030, 0, 1),
      },
    },
    'GET /api/users/saved-searches': { status: 200, body: [] },
    'GET /api/variation-alerts': { status: 200, body: [] },
    [`GET /api/documents?taxCodes=${CODE_A}&deMinimis=false&last3Years=false`]: {
      status: 200,
      body: searchOf(CODE_A, 'Bando riservato al primo'),
    },
  };
}

function replaceRoutes(routes: FakeRoutes, next: FakeRoutes): void {
  Object.keys(routes).forEach((key) => delete routes[key]);
  Object.assign(routes, next);
}

/** The first client signs in (a remembered session), searches, and gets a status message. */
async function firstClientAtWork(): Promise<{ store: AppStore; routes: FakeRoutes }> {
  const routes: FakeRoutes = sessionOf(FIRST, 7);
  installFakeServer(routes);
  storage.setTokens('old-access', 'old-refresh');
  storage.setRemember(true);
  const store = createStore();
  render(
    <Provider store={store}>
      <MemoryRouter>
        <AppRoutes />
      </MemoryRouter>
    </Provider>,
  );
  await act(() => restoreSession(store.dispatch));
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
