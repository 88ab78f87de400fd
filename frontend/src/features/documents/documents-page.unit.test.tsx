/** The results page of a search of several companies: whose figures and rows are whose. */
import { screen, within } from '@testing-library/react';
import {
  aidRow,
  clientUser,
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

  it('shows neither for one company', async () => {
    const user = clientUser('c1', 'cliente@example.it');
    const result = searchResult([ALFA], [aidRow(ALFA, 'ALFA SRL', 'Bando uno')]);
    await startRememberedApp(
      { ...signedInRoutes(user), [documentsCall([ALFA])]: { status: 200, body: result } },
      `/documents?taxCode=${ALFA}&deMinimis=false&last3Years=false`,
    );
    await screen.findByText('Bando uno');
    expect(screen.queryByRole('table', { name: 'Riepilogo per impresa' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Beneficiario' })).not.toBeInTheDocument();
  });
});
