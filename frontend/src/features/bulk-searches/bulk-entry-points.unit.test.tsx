/** The ways to the bulk search: the navigation bar (desktop and phone) and the home page's notice. */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BulkJobDto } from '@rna/domain';
import { adminUser, clientUser, signedInRoutes, startRememberedApp } from '../../test/app';
import { bulkJob, completedBulkJob } from '../../test/bulk-searches';
import type { FakeRoutes } from '../../test/fake-server';

const CLIENT = clientUser('c1', 'studio@example.it');
const NOTICE = 'La ricerca massiva «clienti.xlsx» è pronta: 300 imprese, 4 oltre il massimale';

const routes = (jobs: BulkJobDto[], user = CLIENT): FakeRoutes => ({
  ...signedInRoutes(user),
  'GET /api/bulk-searches': { status: 200, body: jobs },
});

/** Lets the page settle: what is not shown by then is not shown at all. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the navigation bar', () => {
  it.each([
    ['a client', CLIENT],
    ['an administrator', adminUser()],
  ])('on desktop links %s to the bulk search', async (_who, user) => {
    await startRememberedApp(routes([], user));
    await screen.findByRole('heading', { name: 'Ricerca aiuti di Stato' });
    const nav = screen.getByRole('navigation', { name: 'Menu principale' });
    await userEvent.click(within(nav).getByRole('link', { name: 'Ricerca massiva' }));
    const heading = await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('on a phone has it in the menu', async () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...matchMedia(query), matches: true })) as typeof matchMedia;
    try {
      await startRememberedApp(routes([]));
      await screen.findByRole('heading', { name: 'Ricerca aiuti di Stato' });
      expect(screen.queryByRole('link', { name: 'Ricerca massiva' })).not.toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Apri il menu' }));
      await userEvent.click(
        within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Ricerca massiva' }),
      );
      await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    } finally {
      window.matchMedia = matchMedia;
    }
  });
});

describe('the home page', () => {
  it('announces a completed job not yet downloaded, with a link to the page', async () => {
    await startRememberedApp(routes([completedBulkJob()]));
    const notice = await screen.findByText(NOTICE);
    await userEvent.click(
      within(notice.closest('li')!).getByRole('link', { name: 'Vai alla ricerca massiva' }),
    );
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
  });

  it('names a pasted list, and counts one company in the singular', async () => {
    await startRememberedApp(
      routes([completedBulkJob({ sourceName: '', totalCodes: 1, doneCodes: 1, overCeiling: 1 })]),
    );
    await screen.findByText(
      'La ricerca massiva «elenco incollato» è pronta: 1 impresa, 1 oltre il massimale',
    );
  });

  it.each([
    ['downloaded', completedBulkJob({ downloaded: true })],
    ['expired by date', completedBulkJob({ expiresAt: new Date(Date.now() - 1000).toISOString() })],
    ['expired', completedBulkJob({ status: 'EXPIRED' })],
    ['still running', bulkJob({ status: 'RUNNING', doneCodes: 10 })],
    ['failed', bulkJob({ status: 'FAILED', failureCode: 'G001' })],
  ])('says nothing of a job %s', async (_state, job) => {
    const { calls } = await startRememberedApp(routes([job]));
    await screen.findByRole('heading', { name: 'Ricerca aiuti di Stato' });
    await waitFor(() => expect(calls).toContain('GET /api/bulk-searches'));
    await act(settle); // the answer is rendered
    expect(screen.queryByText(/La ricerca massiva/)).not.toBeInTheDocument();
  });

  it('reads the jobs again on each visit: a result downloaded meanwhile is announced no more', async () => {
    const fake = routes([completedBulkJob()]);
    await startRememberedApp(fake);
    await screen.findByText(NOTICE);
    fake['GET /api/bulk-searches'] = { status: 200, body: [completedBulkJob({ downloaded: true })] };
    await userEvent.click(screen.getByRole('link', { name: 'Vai alla ricerca massiva' }));
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    await userEvent.click(screen.getByRole('link', { name: /Portale Aiuti di Stato/ }));
    await screen.findByRole('heading', { name: 'Ricerca aiuti di Stato' });
    await waitFor(() => expect(screen.queryByText(NOTICE)).not.toBeInTheDocument());
  });

  it('shows the notice once a job running on the server is ready, without a reload', async () => {
    const fake = routes([bulkJob({ status: 'RUNNING', doneCodes: 10 })]);
    await startRememberedApp(fake);
    await screen.findByRole('heading', { name: 'Ricerca aiuti di Stato' });
    fake['GET /api/bulk-searches'] = { status: 200, body: [completedBulkJob()] };
    await screen.findByText(NOTICE, undefined, { timeout: 8000 });
  }, 15_000);
});
