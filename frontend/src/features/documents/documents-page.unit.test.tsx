/** The results page of a search of several companies: whose figures and rows are whose. */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '../../lib/api';
import {
  aidRow,
  clientUser,
  documentDetailsCall,
  documentsCall,
  searchResult,
  signedInRoutes,
  startRememberedApp,
} from '../../test/app';

const ALFA = '01234567897';
const BETA = 'RSSMRA80A01H501U';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('a search of several companies', () => {
  it('shows a summary per company above the table, and the beneficiary of every row', async () => {
    const user = clientUser('c1', 'cliente@example.it');
    const result = searchResult(
      [ALFA, BETA],
      [aidRow(ALFA, 'ALFA SRL', 'Bando uno', '1000'), aidRow(BETA, 'Mario Rossi', 'Bando due', '2500')],
    );
    result.perCode[1] = { ...result.perCode[1]!, deMinimisUsed: 310_000, remainingDeMinimis: -10_000 };
    await startRememberedApp(
      { ...signedInRoutes(user), [documentsCall([ALFA, BETA])]: { status: 200, body: result } },
      `/documents?taxCode=${ALFA},${BETA}&deMinimis=false&last3Years=false`,
    );
    const summary = await screen.findByRole('table', { name: 'Riepilogo per impresa' });
    const [, alfa, beta] = within(summary).getAllByRole('row');
    expect(alfa).toHaveTextContent(`${ALFA}ALFA SRL11.000,00 €`);
    expect(beta).toHaveTextContent(`${BETA}Mario Rossi`);
    expect(beta).toHaveTextContent('-10.000,00 € (massimale superato)');

    const table = screen.getByRole('table', { name: 'Aiuti concessi' });
    expect(within(table).getByRole('columnheader', { name: 'Beneficiario' })).toBeInTheDocument();
    expect(within(table).getByText('Mario Rossi')).toBeInTheDocument();
  });

  it('never shows unrelated companies’ allowance added up: the remaining card names the company it is', async () => {
    const user = clientUser('c1', 'cliente@example.it');
    const result = {
      ...searchResult(
        [ALFA, BETA],
        [aidRow(ALFA, 'ALFA SRL', 'Bando uno', '1000'), aidRow(BETA, 'Mario Rossi', 'Bando due', '2500')],
      ),
      deMinimisOf: { taxCode: BETA, name: 'Mario Rossi' },
    };
    result.stats = { ...result.stats, remainingDeMinimis: 40_000 };
    await startRememberedApp(
      { ...signedInRoutes(user), [documentsCall([ALFA, BETA])]: { status: 200, body: result } },
      `/documents?taxCode=${ALFA},${BETA}&deMinimis=false&last3Years=false`,
    );
    const card = await screen.findByRole('region', {
      name: 'De minimis residuo di Mario Rossi (il più basso)',
    });
    expect(card).toHaveTextContent('40.000,00 €');
    expect(card).not.toHaveTextContent('massimale superato');
    expect(
      screen.getByText(/vale per ciascuna impresa: le imprese cercate insieme non si sommano/),
    ).toHaveTextContent('quelli di Mario Rossi');
    expect(await screen.findByRole('figure', { name: /di Mario Rossi \(36 mesi\)/ })).toBeInTheDocument();
  });

  it('says in words on the remaining card that the ceiling is exceeded, not by the minus sign alone', async () => {
    const user = clientUser('c1', 'cliente@example.it');
    const result = searchResult([ALFA], [aidRow(ALFA, 'ALFA SRL', 'Bando uno', '1000')]);
    result.stats = { ...result.stats, remainingDeMinimis: -749_362.6 };
    await startRememberedApp(
      { ...signedInRoutes(user), [documentsCall([ALFA])]: { status: 200, body: result } },
      `/documents?taxCode=${ALFA}&deMinimis=false&last3Years=false`,
    );
    const card = await screen.findByRole('region', { name: /^De minimis residuo/ });
    expect(card).toHaveTextContent('-749.362,60 € massimale superato');
  });

  it('shows neither for one company', async () => {
    const user = clientUser('c1', 'cliente@example.it');
    const result = searchResult([ALFA], [aidRow(ALFA, 'ALFA SRL', 'Bando uno')]);
    await startRememberedApp(
      { ...signedInRoutes(user), [documentsCall([ALFA])]: { status: 200, body: result } },
      `/documents?taxCode=${ALFA}&deMinimis=false&last3Years=false`,
    );
    await screen.findByText('Bando uno');
    // the company is named as the register writes it
    expect(screen.getByRole('heading', { name: `Risultati per ${ALFA} — ALFA SRL` })).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Riepilogo per impresa' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Beneficiario' })).not.toBeInTheDocument();
  });
});

describe('the two views of the results', () => {
  it('shows the spec’s three-column table first, and every aid’s references on the “Dettaglio aiuti” tab', async () => {
    const user = clientUser('c1', 'cliente@example.it');
    const row = {
      ...aidRow(ALFA, 'ALFA SRL', 'Bando uno', '1500'),
      cor: '4567890',
      car: '23456',
      cup: 'F81B24000010007',
      codRegolamento: 'CE2831/23',
      desRegolamento: 'Reg. UE 2023/2831 de minimis generale',
      importoNominale: '20000',
    };
    const { calls } = await startRememberedApp(
      {
        ...signedInRoutes(user),
        [documentsCall([ALFA])]: { status: 200, body: searchResult([ALFA], [row]) },
        [documentDetailsCall([ALFA])]: {
          status: 200,
          body: searchResult([ALFA], [row], { details: true }),
        },
      },
      `/documents?taxCode=${ALFA}&deMinimis=false&last3Years=false`,
    );
    const summary = await screen.findByRole('table', { name: 'Aiuti concessi' });
    expect(
      within(summary)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Data concessione', 'Descrizione procedimento', 'Elemento di aiuto']);
    expect(screen.getByRole('tab', { name: 'Sintesi' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.queryByText('4567890')).not.toBeInTheDocument();
    // the references are asked for only when the detail view is opened
    expect(calls).not.toContain(documentDetailsCall([ALFA]));

    fireEvent.click(screen.getByRole('tab', { name: 'Dettaglio aiuti' }));
    const details = await screen.findByRole('table', { name: 'Dettaglio degli aiuti concessi' });
    expect(calls).toContain(documentDetailsCall([ALFA]));
    expect(screen.queryByRole('table', { name: 'Aiuti concessi' })).not.toBeInTheDocument();
    const [, shown] = within(details).getAllByRole('row');
    for (const text of [
      '4567890',
      '23456',
      'F81B24000010007',
      'CE2831/23',
      'Regione',
      '20.000,00 €',
      '1.500,00 €',
    ])
      expect(shown).toHaveTextContent(text);
  });
});

describe('results already on screen', () => {
  it('are read again when the archive’s last update changes (a sync completed, the source switched)', async () => {
    const user = clientUser('c1', 'cliente@example.it');
    const routes = {
      ...signedInRoutes(user),
      'GET /api/sync/last-rna-sync': { status: 200, body: 1_700_000_000_000 },
      [documentsCall([ALFA])]: {
        status: 200,
        body: searchResult([ALFA], [aidRow(ALFA, 'ALFA SRL', 'Bando di ieri')]),
      },
    };
    const { store, calls } = await startRememberedApp(
      routes,
      `/documents?taxCode=${ALFA}&deMinimis=false&last3Years=false`,
    );
    await screen.findByText('Bando di ieri');
    const searches = () => calls.filter((c) => c === documentsCall([ALFA])).length;
    expect(searches()).toBe(1);

    // the same value again: nothing to refresh
    act(() => {
      store.dispatch(api.util.invalidateTags(['LastUpdate']));
    });
    await waitFor(() => expect(calls.filter((c) => c === 'GET /api/sync/last-rna-sync')).toHaveLength(2));
    expect(searches()).toBe(1);

    routes['GET /api/sync/last-rna-sync'] = { status: 200, body: 1_700_000_900_000 };
    routes[documentsCall([ALFA])] = {
      status: 200,
      body: searchResult([ALFA], [aidRow(ALFA, 'ALFA SRL', 'Bando di oggi')]),
    };
    act(() => {
      store.dispatch(api.util.invalidateTags(['LastUpdate']));
    });
    await screen.findByText('Bando di oggi');
    expect(searches()).toBe(2);
  });
});
