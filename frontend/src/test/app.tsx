/** The whole app in a component test: the store, the routes, and the portal's answers as a fake. */
import { act, render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { searchAnswer, type AidRowDto, type SearchAnswerDto, type UserDto } from '@rna/domain';
import { AppRoutes } from '../app/router';
import { createStore, type AppStore } from '../app/store';
import { restoreSession } from '../lib/session/session-actions';
import { userResolved } from '../lib/session/user-slice';
import { storage } from '../lib/storage';
import { installFakeServer, type FakeRoutes } from './fake-server';

export const clientUser = (id: string, email: string, taxCode: string | null = null): UserDto => ({
  id,
  email,
  role: 'CLIENT',
  taxCode,
  pdfEnabled: true,
  enableVariationAlerts: false,
  logo: null,
});

export const adminUser = (id = 'admin-1', email = 'admin@example.it'): UserDto => ({
  ...clientUser(id, email),
  role: 'ADMIN',
});

export const tokensFor = (user: UserDto) => ({
  status: 200,
  body: { accessToken: 'a', refreshToken: 'r', user },
});

export function aidRow(code: string, name: string, procedure: string, amount = '1000'): AidRowDto {
  return {
    id: `${code}-${procedure}`,
    idComponenteAiuto: `${code}-${procedure}`,
    codiceFiscaleBeneficiario: code,
    denominazioneBeneficiario: name,
    soggettoConcedente: 'Regione',
    titoloMisura: procedure,
    dataConcessione: '01-02-2026',
    cup: '',
    desProcedimento: procedure,
    desRegolamento: '',
    isDeMinimis: false,
    importoNominale: amount,
    elementoDiAiuto: amount,
  };
}

/** GET /documents' answer for these rows, encoded as the API encodes it. */
export function searchResult(
  taxCodes: string[],
  rows: AidRowDto[],
  options: { details?: boolean } = {},
): SearchAnswerDto {
  const total = rows.reduce((sum, row) => sum + Number(row.elementoDiAiuto), 0);
  return searchAnswer(
    {
      taxCodes,
      deMinimis: false,
      last3Years: false,
      dataSource: 'ARCHIVE',
      lastUpdate: null,
      rows,
      sources: taxCodes.map((taxCode) => ({ taxCode, source: 'ARCHIVE' as const, asOf: null })),
      stats: {
        totalDocuments: rows.length,
        totalImport: total,
        totalImportDeMinimis: 0,
        remainingDeMinimis: 300000,
      },
      perCode: taxCodes.map((taxCode) => {
        const own = rows.filter((row) => row.codiceFiscaleBeneficiario === taxCode);
        return {
          taxCode,
          name: own[0]?.denominazioneBeneficiario ?? '',
          totalDocuments: own.length,
          totalImport: own.reduce((sum, row) => sum + Number(row.elementoDiAiuto), 0),
          deMinimisUsed: 0,
          remainingDeMinimis: 300000,
        };
      }),
      deMinimisSeries: [],
    },
    options,
  );
}

/** What the portal answers while `user` is signed in, before any search. */
export function signedInRoutes(user: UserDto, remaining = 7): FakeRoutes {
  return {
    'POST /api/auth/refresh': tokensFor(user),
    'POST /api/auth/login': tokensFor(user),
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
    'GET /api/bulk-searches': { status: 200, body: [] },
  };
}

export const documentsCall = (
  codes: string[],
  deMinimis = false,
  last3Years = false,
  /** a group (impresa unica) searched as one undertaking */
  group: string | null = null,
): string =>
  `GET /api/documents?${new URLSearchParams({
    taxCodes: codes.join(','),
    deMinimis: String(deMinimis),
    last3Years: String(last3Years),
  }).toString()}${group ? `&group=${group}` : ''}`;

/** The same search asked with each aid's references (the "Dettaglio aiuti" view). */
export const documentDetailsCall = (codes: string[], deMinimis = false, last3Years = false): string =>
  `${documentsCall(codes, deMinimis, last3Years)}&details=true`;

/** The app as a reload starts it with a remembered session: restored, then the routes. */
export async function startRememberedApp(
  routes: FakeRoutes,
  at = '/',
): Promise<{ store: AppStore; calls: string[] }> {
  const calls = installFakeServer(routes);
  storage.setTokens('old-access', 'old-refresh');
  storage.setRemember(true);
  const store = createStore();
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[at]}>
        <AppRoutes />
      </MemoryRouter>
    </Provider>,
  );
  await act(() => restoreSession(store.dispatch));
  return { store, calls };
}

/** The app with nobody signed in: the login screen and the other signed-out routes. */
export function startSignedOutApp(routes: FakeRoutes = {}, at = '/'): { store: AppStore; calls: string[] } {
  const calls = installFakeServer(routes);
  const store = createStore();
  store.dispatch(userResolved(null));
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[at]}>
        <AppRoutes />
      </MemoryRouter>
    </Provider>,
  );
  return { store, calls };
}

/** Swaps every answer of the fake portal (another user signed in, the server changed its mind). */
export function replaceRoutes(routes: FakeRoutes, next: FakeRoutes): void {
  Object.keys(routes).forEach((key) => delete routes[key]);
  Object.assign(routes, next);
}
