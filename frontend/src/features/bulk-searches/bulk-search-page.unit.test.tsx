/** The bulk search page as an accountant uses it: a list in, a preview, a job that runs, its results. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BULK_MAX_FILE_BYTES } from '@rna/domain';
import { formatDate, formatDateTime } from '../../lib/domain-rules';
import { adminUser, clientUser, signedInRoutes, startRememberedApp } from '../../test/app';
import { bulkJob, bulkPreview, completedBulkJob } from '../../test/bulk-searches';
import { sentBodies, type FakeRoutes } from '../../test/fake-server';

const CLIENT = clientUser('c1', 'studio@example.it');
const PAGE = '/ricerca-massiva';
const LIST = 'GET /api/bulk-searches';
const PREVIEW = 'POST /api/bulk-searches/preview';
const START = 'POST /api/bulk-searches';
const POLL_WAIT = { timeout: 4000 };
const refusal = (status: number, code: string) => ({ status, body: { code, message: 'x' } });

function routes(overrides: FakeRoutes = {}, user = CLIENT): FakeRoutes {
  return {
    ...signedInRoutes(user, 40),
    [LIST]: { status: 200, body: [] },
    ...overrides,
  };
}

const count = (calls: string[], call: string) => calls.filter((c) => c === call).length;
const jobsTable = () => screen.getByRole('table', { name: 'Le sue ricerche massive' });
const pasteBox = () => screen.getByLabelText('Oppure incolli i codici fiscali (uno per riga)');
const fileInput = () => screen.getByLabelText('File dell’elenco (.xlsx o .csv)');

async function pasteAndPreview(text: string): Promise<void> {
  await userEvent.type(pasteBox(), text);
  await userEvent.click(screen.getByRole('button', { name: 'Mostra anteprima' }));
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('a pasted list', () => {
  it('is previewed with its cost, confirmed, and followed in the list until it completes; then the polling stops', async () => {
    const fake = routes({
      [PREVIEW]: {
        status: 200,
        body: bulkPreview({
          duplicates: 1,
          ignored: ['ciao'],
          ignoredCount: 1,
          newToday: 2,
          cost: 2,
        }),
      },
      [START]: {
        status: 202,
        body: bulkJob({ sourceName: '', totalCodes: 2, cost: 2, requestedAt: new Date().toISOString() }),
      },
    });
    const { calls } = await startRememberedApp(fake, PAGE);
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    expect(document.title).toBe('Ricerca massiva – Portale Aiuti di Stato');
    await within(jobsTable()).findByText('Non ha ancora avviato ricerche massive');

    await pasteAndPreview('01234567897{Enter}01234567890{Enter}01234567897{Enter}ciao');
    const heading = await screen.findByRole('heading', { name: 'Anteprima: elenco incollato' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(sentBodies).toContainEqual({
      call: PREVIEW,
      body: { text: '01234567897\n01234567890\n01234567897\nciao' },
    });
    const preview = heading.closest('section')!;
    const figure = (label: string) => within(preview).getByText(label).nextElementSibling?.textContent;
    expect(figure('Codici fiscali da cercare')).toBe('2');
    expect(figure('Duplicati scartati')).toBe('1');
    expect(figure('Voci ignorate')).toBe('1');
    expect(figure('Imprese non ancora cercate oggi')).toBe('2');
    expect(figure('Ricerche disponibili')).toBe('7');
    expect(within(preview).getByText('Costo: 2 ricerche')).toBeInTheDocument();
    const warnings = within(preview).getByRole('list', {
      name: 'Carattere di controllo errato: questi codici saranno cercati comunque',
    });
    expect(within(warnings).getByText('01234567890')).toBeInTheDocument();
    const ignored = within(preview).getByRole('list', {
      name: 'Voci ignorate perché non sono codici fiscali',
    });
    expect(within(ignored).getByText('ciao')).toBeInTheDocument();
    expect(count(calls, START)).toBe(0); // nothing runs before the confirmation

    // confirmed: the job is at the top of the list at once, and the list is read every second
    fake[LIST] = {
      status: 200,
      body: [bulkJob({ sourceName: '', totalCodes: 2, cost: 2, status: 'RUNNING', doneCodes: 1 })],
    };
    await userEvent.click(within(preview).getByRole('button', { name: 'Avvia la ricerca' }));
    expect(sentBodies).toContainEqual({
      call: START,
      body: { taxCodes: ['01234567897', '01234567890'], sourceName: '' },
    });
    await screen.findByText('Ricerca massiva avviata: riceverà un’email quando è pronta');
    expect(screen.queryByRole('heading', { name: /^Anteprima/ })).not.toBeInTheDocument();
    expect(pasteBox()).toHaveValue('');
    // the searches left in the navigation bar are read again after the charge
    await waitFor(() => expect(count(calls, 'GET /api/clients/me')).toBeGreaterThanOrEqual(2));

    const bar = await screen.findByRole('progressbar', { name: 'Avanzamento di elenco incollato' });
    expect(within(jobsTable()).getAllByRole('row')).toHaveLength(2);
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '1'), POLL_WAIT);
    expect(bar).toHaveAttribute('aria-valuemax', '2');
    expect(within(jobsTable()).getByText('1 / 2')).toBeInTheDocument();
    expect(within(jobsTable()).getByText('In corso')).toBeInTheDocument();

    fake[LIST] = {
      status: 200,
      body: [
        completedBulkJob({
          sourceName: '',
          totalCodes: 2,
          doneCodes: 2,
          cost: 2,
          companiesWithAids: 1,
          aids: 3,
          overCeiling: 0,
        }),
      ],
    };
    await within(jobsTable()).findByText('Completata', undefined, POLL_WAIT);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    const row = within(jobsTable()).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('1 impresa con aiuti');
    expect(row).toHaveTextContent('3 aiuti');
    expect(row).toHaveTextContent('0 oltre il massimale');
    expect(row).toHaveTextContent('2 ricerche');

    const polls = count(calls, LIST);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(count(calls, LIST)).toBe(polls);
  }, 20_000);

  it('"Annulla" clears the preview and the list, and nothing is started', async () => {
    const { calls } = await startRememberedApp(
      routes({ [PREVIEW]: { status: 200, body: bulkPreview() } }),
      PAGE,
    );
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    await pasteAndPreview('01234567897');
    await screen.findByRole('heading', { name: 'Anteprima: elenco incollato' });
    await userEvent.click(screen.getByRole('button', { name: 'Annulla' }));
    expect(screen.queryByRole('heading', { name: /^Anteprima/ })).not.toBeInTheDocument();
    expect(pasteBox()).toHaveValue('');
    expect(count(calls, START)).toBe(0);
  });
});

describe('a file', () => {
  it('is sent as multipart with the file, and again with the column picked by its header', async () => {
    const fake = routes({
      [PREVIEW]: {
        status: 200,
        body: bulkPreview({ sourceName: 'clienti.csv', columns: ['Ragione sociale', 'Codice fiscale'] }),
      },
    });
    await startRememberedApp(fake, PAGE);
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    const file = new File(['Ragione sociale;Codice fiscale\nAlfa;01234567897\n'], 'clienti.csv', {
      type: 'text/csv',
    });
    await userEvent.upload(fileInput(), file);
    await screen.findByRole('heading', { name: 'Anteprima: clienti.csv' });
    expect(screen.getByText('clienti.csv', { selector: '.file-picker__name' })).toBeInTheDocument();

    const forms = () =>
      sentBodies.filter((sent) => sent.call === PREVIEW).map((sent) => sent.body as FormData);
    expect(forms()).toHaveLength(1);
    expect((forms()[0]!.get('file') as File).name).toBe('clienti.csv');
    expect(forms()[0]!.get('column')).toBeNull();

    const picker = screen.getByLabelText('Colonna dei codici fiscali');
    expect(picker).toHaveValue('');
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Prima colonna', 'Ragione sociale', 'Codice fiscale']);
    fake[PREVIEW] = {
      status: 200,
      body: bulkPreview({
        sourceName: 'clienti.csv',
        column: 'Codice fiscale',
        columns: ['Ragione sociale', 'Codice fiscale'],
        taxCodes: ['01234567897', 'RSSMRA80A01H501U', '00116594550'],
        warnings: [],
        cost: 3,
      }),
    };
    await userEvent.selectOptions(picker, 'Codice fiscale');
    await screen.findByText('Costo: 3 ricerche');
    expect(forms()).toHaveLength(2);
    expect((forms()[1]!.get('file') as File).name).toBe('clienti.csv');
    expect(forms()[1]!.get('column')).toBe('Codice fiscale');
    expect(screen.getByLabelText('Colonna dei codici fiscali')).toHaveValue('Codice fiscale');
  });

  it('can be dropped on the page', async () => {
    await startRememberedApp(
      routes({ [PREVIEW]: { status: 200, body: bulkPreview({ sourceName: 'clienti.xlsx' }) } }),
      PAGE,
    );
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    const file = new File(['PK'], 'clienti.xlsx');
    fireEvent.drop(screen.getByTestId('bulk-drop'), { dataTransfer: { files: [file] } });
    await screen.findByRole('heading', { name: 'Anteprima: clienti.xlsx' });
    const sent = sentBodies.find((body) => body.call === PREVIEW)?.body as FormData;
    expect((sent.get('file') as File).name).toBe('clienti.xlsx');
  });

  it('over 5 MB is refused without being uploaded', async () => {
    const { calls } = await startRememberedApp(routes(), PAGE);
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    const file = new File(['x'], 'enorme.csv', { type: 'text/csv' });
    Object.defineProperty(file, 'size', { value: BULK_MAX_FILE_BYTES + 1 });
    await userEvent.upload(fileInput(), file);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Il file supera i 5 MB: lo riduca o incolli i codici',
    );
    expect(fileInput()).toHaveAccessibleDescription('Il file supera i 5 MB: lo riduca o incolli i codici');
    expect(count(calls, PREVIEW)).toBe(0);
  });
});

describe('bad input', () => {
  it.each([
    [
      'B001',
      415,
      'Il file non è un foglio Excel (.xlsx) o un file CSV: ne carichi uno in uno di questi formati',
    ],
    ['B002', 400, 'Il file è protetto da password o danneggiato: lo salvi di nuovo senza password e riprovi'],
    ['B003', 400, 'L’elenco supera i 5.000 codici fiscali: lo divida in più ricerche'],
    ['B004', 413, 'Il file supera i 5 MB: lo riduca o incolli i codici'],
    ['B005', 400, 'Nessun codice fiscale trovato nell’elenco: controlli la colonna scelta'],
  ])(
    'a preview refused with %s says so in Italian, and nothing can be started',
    async (code, status, text) => {
      const { calls } = await startRememberedApp(routes({ [PREVIEW]: refusal(status, code) }), PAGE);
      await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
      await userEvent.upload(fileInput(), new File(['?'], 'elenco.xlsx'));
      expect(await screen.findByRole('alert')).toHaveTextContent(text);
      expect(screen.queryByRole('heading', { name: /^Anteprima/ })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Avvia la ricerca' })).not.toBeInTheDocument();
      expect(within(jobsTable()).getByText('Non ha ancora avviato ricerche massive')).toBeInTheDocument();
      expect(count(calls, START)).toBe(0);
    },
  );

  it('a pasted list refused (B003) is told beside the list it is about', async () => {
    await startRememberedApp(routes({ [PREVIEW]: refusal(400, 'B003') }), PAGE);
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    await pasteAndPreview('01234567897');
    await screen.findByRole('alert');
    expect(pasteBox()).toHaveAccessibleDescription(
      'L’elenco supera i 5.000 codici fiscali: lo divida in più ricerche',
    );
    expect(pasteBox()).toHaveAttribute('aria-invalid', 'true');
    expect(fileInput()).not.toHaveAttribute('aria-invalid');
  });

  it.each([
    ['U004', 429, 'Ricerche disponibili esaurite, contatti l’amministratore'],
    ['A002', 403, 'Abbonamento scaduto, contatti il referente commerciale'],
    ['B003', 400, 'L’elenco supera i 5.000 codici fiscali: lo divida in più ricerche'],
    ['B005', 400, 'Nessun codice fiscale trovato nell’elenco: controlli la colonna scelta'],
  ])('a confirmation refused with %s says so in Italian, and no job appears', async (code, status, text) => {
    const { calls } = await startRememberedApp(
      routes({ [PREVIEW]: { status: 200, body: bulkPreview() }, [START]: refusal(status, code) }),
      PAGE,
    );
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    await pasteAndPreview('01234567897');
    await userEvent.click(await screen.findByRole('button', { name: 'Avvia la ricerca' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(count(calls, START)).toBe(1);
    // the preview stays, to try again or cancel; the list has no job
    expect(screen.getByRole('heading', { name: 'Anteprima: elenco incollato' })).toBeInTheDocument();
    expect(within(jobsTable()).getByText('Non ha ancora avviato ricerche massive')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('a column with no codes keeps the preview of the previous one and says why', async () => {
    const fake = routes({
      [PREVIEW]: { status: 200, body: bulkPreview({ sourceName: 'clienti.csv', columns: ['Nome', 'Note'] }) },
    });
    await startRememberedApp(fake, PAGE);
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    await userEvent.upload(fileInput(), new File(['Nome;Note'], 'clienti.csv'));
    await screen.findByRole('heading', { name: 'Anteprima: clienti.csv' });
    fake[PREVIEW] = refusal(400, 'B005');
    await userEvent.selectOptions(screen.getByLabelText('Colonna dei codici fiscali'), 'Note');
    expect(await screen.findByRole('alert')).toHaveTextContent('Nessun codice fiscale trovato nell’elenco');
    expect(screen.getByLabelText('Colonna dei codici fiscali')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Avvia la ricerca' })).toBeEnabled();
  });
});

describe('the cost', () => {
  it('a client without enough searches left cannot confirm, and is told why', async () => {
    const { calls } = await startRememberedApp(
      routes({
        [PREVIEW]: {
          status: 200,
          body: bulkPreview({ newToday: 12, cost: 12, remainingSearches: 3, affordable: false }),
        },
      }),
      PAGE,
    );
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    await pasteAndPreview('01234567897');
    const confirm = await screen.findByRole('button', { name: 'Avvia la ricerca' });
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveAccessibleDescription(/^Ricerche disponibili esaurite, contatti l’amministratore/);
    expect(confirm).toHaveAccessibleDescription(/le restano 3 ricerche, ne servono 12/);
    expect(screen.getByText('Costo: 12 ricerche')).toBeInTheDocument();
    await userEvent.click(confirm);
    expect(count(calls, START)).toBe(0);
  });

  it('is "Gratuita" for ADMIN, who has no allowance to show', async () => {
    const admin = adminUser();
    await startRememberedApp(
      routes(
        {
          [PREVIEW]: {
            status: 200,
            body: bulkPreview({ newToday: 2, cost: 0, remainingSearches: null, affordable: true }),
          },
        },
        admin,
      ),
      PAGE,
    );
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    await pasteAndPreview('01234567897');
    await screen.findByRole('heading', { name: 'Anteprima: elenco incollato' });
    expect(screen.getByText('Gratuita')).toBeInTheDocument();
    expect(screen.queryByText(/^Costo:/)).not.toBeInTheDocument();
    expect(screen.queryByText('Ricerche disponibili')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Avvia la ricerca' })).toBeEnabled();
  });

  it('is "Gratuita" for a client whose companies were all looked up today', async () => {
    await startRememberedApp(
      routes({ [PREVIEW]: { status: 200, body: bulkPreview({ newToday: 0, cost: 0 }) } }),
      PAGE,
    );
    await screen.findByRole('heading', { name: 'Ricerca massiva', level: 1 });
    await pasteAndPreview('01234567897');
    await screen.findByText('Gratuita');
    expect(screen.getByText('Tutte le imprese dell’elenco sono già state cercate oggi.')).toBeInTheDocument();
  });
});

describe('the jobs list', () => {
  it('comes from the server, so a reload shows a running job where it is, and the states in Italian', async () => {
    const requested = Date.now() - 3_600_000;
    const running = bulkJob({
      jobId: 'j-run',
      status: 'RUNNING',
      doneCodes: 1_234,
      totalCodes: 5_000,
      requestedAt: new Date(requested).toISOString(),
    });
    await startRememberedApp(
      routes({
        [LIST]: {
          status: 200,
          body: [
            running,
            bulkJob({ jobId: 'j-q', sourceName: 'banca.csv' }),
            completedBulkJob({ jobId: 'j-done', sourceName: 'vecchio.xlsx' }),
            bulkJob({ jobId: 'j-fail', sourceName: 'rotto.xlsx', status: 'FAILED', failureCode: 'G007' }),
            completedBulkJob({ jobId: 'j-exp', sourceName: 'antico.xlsx', status: 'EXPIRED' }),
          ],
        },
      }),
      PAGE,
    );
    const bar = await screen.findByRole('progressbar', { name: 'Avanzamento di clienti.xlsx' });
    expect(bar).toHaveAttribute('aria-valuenow', '1234');
    expect(bar).toHaveAttribute('aria-valuemax', '5000');
    const rows = within(jobsTable()).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('1.234 / 5.000');
    expect(rows[0]).toHaveTextContent(formatDateTime(requested));
    expect(rows[0]).toHaveTextContent('In corso');
    expect(rows[1]).toHaveTextContent('In coda');
    expect(rows[1]).toHaveTextContent('0 / 300');
    expect(rows[2]).toHaveTextContent('Completata');
    expect(rows[2]).toHaveTextContent('120 imprese con aiuti');
    expect(rows[2]).toHaveTextContent('1.234 aiuti');
    expect(rows[2]).toHaveTextContent('4 oltre il massimale');
    expect(rows[2]).toHaveTextContent('12 ricerche');
    expect(rows[3]).toHaveTextContent('Non riuscita');
    expect(rows[3]).toHaveTextContent('Sito RNA temporaneamente non disponibile');
    expect(within(rows[3]!).queryByRole('button')).not.toBeInTheDocument();
    expect(rows[4]).toHaveTextContent('Scaduta');
    expect(rows[4]).toHaveTextContent('Non più disponibile');
    expect(within(rows[4]!).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says when it cannot be read, and reads it again on "Riprova"', async () => {
    const fake = routes({ [LIST]: refusal(500, 'G002') });
    await startRememberedApp(fake, PAGE);
    await within(await screen.findByRole('table', { name: 'Le sue ricerche massive' })).findByText(
      'Errore di comunicazione con il database, contatti l’assistenza',
    );
    fake[LIST] = { status: 200, body: [completedBulkJob()] };
    await userEvent.click(within(jobsTable()).getByRole('button', { name: 'Riprova' }));
    await within(jobsTable()).findByText('Completata');
  });
});

describe('downloads', () => {
  let clicked: { href: string; download: string }[];
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click');
  beforeEach(() => {
    clicked = [];
    click.mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    Object.assign(URL, { createObjectURL: () => 'blob:result', revokeObjectURL: () => undefined });
  });
  afterAll(() => click.mockRestore());

  it('fetch the job’s workbook and PDF, until the date shown, and read the list again', async () => {
    const job = completedBulkJob({ jobId: 'j 1' });
    const { calls } = await startRememberedApp(
      routes({
        [LIST]: { status: 200, body: [job] },
        'GET /api/bulk-searches/j%201/sheet': { status: 200 },
        'GET /api/bulk-searches/j%201/pdf': { status: 200 },
      }),
      PAGE,
    );
    const sheet = await screen.findByRole('button', { name: 'Scarica Excel di clienti.xlsx' });
    expect(
      within(jobsTable()).getByText(`disponibile fino al ${formatDate(Date.parse(job.expiresAt!))}`),
    ).toBeInTheDocument();
    const reads = count(calls, LIST);
    await userEvent.click(sheet);
    await waitFor(() =>
      expect(clicked).toEqual([{ href: 'blob:result', download: 'ricerca-massiva-clienti.xlsx' }]),
    );
    expect(calls).toContain('GET /api/bulk-searches/j%201/sheet');
    await waitFor(() => expect(count(calls, LIST)).toBe(reads + 1)); // 'downloaded' is the server's now

    await userEvent.click(screen.getByRole('button', { name: 'Scarica PDF di clienti.xlsx' }));
    await waitFor(() => expect(clicked).toHaveLength(2));
    expect(clicked[1]!.download).toBe('ricerca-massiva-clienti.pdf');
    expect(calls).toContain('GET /api/bulk-searches/j%201/pdf');
  });

  it('offer no PDF to a client without PDF downloads', async () => {
    await startRememberedApp(
      routes({ [LIST]: { status: 200, body: [completedBulkJob()] } }, { ...CLIENT, pdfEnabled: false }),
      PAGE,
    );
    await screen.findByRole('button', { name: 'Scarica Excel di clienti.xlsx' });
    expect(screen.queryByRole('button', { name: /Scarica PDF/ })).not.toBeInTheDocument();
  });

  it('of a result that has just expired say so (B006) and show the job’s new state', async () => {
    const fake = routes({
      [LIST]: { status: 200, body: [completedBulkJob()] },
      'GET /api/bulk-searches/job-1/sheet': refusal(410, 'B006'),
    });
    await startRememberedApp(fake, PAGE);
    const sheet = await screen.findByRole('button', { name: 'Scarica Excel di clienti.xlsx' });
    fake[LIST] = { status: 200, body: [completedBulkJob({ status: 'EXPIRED' })] };
    await userEvent.click(sheet);
    await screen.findByText(
      'Il risultato di questa ricerca massiva non è più disponibile (si conserva per 30 giorni)',
    );
    await within(jobsTable()).findByText('Scaduta');
    expect(clicked).toEqual([]);
  });
});
