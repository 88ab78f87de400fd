/** "Residuo alla data" on the results page: asked on request only, and its figures as the user reads them. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeMinimisRegime, HeadroomDto } from '@rna/domain';
import {
  aidRow,
  clientUser,
  documentsCall,
  searchResult,
  signedInRoutes,
  startRememberedApp,
} from '../../test/app';
import type { FakeRoutes } from '../../test/fake-server';

const ALFA = '01234567897';
const BETA = 'RSSMRA80A01H501U';
const CLIENT = clientUser('c1', 'studio@example.it');
const TWO_CODES = `/documents?taxCode=${ALFA},${BETA}&deMinimis=false&last3Years=false`;

const amounts = (general: string, agriculture = '0.00', fisheries = '0.00', sieg = '0.00') => ({
  GENERAL: general,
  AGRICULTURE: agriculture,
  FISHERIES: fisheries,
  SIEG: sieg,
});

/** Two companies of a group on 30-06-2026: general, agricultural and SIEG aids, two of them leaving soon. */
const HEADROOM: HeadroomDto = {
  taxCodes: [ALFA, BETA],
  date: '2026-06-30',
  regime: 'GENERAL',
  windowStart: '2023-07-01',
  usedByRegime: amounts('180000.00', '20000.00', '0.00', '100000.00'),
  limits: [
    {
      ceiling: '300000.00',
      regimes: ['GENERAL', 'AGRICULTURE', 'FISHERIES'],
      used: '200000.00',
      remaining: '100000.00',
    },
    { ceiling: '750000.00', regimes: ['GENERAL', 'SIEG'], used: '280000.00', remaining: '470000.00' },
  ],
  headroom: '100000.00',
  releases: [
    { date: '2026-07-15', amount: '12000.00' },
    { date: '2027-03-15', amount: '50000.00' },
  ],
  perCompany: [
    { taxCode: ALFA, name: 'ALFA SRL', usedByRegime: amounts('150000.00', '20000.00', '0.00', '100000.00') },
    { taxCode: BETA, name: 'Mario Rossi', usedByRegime: amounts('30000.00') },
  ],
  unknownRegulationAids: 2,
  group: { id: 'g1', name: 'Gruppo Alfa' },
};

const headroomCall = (asked: Record<string, string>, date: string, regime: DeMinimisRegime = 'GENERAL') =>
  `GET /api/de-minimis/headroom?${new URLSearchParams({ ...asked, date, regime }).toString()}`;

function routes(codes: string[], extra: FakeRoutes = {}): FakeRoutes {
  return {
    ...signedInRoutes(CLIENT),
    [documentsCall(codes)]: {
      status: 200,
      body: searchResult(
        codes,
        codes.map((code) => aidRow(code, `Impresa ${code}`, `Bando ${code}`)),
      ),
    },
    // the same codes as the group g1 of the address: searched as one undertaking
    [documentsCall(codes, false, false, 'g1')]: {
      status: 200,
      body: searchResult(
        codes,
        codes.map((code) => aidRow(code, `Impresa ${code}`, `Bando ${code}`)),
      ),
    },
    ...extra,
  };
}

const panel = () => screen.getByRole('region', { name: 'Residuo alla data' });
const headroomCalls = (calls: string[]) => calls.filter((call) => call.includes('/de-minimis/headroom'));

async function pickDate(text: string) {
  const input = within(panel()).getByLabelText('Data prevista di concessione');
  await userEvent.clear(input);
  await userEvent.type(input, text);
  await userEvent.tab();
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the headroom at a planned date', () => {
  it('is computed only on request, for the group, and shows the limits, the releases and each company’s share', async () => {
    const call = headroomCall({ group: 'g1' }, '2026-06-30');
    const { calls } = await startRememberedApp(
      routes([ALFA, BETA], { [call]: { status: 200, body: HEADROOM } }),
      `${TWO_CODES}&group=g1`,
    );
    await screen.findByText(`Bando ${BETA}`);
    // the cards, the chart and the table stay as they were
    expect(screen.getByRole('region', { name: 'Numero documenti' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Aiuti concessi' })).toBeInTheDocument();

    // today by default, in the Italian format; the cost and the readings are told before anything is asked
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(within(panel()).getByLabelText('Data prevista di concessione')).toHaveValue(
      `${pad(now.getDate())}-${pad(now.getMonth() + 1)}-${now.getFullYear()}`,
    );
    expect(panel()).toHaveTextContent(
      'Il calcolo costa come una ricerca: una per ogni codice fiscale non ancora cercato oggi.',
    );
    expect(panel()).toHaveTextContent(
      'il periodo comprende ogni aiuto de minimis concesso dopo la data prevista meno tre anni e fino alla data prevista compresa',
    );
    expect(panel()).toHaveTextContent(
      'Il massimale di 750.000 € degli aiuti SIEG si applica agli aiuti SIEG e generali sommati',
    );
    expect(
      within(panel())
        .getAllByRole('option')
        .map((option) => option.textContent)
        .slice(-4),
    ).toEqual(['Generale', 'Agricoltura', 'Pesca', 'SIEG']);

    // changing the date or the regime asks nothing
    await pickDate('30-06-2026');
    await userEvent.selectOptions(within(panel()).getByLabelText('Regime de minimis'), 'SIEG');
    await userEvent.selectOptions(within(panel()).getByLabelText('Regime de minimis'), 'GENERAL');
    expect(headroomCalls(calls)).toEqual([]);
    const counterReads = calls.filter((c) => c === 'GET /api/clients/me').length;

    await userEvent.click(within(panel()).getByRole('button', { name: 'Calcola il residuo' }));
    const figure = await within(panel()).findByRole('status');
    expect(headroomCalls(calls)).toEqual([call]);
    expect(figure).toHaveTextContent('Residuo de minimis al 30-06-2026, regime Generale');
    expect(figure).toHaveTextContent('100.000,00 €');
    expect(figure).toHaveTextContent('Periodo considerato: dal 01-07-2023 al 30-06-2026');
    expect(panel()).toHaveTextContent(`Impresa unica «Gruppo Alfa»: ${ALFA}, ${BETA}`);

    const limits = within(panel()).getByRole('table', { name: 'Massimali applicati' });
    const [, general, sieg] = within(limits).getAllByRole('row');
    expect(general).toHaveTextContent(
      'Generale + Agricoltura + Pesca determina il residuo300.000,00 €200.000,00 €100.000,00 €',
    );
    expect(sieg).toHaveTextContent('Generale + SIEG750.000,00 €280.000,00 €470.000,00 €');
    expect(sieg).not.toHaveTextContent('determina il residuo');

    const releases = within(panel()).getAllByRole('listitem');
    expect(releases.map((item) => item.textContent)).toEqual([
      'Si liberano 12.000,00 € il 15-07-2026',
      'Si liberano 50.000,00 € il 15-03-2027',
    ]);

    const shares = within(panel()).getByRole('table', {
      name: 'Quota di ciascuna impresa (de minimis conteggiato nel periodo)',
    });
    const [, alfa, beta] = within(shares).getAllByRole('row');
    expect(alfa).toHaveTextContent(`${ALFA}ALFA SRL150.000,00 €20.000,00 €0,00 €100.000,00 €270.000,00 €`);
    expect(beta).toHaveTextContent(`${BETA}Mario Rossi30.000,00 €0,00 €0,00 €0,00 €30.000,00 €`);

    expect(panel()).toHaveTextContent(
      '2 aiuti de minimis indicano un regolamento non riconosciuto: sono conteggiati nel regime generale.',
    );
    expect(panel()).toHaveTextContent(
      'Gli aiuti de minimis nei settori agricoltura e pesca sono registrati per lo più in altri registri (SIAN per l’agricoltura, SIPA per la pesca)',
    );
    // charged like a search: the counter in the navigation bar is read again
    await waitFor(() =>
      expect(calls.filter((c) => c === 'GET /api/clients/me').length).toBeGreaterThan(counterReads),
    );
  });

  it('without a group asks for the codes and the regime chosen; one company has no share table', async () => {
    const one: HeadroomDto = {
      ...HEADROOM,
      taxCodes: [ALFA],
      regime: 'SIEG',
      limits: [HEADROOM.limits[1]!],
      headroom: '470000.00',
      releases: [],
      perCompany: [HEADROOM.perCompany[0]!],
      unknownRegulationAids: 0,
      group: null,
    };
    const call = headroomCall({ taxCodes: ALFA }, '2025-01-15', 'SIEG');
    const { calls } = await startRememberedApp(
      routes([ALFA], { [call]: { status: 200, body: one } }),
      `/documents?taxCode=${ALFA}&deMinimis=false&last3Years=false`,
    );
    await screen.findByText(`Bando ${ALFA}`);
    await pickDate('15-01-2025');
    await userEvent.selectOptions(within(panel()).getByLabelText('Regime de minimis'), 'SIEG');
    await userEvent.click(within(panel()).getByRole('button', { name: 'Calcola il residuo' }));
    const figure = await within(panel()).findByRole('status');
    expect(headroomCalls(calls)).toEqual([call]);
    expect(figure).toHaveTextContent('regime SIEG');
    expect(figure).toHaveTextContent('470.000,00 €');
    expect(panel()).toHaveTextContent(`Impresa unica formata da ${ALFA}`);
    expect(
      within(panel()).queryByRole('table', { name: /^Quota di ciascuna impresa/ }),
    ).not.toBeInTheDocument();
    expect(panel()).not.toHaveTextContent('regolamento non riconosciuto');
    expect(panel()).toHaveTextContent('Nessun aiuto de minimis conteggiato nel periodo');
  });
});

describe('the group of the address', () => {
  it('is kept when the same codes are searched again, and dropped for other codes', async () => {
    const { calls } = await startRememberedApp(
      routes([ALFA, BETA], {
        [documentsCall([ALFA, BETA], true, false, 'g1')]: {
          status: 200,
          body: searchResult([ALFA, BETA], []),
        },
        [documentsCall([ALFA], true)]: {
          status: 200,
          body: searchResult([ALFA], [aidRow(ALFA, 'ALFA SRL', 'Bando di ALFA')]),
        },
      }),
      `${TWO_CODES}&group=g1`,
    );
    await screen.findByText(`Bando ${BETA}`);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Solo de minimis' }));
    await userEvent.click(screen.getByRole('button', { name: 'Avvia ricerca' }));
    await waitFor(() => expect(calls).toContain(documentsCall([ALFA, BETA], true, false, 'g1')));
    await userEvent.click(await within(panel()).findByRole('button', { name: 'Calcola il residuo' }));
    await waitFor(() => expect(headroomCalls(calls)).toHaveLength(1));
    expect(headroomCalls(calls)[0]).toMatch(/\?group=g1&/);

    await userEvent.click(screen.getByRole('button', { name: `Rimuovi ${BETA}` }));
    await userEvent.click(screen.getByRole('button', { name: 'Avvia ricerca' }));
    await screen.findByText('Bando di ALFA');
    await userEvent.click(within(panel()).getByRole('button', { name: 'Calcola il residuo' }));
    await waitFor(() => expect(headroomCalls(calls)).toHaveLength(2));
    expect(headroomCalls(calls)[1]).toMatch(new RegExp(`\\?taxCodes=${ALFA}&`));
  });
});

describe('a refused headroom', () => {
  it('for a date before 2024 says D001’s text, and asks nothing', async () => {
    const { calls } = await startRememberedApp(routes([ALFA, BETA]), TWO_CODES);
    await screen.findByText(`Bando ${BETA}`);
    await pickDate('31-12-2023');
    await userEvent.click(within(panel()).getByRole('button', { name: 'Calcola il residuo' }));
    expect(within(panel()).getByRole('alert')).toHaveTextContent(
      'La data prevista deve essere dal 01-01-2024: prima si applicavano altre regole (Reg. UE 1407/2013)',
    );
    expect(headroomCalls(calls)).toEqual([]);
  });

  it('by the server is told with the catalogue text (D001), and the results stay', async () => {
    const call = headroomCall({ taxCodes: `${ALFA},${BETA}` }, '2024-01-01');
    await startRememberedApp(
      routes([ALFA, BETA], { [call]: { status: 400, body: { code: 'D001', message: 'x' } } }),
      TWO_CODES,
    );
    await screen.findByText(`Bando ${BETA}`);
    await pickDate('01-01-2024');
    await userEvent.click(within(panel()).getByRole('button', { name: 'Calcola il residuo' }));
    expect(await within(panel()).findByRole('alert')).toHaveTextContent(
      'La data prevista deve essere dal 01-01-2024: prima si applicavano altre regole (Reg. UE 1407/2013)',
    );
    expect(screen.getByText(`Bando ${BETA}`)).toBeInTheDocument();
  });

  it('for lack of searches (U004) is told in the panel, without leaving the results', async () => {
    const call = headroomCall({ taxCodes: `${ALFA},${BETA}` }, '2026-06-30');
    await startRememberedApp(
      routes([ALFA, BETA], { [call]: { status: 403, body: { code: 'U004', message: 'x' } } }),
      TWO_CODES,
    );
    await screen.findByText(`Bando ${BETA}`);
    await pickDate('30-06-2026');
    await userEvent.click(within(panel()).getByRole('button', { name: 'Calcola il residuo' }));
    expect(await within(panel()).findByRole('alert')).toHaveTextContent(
      'Ricerche disponibili esaurite, contatti l’amministratore',
    );
    expect(screen.getByRole('heading', { name: `Risultati per ${ALFA}, ${BETA}` })).toBeInTheDocument();
  });
});

describe('the de minimis self-declaration', () => {
  let saved: { href: string; download: string }[];
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click');
  beforeEach(() => {
    saved = [];
    click.mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });
    Object.assign(URL, { createObjectURL: () => 'blob:declaration', revokeObjectURL: () => undefined });
  });
  afterAll(() => click.mockRestore());

  const declarationCall = (asked: Record<string, string>, date: string, regime: DeMinimisRegime) =>
    `GET /api/de-minimis/declaration?${new URLSearchParams({ ...asked, date, regime }).toString()}`;
  const declarationCalls = (calls: string[]) =>
    calls.filter((call) => call.includes('/de-minimis/declaration'));
  const button = () => within(panel()).getByRole('button', { name: 'Scarica dichiarazione de minimis' });

  it('is downloaded for the group, the date and the regime chosen in the panel, without computing the headroom', async () => {
    const call = declarationCall({ group: 'g1' }, '2025-03-31', 'AGRICULTURE');
    const { calls } = await startRememberedApp(
      routes([ALFA, BETA], { [call]: { status: 200 } }),
      `${TWO_CODES}&group=g1`,
    );
    await screen.findByText(`Bando ${BETA}`);
    await pickDate('31-03-2025');
    await userEvent.selectOptions(within(panel()).getByLabelText('Regime de minimis'), 'AGRICULTURE');
    await userEvent.click(button());
    await waitFor(() =>
      expect(saved).toEqual([
        {
          href: 'blob:declaration',
          download: expect.stringMatching(
            new RegExp(`^dichiarazione-de-minimis-${ALFA}_${BETA}-\\d{4}-\\d{2}-\\d{2}\\.pdf$`),
          ),
        },
      ]),
    );
    expect(declarationCalls(calls)).toEqual([call]);
    expect(headroomCalls(calls)).toEqual([]);
  });

  it('without a group asks for the searched codes; a date before 2024 asks nothing', async () => {
    const call = declarationCall({ taxCodes: `${ALFA},${BETA}` }, '2026-06-30', 'GENERAL');
    const { calls } = await startRememberedApp(routes([ALFA, BETA], { [call]: { status: 200 } }), TWO_CODES);
    await screen.findByText(`Bando ${BETA}`);
    await pickDate('31-12-2023');
    await userEvent.click(button());
    expect(within(panel()).getByRole('alert')).toHaveTextContent(
      'La data prevista deve essere dal 01-01-2024',
    );
    expect(declarationCalls(calls)).toEqual([]);

    await pickDate('30-06-2026');
    await userEvent.click(button());
    await waitFor(() => expect(declarationCalls(calls)).toEqual([call]));
  });

  it('is not offered to a client without PDF reports', async () => {
    const noPdf = { ...CLIENT, pdfEnabled: false };
    await startRememberedApp(
      {
        ...routes([ALFA]),
        ...signedInRoutes(noPdf),
      },
      `/documents?taxCode=${ALFA}&deMinimis=false&last3Years=false`,
    );
    await screen.findByText(`Bando ${ALFA}`);
    expect(within(panel()).getByRole('button', { name: 'Calcola il residuo' })).toBeInTheDocument();
    expect(
      within(panel()).queryByRole('button', { name: 'Scarica dichiarazione de minimis' }),
    ).not.toBeInTheDocument();
  });
});
