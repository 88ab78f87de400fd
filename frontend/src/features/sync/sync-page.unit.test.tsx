import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import type { SyncStatusDto } from '@rna/domain';
import { createStore } from '../../app/store';
import { formatDateTime } from '../../lib/domain-rules';
import { installFakeServer, type FakeRoutes } from '../../test/fake-server';
import { StatusToasts } from '../layout/status-toasts';
import SyncPage from './sync-page';
import { archiveFile, runningStatus } from '../../test/archive-files';

const IMPORTED = new Date(2024, 3, 2, 9, 15).getTime();

/** The first sync of an empty archive: the list answers [] until a file is imported. */
function firstSyncRoutes(): FakeRoutes {
  return {
    'GET /api/sync/status': {
      status: 200,
      body: runningStatus([
        archiveFile('2024_02', { status: 'DOWNLOADING', progress: 12.5 }),
        archiveFile('2024_01', { status: 'PENDING' }),
      ]),
    },
    'GET /api/sync/documents-update': { status: 200, body: [] },
    'GET /api/sync/archive-stats': {
      status: 200,
      body: { totalDocuments: 0, lastSync: null, deadLetters: 0, missingAids: 0 },
    },
    'GET /api/sync/results': { status: 200, body: [] },
    'GET /api/documents/data-source-status': { status: 200, body: { useLiveData: false, lastUpdate: null } },
  };
}

const POLL_WAIT = { timeout: 4000 };

describe('archive screen during a first sync', () => {
  it('shows the run’s files as they progress and finish, without reopening the screen', async () => {
    const routes = firstSyncRoutes();
    const calls = installFakeServer(routes);
    render(
      <Provider store={createStore()}>
        <SyncPage />
        <StatusToasts />
      </Provider>,
    );

    // opening: the run is resumed and its files are progress cards, though the archive list is empty
    await screen.findByRole('button', { name: /Sincronizzazione in corso \(0\/2\)/ });
    const downloading = (await screen.findByText('12,50%')).closest('li');
    expect(downloading).toHaveClass('archive-file--progress', 'status--downloading');
    expect(within(downloading!).getByText('2024_02')).toBeInTheDocument();
    expect(screen.getByText('In attesa').closest('li')).toHaveTextContent('2024_01');

    // the first file is imported: a green card with its date at once, selectable; the second one parses
    const imported = archiveFile('2024_02', { status: 'SUCCESS', progress: 100, lastUpdate: IMPORTED });
    routes['GET /api/sync/status'] = {
      status: 200,
      body: runningStatus([imported, archiveFile('2024_01', { status: 'PARSING' })]),
    };
    routes['GET /api/sync/documents-update'] = { status: 200, body: [imported] };
    const card = await screen.findByRole(
      'button',
      { name: `2024_02 ${formatDateTime(IMPORTED)} Completato` },
      POLL_WAIT,
    );
    expect(card).toHaveClass('status--success');
    expect(card).toBeEnabled();
    expect(screen.getByText('Elaborazione').closest('li')).toHaveTextContent('2024_01');
    // the list was read again during the run (on opening, and after the file changed state)
    expect(calls.filter((c) => c === 'GET /api/sync/documents-update').length).toBeGreaterThanOrEqual(2);

    // the end: 'Sincronizzazione completata' and every file a card
    const second = archiveFile('2024_01', { status: 'SUCCESS', progress: 100, lastUpdate: IMPORTED + 1000 });
    routes['GET /api/sync/status'] = {
      status: 200,
      body: {
        running: false,
        run: { ...runningStatus([imported, second]).run!, status: 'SUCCESS', end: 2, succeeded: 2 },
      },
    };
    routes['GET /api/sync/documents-update'] = { status: 200, body: [imported, second] };
    await screen.findByText('Sincronizzazione completata', undefined, POLL_WAIT);
    await screen.findByRole('button', { name: `2024_01 ${formatDateTime(IMPORTED + 1000)} Completato` });
    expect(screen.queryByRole('button', { name: /Sincronizzazione in corso/ })).not.toBeInTheDocument();
  }, 15_000);
});

describe('archive screen when nothing changed at the register', () => {
  it('gives no "(0/0)" count and says the archive was already up to date instead of "Sincronizzazione completata"', async () => {
    const routes = firstSyncRoutes();
    const unchanged = [
      archiveFile('2024_02', { status: 'SUCCESS', progress: 100, lastUpdate: IMPORTED }),
      archiveFile('2024_01', { status: 'SUCCESS', progress: 100, lastUpdate: IMPORTED }),
    ];
    // the run is requested and has not listed its files yet
    const requested = runningStatus([]);
    routes['GET /api/sync/status'] = {
      status: 200,
      body: { ...requested, run: { ...requested.run!, total: 0 } },
    };
    routes['GET /api/sync/documents-update'] = { status: 200, body: unchanged };
    installFakeServer(routes);
    render(
      <Provider store={createStore()}>
        <SyncPage />
        <StatusToasts />
      </Provider>,
    );
    const busy = await screen.findByRole('button', { name: /Sincronizzazione in corso/ });
    expect(busy).not.toHaveTextContent('(0/0)');
    expect(busy).toHaveTextContent(/^\s*Sincronizzazione in corso$/);
    expect(screen.getByText('Lettura dell’elenco dei file del registro')).toBeInTheDocument();
    expect(screen.queryByText('0 file su 0')).not.toBeInTheDocument();

    // both files skipped as unchanged
    routes['GET /api/sync/status'] = {
      status: 200,
      body: {
        running: false,
        indexing: false,
        run: { ...runningStatus(unchanged).run!, status: 'SUCCESS', end: 2, done: 2, skipped: 2 },
      },
    };
    await screen.findByText('Nessun file modificato: archivio già aggiornato', undefined, POLL_WAIT);
    expect(screen.queryByText('Sincronizzazione completata')).not.toBeInTheDocument();
  }, 15_000);
});

describe('archive screen and records set aside', () => {
  it('tells the administrator how many records could not be indexed', async () => {
    const routes = firstSyncRoutes();
    routes['GET /api/sync/status'] = { status: 200, body: { running: false, indexing: false, run: null } };
    routes['GET /api/sync/archive-stats'] = {
      status: 200,
      body: { totalDocuments: 120, lastSync: IMPORTED, deadLetters: 2, missingAids: 0 },
    };
    installFakeServer(routes);
    render(
      <Provider store={createStore()}>
        <SyncPage />
      </Provider>,
    );
    expect(await screen.findByText(/^2 record non è stato possibile indicizzarli/)).toHaveTextContent(
      'messi da parte',
    );
  });
});

describe('archive screen and records the register sent wrong', () => {
  it('counts in the history the records each run rejected', async () => {
    const routes = firstSyncRoutes();
    routes['GET /api/sync/status'] = { status: 200, body: { running: false, indexing: false, run: null } };
    const run = { type: 'LAST_YEAR', status: 'SUCCESS', succeeded: 2, failed: 0, skipped: 0 };
    routes['GET /api/sync/results'] = {
      status: 200,
      body: [
        { ...run, id: 'r2', start: IMPORTED + 1, end: IMPORTED + 2, records: 1_234, recordsRejected: 4 },
        // a whole-register run: its duration is kept
        { ...run, id: 'r1', start: IMPORTED - 1_325_002, end: IMPORTED - 2, records: 10, recordsRejected: 0 },
      ],
    };
    installFakeServer(routes);
    render(
      <Provider store={createStore()}>
        <SyncPage />
      </Provider>,
    );
    await userEvent.click(await screen.findByRole('tab', { name: 'Storico' }));
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('1.234 (4 scartati)')).toBeInTheDocument();
    expect(within(table).getByText('10')).toBeInTheDocument();
    expect(within(table).getByText('22 min 5 s')).toBeInTheDocument();
  });
});

describe('archive screen while the index catches up', () => {
  it('follows a finished run until its aids are all searchable, and says what was lost for good', async () => {
    const routes = firstSyncRoutes();
    const file = archiveFile('2024_02', { status: 'SUCCESS', progress: 100, lastUpdate: IMPORTED });
    const finished = (indexed: number): SyncStatusDto => ({
      running: false,
      indexing: indexed < 240_025,
      run: { ...runningStatus([file]).run!, status: 'SUCCESS', end: 2, published: 240_025, indexed },
    });
    routes['GET /api/sync/status'] = { status: 200, body: finished(26_028) };
    routes['GET /api/sync/archive-stats'] = {
      status: 200,
      body: { totalDocuments: 26_028, lastSync: IMPORTED, deadLetters: 0, missingAids: 1_500 },
    };
    const calls = installFakeServer(routes);
    render(
      <Provider store={createStore()}>
        <SyncPage />
      </Provider>,
    );
    expect(await screen.findByText(/26\.028 aiuti su 240\.025 pubblicati/)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Indicizzazione incompleta: 1.500 aiuti sono andati persi prima di essere indicizzati',
    );

    // the screen keeps asking while the index works, and stops once it has every aid
    routes['GET /api/sync/status'] = { status: 200, body: finished(240_025) };
    await waitFor(
      () => expect(screen.queryByText(/pubblicati dalla sincronizzazione/)).not.toBeInTheDocument(),
      POLL_WAIT,
    );
    const polls = calls.filter((c) => c === 'GET /api/sync/status').length;
    expect(polls).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(calls.filter((c) => c === 'GET /api/sync/status').length).toBe(polls);
  }, 15_000);
});
