/** The data-source switch as an administrator meets it: a real switch, and a change only once confirmed. */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createStore } from '../../app/store';
import { installFakeServer, sentBodies, type FakeRoutes } from '../../test/fake-server';
import { DataSourceSwitch } from './data-source-switch';

function show(useLiveData: boolean) {
  const routes: FakeRoutes = {
    'GET /api/documents/data-source-status': { status: 200, body: { useLiveData, lastUpdate: null } },
    'POST /api/documents/data-source': { status: 200, body: { useLiveData: !useLiveData, lastUpdate: -1 } },
  };
  const calls = installFakeServer(routes);
  render(
    <Provider store={createStore()}>
      <DataSourceSwitch />
    </Provider>,
  );
  return { routes, calls };
}

describe('the data-source switch', () => {
  it('is a switch with its state written beside it', async () => {
    show(false);
    const toggle = await screen.findByRole('switch', { name: 'Dati in tempo reale' });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect(toggle).toHaveAccessibleDescription('Non attivi: le ricerche usano l’archivio');
    expect(screen.getByText('Non attivi: le ricerche usano l’archivio')).toBeVisible();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
  });

  it('asks before switching every user to live data, and changes nothing when cancelled', async () => {
    const { calls, routes } = show(false);
    const toggle = await screen.findByRole('switch', { name: 'Dati in tempo reale' });
    await waitFor(() => expect(toggle).toBeEnabled());

    await userEvent.click(toggle);
    const confirm = screen.getByRole('dialog', { name: 'Passare ai dati in tempo reale?' });
    expect(confirm).toHaveTextContent('vale per tutti gli utenti, clienti compresi');
    expect(confirm).toHaveTextContent('le risposte sono più lente');
    expect(confirm).toHaveTextContent('il registro impone una pausa tra una consultazione e l’altra');
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Annulla' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls).not.toContain('POST /api/documents/data-source');

    await userEvent.click(toggle);
    routes['GET /api/documents/data-source-status'] = {
      status: 200,
      body: { useLiveData: true, lastUpdate: -1 },
    };
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Passare ai dati in tempo reale?' })).getByRole('button', {
        name: 'Attiva tempo reale',
      }),
    );
    expect(sentBodies).toContainEqual({
      call: 'POST /api/documents/data-source',
      body: { useLiveData: true },
    });
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    expect(screen.getByText('Attivi: ogni ricerca interroga il registro')).toBeVisible();
  });

  it('asks too before going back to the archive', async () => {
    const { calls } = show(true);
    const toggle = await screen.findByRole('switch', { name: 'Dati in tempo reale' });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(toggle);
    const confirm = screen.getByRole('dialog', { name: 'Tornare all’archivio?' });
    expect(confirm).toHaveTextContent('vale per tutti gli utenti');
    await userEvent.keyboard('{Escape}');
    expect(calls).not.toContain('POST /api/documents/data-source');
  });
});
