import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createStore } from '../../app/store';
import { formatDateTime } from '../../lib/domain-rules';
import { archiveFile, runningStatus } from '../../test/archive-files';
import { installFakeServer } from '../../test/fake-server';
import { ArchiveStats } from './archive-stats';

describe('a running sync on the archive screen', () => {
  const start = Date.UTC(2026, 10, 25, 20, 0);

  it('says how many files are done, how many aids a second go out, and when it should end', async () => {
    installFakeServer({
      'GET /api/sync/archive-stats': {
        status: 200,
        body: { totalDocuments: 0, lastSync: null, deadLetters: 0, missingAids: 0 },
      },
    });
    const status = runningStatus([
      archiveFile('2024_01', { status: 'SUCCESS', progress: 100 }),
      archiveFile('2024_02', { status: 'PARSING', progress: 100 }),
    ]);
    // 30 of 120 files and one being parsed (half of one) in 10 minutes, 1.8 million aids sent
    const run = { ...status.run!, start, done: 30, total: 120, published: 1_800_000 };
    render(
      <Provider store={createStore()}>
        <ArchiveStats status={{ ...status, run }} now={start + 600_000} />
      </Provider>,
    );
    const progress = await screen.findByRole('region', { name: 'Avanzamento della sincronizzazione' });
    const end = start + 600_000 * (120 / 30.5);
    expect(progress).toHaveTextContent(
      `30 file su 120 · 3.000 aiuti al secondo · fine stimata ${formatDateTime(end)}`,
    );
    expect(screen.getByRole('progressbar')).toHaveAttribute('value', '30');
  });

  it('shows no progress once the run is over', () => {
    installFakeServer({});
    const status = runningStatus([]);
    render(
      <Provider store={createStore()}>
        <ArchiveStats status={{ ...status, running: false }} now={start} />
      </Provider>,
    );
    expect(screen.queryByRole('region', { name: 'Avanzamento della sincronizzazione' })).toBeNull();
  });
});
