/** The groups screen (imprese uniche) as an accountant uses it: create, edit, delete, search a group. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UndertakingGroupDto } from '@rna/domain';
import { clientUser, documentsCall, searchResult, signedInRoutes, startRememberedApp } from '../../test/app';
import { sentBodies, type FakeRoutes } from '../../test/fake-server';

const CLIENT = clientUser('c1', 'studio@example.it');
const PAGE = '/imprese-uniche';
const LIST = 'GET /api/groups';
const ALFA = '01234567897';
const BETA = 'RSSMRA80A01H501U';
const GAMMA = '00116594550';

const group = (overrides: Partial<UndertakingGroupDto> = {}): UndertakingGroupDto => ({
  id: 'g1',
  name: 'Gruppo Alfa',
  members: [
    { taxCode: ALFA, note: 'capogruppo' },
    { taxCode: BETA, note: '' },
  ],
  createdAt: Date.now() - 86_400_000,
  updatedAt: Date.now() - 3_600_000,
  ...overrides,
});

const routes = (groups: UndertakingGroupDto[], overrides: FakeRoutes = {}): FakeRoutes => ({
  ...signedInRoutes(CLIENT),
  [LIST]: { status: 200, body: groups },
  ...overrides,
});

const groupList = () => screen.getByRole('list', { name: 'Le sue imprese uniche' });
const dialog = () => screen.getByRole('dialog');

async function openPage(fake: FakeRoutes) {
  const started = await startRememberedApp(fake, PAGE);
  await screen.findByRole('heading', { name: 'Imprese uniche', level: 1 });
  return started;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the groups screen', () => {
  it('is in the navigation bar and names the tab', async () => {
    await startRememberedApp(routes([]));
    await screen.findByRole('heading', { name: 'Ricerca aiuti di Stato' });
    const nav = screen.getByRole('navigation', { name: 'Menu principale' });
    await userEvent.click(within(nav).getByRole('link', { name: 'Imprese uniche' }));
    await screen.findByRole('heading', { name: 'Imprese uniche', level: 1 });
    expect(document.title).toBe('Imprese uniche – Portale Aiuti di Stato');
    expect(await screen.findByText('Non ha ancora creato imprese uniche.')).toBeInTheDocument();
    expect(screen.getByText('0 imprese uniche su 50')).toBeInTheDocument();
  });

  it('on a phone has it in the menu', async () => {
    const matchMedia = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...matchMedia(query), matches: true })) as typeof matchMedia;
    try {
      await startRememberedApp(routes([]));
      await screen.findByRole('heading', { name: 'Ricerca aiuti di Stato' });
      await userEvent.click(screen.getByRole('button', { name: 'Apri il menu' }));
      await userEvent.click(
        within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Imprese uniche' }),
      );
      await screen.findByRole('heading', { name: 'Imprese uniche', level: 1 });
    } finally {
      window.matchMedia = matchMedia;
    }
  });

  it('creates a group from typed and pasted codes, with a note, and lists it', async () => {
    const created = group({
      id: 'g2',
      name: 'Gruppo Rossi',
      members: [
        { taxCode: ALFA, note: 'controllata al 60%' },
        { taxCode: BETA, note: '' },
        { taxCode: GAMMA, note: '' },
      ],
    });
    const { calls } = await openPage(routes([], { 'POST /api/groups': { status: 201, body: created } }));
    await screen.findByText('Non ha ancora creato imprese uniche.');
    await userEvent.click(screen.getByRole('button', { name: 'Nuova impresa unica' }));
    expect(within(dialog()).getByRole('heading', { name: 'Nuova impresa unica' })).toBeInTheDocument();

    await userEvent.type(within(dialog()).getByLabelText('Nome'), 'Gruppo Rossi');
    await userEvent.type(within(dialog()).getByLabelText('Codice fiscale 1'), ALFA.toLowerCase());
    await userEvent.type(within(dialog()).getByLabelText('Nota 1'), 'controllata al 60%');
    await userEvent.type(
      within(dialog()).getByLabelText(/^Incolli più codici fiscali/),
      `${BETA}{Enter}${ALFA}{Enter}${GAMMA}{Enter}ciao`,
    );
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Aggiungi all’elenco' }));
    const outcome = within(dialog()).getByRole('status');
    expect(outcome).toHaveTextContent('2 codici aggiunti');
    expect(outcome).toHaveTextContent('1 codice era già nell’elenco');
    expect(outcome).toHaveTextContent(
      'Ignorato perché non è un codice fiscale (11–16 lettere e cifre): ciao',
    );
    expect(within(dialog()).getByLabelText('Codice fiscale 3')).toHaveValue(GAMMA);
    expect(within(dialog()).getByText('Imprese del gruppo (3 di 100)')).toBeInTheDocument();

    await userEvent.click(within(dialog()).getByRole('button', { name: 'Crea' }));
    await screen.findByText('Impresa unica creata');
    expect(sentBodies).toContainEqual({
      call: 'POST /api/groups',
      body: {
        name: 'Gruppo Rossi',
        members: [{ taxCode: ALFA, note: 'controllata al 60%' }, { taxCode: BETA }, { taxCode: GAMMA }],
      },
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const card = within(groupList()).getByRole('heading', { name: 'Gruppo Rossi' }).closest('li')!;
    expect(card).toHaveTextContent('3 imprese');
    expect(card).toHaveTextContent(`${ALFA} · controllata al 60%`);
    expect(screen.getByText('1 impresa unica su 50')).toBeInTheDocument();
    // the answer itself updated the list: it was not read again
    expect(calls.filter((c) => c === LIST)).toHaveLength(1);
  });

  it('edits a group: renamed, a company removed; the list shows the change', async () => {
    const renamed = group({ name: 'Gruppo Alfa Holding', members: [{ taxCode: ALFA, note: 'capogruppo' }] });
    await openPage(routes([group()], { 'PUT /api/groups/g1': { status: 200, body: renamed } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Modifica Gruppo Alfa' }));
    expect(within(dialog()).getByLabelText('Nome')).toHaveValue('Gruppo Alfa');
    expect(within(dialog()).getByLabelText('Codice fiscale 2')).toHaveValue(BETA);
    expect(within(dialog()).getByLabelText('Nota 1')).toHaveValue('capogruppo');

    await userEvent.clear(within(dialog()).getByLabelText('Nome'));
    await userEvent.type(within(dialog()).getByLabelText('Nome'), 'Gruppo Alfa Holding');
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Rimuovi la riga 2' }));
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Salva' }));

    await screen.findByText('Impresa unica salvata');
    expect(sentBodies).toContainEqual({
      call: 'PUT /api/groups/g1',
      body: { name: 'Gruppo Alfa Holding', members: [{ taxCode: ALFA, note: 'capogruppo' }] },
    });
    const card = within(groupList()).getByRole('heading', { name: 'Gruppo Alfa Holding' }).closest('li')!;
    expect(card).toHaveTextContent('1 impresa');
    expect(card).not.toHaveTextContent(BETA);
    expect(within(groupList()).queryByRole('heading', { name: 'Gruppo Alfa' })).not.toBeInTheDocument();
  });

  it('deletes a group only after the confirmation', async () => {
    const other = group({ id: 'g9', name: 'Beta SpA', members: [{ taxCode: GAMMA, note: '' }] });
    const { calls } = await openPage(routes([group(), other], { 'DELETE /api/groups/g1': { status: 204 } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Elimina Gruppo Alfa' }));
    const confirm = screen.getByRole('dialog', { name: 'Eliminare l’impresa unica?' });
    expect(confirm).toHaveTextContent('L’impresa unica «Gruppo Alfa» sarà eliminata.');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Annulla' }));
    expect(calls).not.toContain('DELETE /api/groups/g1');
    expect(within(groupList()).getByRole('heading', { name: 'Gruppo Alfa' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Elimina Gruppo Alfa' }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Eliminare l’impresa unica?' })).getByRole('button', {
        name: 'Elimina',
      }),
    );
    await screen.findByText('Impresa unica eliminata');
    expect(calls).toContain('DELETE /api/groups/g1');
    expect(within(groupList()).queryByRole('heading', { name: 'Gruppo Alfa' })).not.toBeInTheDocument();
    expect(within(groupList()).getByRole('heading', { name: 'Beta SpA' })).toBeInTheDocument();
  });

  it('opens the documents of a group’s codes, naming the group for the headroom', async () => {
    const { calls } = await openPage(
      routes([group()], {
        [documentsCall([ALFA, BETA], false, false, 'g1')]: {
          status: 200,
          body: searchResult([ALFA, BETA], []),
        },
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Cerca Gruppo Alfa' }));
    await screen.findByRole('heading', { name: `Risultati per ${ALFA}, ${BETA}` });
    // searched as the group: one undertaking, one allowance
    expect(calls).toContain(documentsCall([ALFA, BETA], false, false, 'g1'));
    // the headroom is asked for the group, not for the codes of the address
    const panel = screen.getByRole('region', { name: 'Residuo alla data' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Calcola il residuo' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.startsWith('GET /api/de-minimis/headroom?'))).toEqual([
        expect.stringMatching(
          /^GET \/api\/de-minimis\/headroom\?group=g1&date=\d{4}-\d{2}-\d{2}&regime=GENERAL$/,
        ),
      ]),
    );
  });
});

describe('an invalid group', () => {
  it('is not sent: I002 and what to fix, each message gone once fixed', async () => {
    const { calls } = await openPage(routes([]));
    await userEvent.click(await screen.findByRole('button', { name: 'Nuova impresa unica' }));
    await userEvent.type(within(dialog()).getByLabelText('Codice fiscale 1'), ALFA);
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Aggiungi un’impresa' }));
    await userEvent.type(within(dialog()).getByLabelText('Codice fiscale 2'), ALFA);
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Aggiungi un’impresa' }));
    await userEvent.type(within(dialog()).getByLabelText('Codice fiscale 3'), '12345');
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Crea' }));

    expect(within(dialog()).getByRole('alert')).toHaveTextContent(
      'Impresa unica non valida: indichi un nome e da 1 a 100 codici fiscali validi, senza ripetizioni',
    );
    expect(within(dialog()).getByLabelText('Nome')).toHaveAccessibleDescription('Il nome è obbligatorio');
    expect(within(dialog()).getByLabelText('Codice fiscale 2')).toHaveAccessibleDescription(
      `${ALFA} compare più di una volta`,
    );
    expect(within(dialog()).getByLabelText('Codice fiscale 3')).toHaveAccessibleDescription(
      '12345 non è un codice fiscale valido (11–16 lettere e cifre)',
    );
    expect(within(dialog()).getByLabelText('Codice fiscale 1')).toHaveAttribute('aria-invalid', 'false');
    expect(calls).not.toContain('POST /api/groups');

    await userEvent.type(within(dialog()).getByLabelText('Nome'), 'Gruppo');
    expect(within(dialog()).getByLabelText('Nome')).toHaveAttribute('aria-invalid', 'false');
    expect(within(dialog()).queryByText('Il nome è obbligatorio')).not.toBeInTheDocument();
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Rimuovi la riga 3' }));
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Rimuovi la riga 2' }));
    expect(within(dialog()).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('refused by the server shows I002, and the editor stays open with what was typed', async () => {
    await openPage(
      routes([], {
        'POST /api/groups': { status: 400, body: { code: 'I002', message: 'Impresa unica non valida' } },
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Nuova impresa unica' }));
    await userEvent.type(within(dialog()).getByLabelText('Nome'), 'Gruppo');
    await userEvent.type(within(dialog()).getByLabelText('Codice fiscale 1'), ALFA);
    await userEvent.click(within(dialog()).getByRole('button', { name: 'Crea' }));
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent(
      'Impresa unica non valida: indichi un nome e da 1 a 100 codici fiscali validi, senza ripetizioni',
    );
    expect(within(dialog()).getByLabelText('Nome')).toHaveValue('Gruppo');
    expect(screen.queryByText('Impresa unica creata')).not.toBeInTheDocument();
  });

  it('the 51st is not offered: the limit is told (I001)', async () => {
    const many = Array.from({ length: 50 }, (_, i) => group({ id: `g${i}`, name: `Gruppo ${i}` }));
    await openPage(routes(many));
    await screen.findByText('50 imprese uniche su 50');
    expect(screen.getByRole('button', { name: 'Nuova impresa unica' })).toBeDisabled();
    expect(
      screen.getByText(
        'Ha raggiunto il numero massimo di imprese uniche (50): ne elimini una prima di crearne un’altra',
      ),
    ).toBeInTheDocument();
  });
});

describe('a failure', () => {
  it('to delete is told with the catalogue text (I003) and the list is read again', async () => {
    const { calls } = await openPage(
      routes([group()], { 'DELETE /api/groups/g1': { status: 404, body: { code: 'I003', message: 'x' } } }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Elimina Gruppo Alfa' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Elimina' }));
    await screen.findByText('Impresa unica non trovata');
    await waitFor(() => expect(calls.filter((c) => c === LIST)).toHaveLength(2));
  });
});
