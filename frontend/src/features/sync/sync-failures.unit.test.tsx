/** The archive screen when the portal does not answer: it says so, retries, and never freezes. */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createStore } from '../../app/store';
import { runningStatus } from '../../test/archive-files';
import { installFakeServer, type FakeRoutes } from '../../test/fake-server';
import { StatusToasts } from '../layout/status-toasts';
import { SYNC_POLL_MAX_MS, SYNC_POLL_MS, syncPollDelay } from './sync-poll';
import SyncPage from './sync-page';

const G001 = { status: 500, body: { code: 'G001', message: 'x' } };
const G001_TEXT = 'Errore interno del server, riprovi più tardi';
const WAIT = { timeout: 6000 };

const running = runningStatus([]);

function routesOf(overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /api/sync/status': { status: 200, body: { running: false, run: null, indexing: false } },
    'GET /api/sync/documents-update': { status: 200, body: [] },
    'GET /api/sync/archive-stats': {
      status: 200,
      body: { totalDocuments: 12, lastSync: null, deadLetters: 0, missingAids: 0 },
    },
    'GET /api/sync/results': { status: 200, body: [] },
    'GET /api/documents/data-source-status': { status: 200, body: { useLiveData: false, lastUpdate: null } },
    ...overrides,
  };
}

function renderPage(routes: FakeRoutes) {
  const calls = installFakeServer(routes);
  render(
    <Provider store={createStore()}>
      <SyncPage />
      <StatusToasts />
    </Provider>,
  );
  return calls;
}

describe('polling the sync status', () => {
  it('waits longer after each failed check, up to a ceiling', () => {
    expect([0, 1, 2, 3, 10].map(syncPollDelay)).toEqual([SYNC_POLL_MS, 2000, 4000, 8000, SYNC_POLL_MAX_MS]);
  });

  it('keeps reading a status that failed: a run that ended meanwhile stops showing as running', async () => {
    const routes = routesOf({ 'GET /api/sync/status': { status: 200, body: running } });
    renderPage(routes);
    await screen.findByRole('button', { name: /Sincronizzazione in corso/ });
    routes['GET /api/sync/status'] = G001;
    await screen.findByText(/Impossibile leggere lo stato della sincronizzazione/, undefined, WAIT);
    routes['GET /api/sync/status'] = {
      status: 200,
      body: {
        running: false,
        run: { ...running.run!, status: 'SUCCESS', end: 2, succeeded: 2 },
        indexing: false,
      },
    };
    await screen.findByText('Sincronizzazione completata', undefined, WAIT);
    expect(screen.queryByRole('button', { name: /Sincronizzazione in corso/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/Impossibile leggere lo stato/)).not.toBeInTheDocument();
  }, 15_000);
});

describe('lists that fail to load', () => {
  it('say so with the spec’s text and a retry, instead of "Mai" and 0', async () => {
    const routes = routesOf({ 'GET /api/sync/archive-stats': G001, 'GET /api/sync/documents-update': G001 });
    const calls = renderPage(routes);
    const alerts = await screen.findAllByText(G001_TEXT);
    expect(alerts).toHaveLength(2);
    expect(screen.queryByText('Mai')).not.toBeInTheDocument();
    expect(screen.getAllByText('—')).toHaveLength(2);

    routes['GET /api/sync/archive-stats'] = routesOf()['GET /api/sync/archive-stats']!;
    const [statsRetry] = screen.getAllByRole('button', { name: 'Riprova' });
    await userEvent.click(statsRetry!);
    await screen.findByText('12');
    expect(calls.filter((c) => c === 'GET /api/sync/archive-stats')).toHaveLength(2);
  });

  it('the history says so in the table', async () => {
    renderPage(routesOf({ 'GET /api/sync/results': G001 }));
    await userEvent.click(await screen.findByRole('tab', { name: 'Storico' }));
    const table = await screen.findByRole('table');
    await within(table).findByText(G001_TEXT);
    expect(within(table).getByRole('button', { name: 'Riprova' })).toBeInTheDocument();
  });
});
