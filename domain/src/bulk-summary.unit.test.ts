import {
  bulkCompanySummaries,
  bulkJobDecider,
  bulkJobDto,
  isBulkJobAwaitingCharge,
  isBulkJobOpen,
  isBulkJobRefused,
  bulkTotals,
  readCodeCells,
  readPastedCodes,
} from './bulk-summary';
import { BULK_MAX_CODES } from './bulk-searches';
import { stateOf } from './decider';
import type { Actor, AidRecord, BulkSearchEvent } from './events';

const VALID_PIVA = '01234567897';
const OTHER_PIVA = '12345678903';
const WRONG_CHECK = '01234567890';
const CF = 'RSSMRA85T10A562S';

describe('reading a list from a sheet’s cells', () => {
  it('reads the first column under its header, drops blanks and repeats, warns of a wrong check digit', () => {
    const list = readCodeCells([
      ['Codice fiscale', 'Ragione sociale'],
      [VALID_PIVA, 'ACME'],
      ['', 'vuota'],
      [' rss mra 85t10 a562s ', 'Rossi'],
      [VALID_PIVA, 'ACME di nuovo'],
      [WRONG_CHECK, 'Sbagliata'],
      ['n.d.', 'Senza codice'],
    ]);
    expect(list).toEqual({
      column: 'Codice fiscale',
      columns: ['Codice fiscale', 'Ragione sociale'],
      taxCodes: [VALID_PIVA, CF, WRONG_CHECK],
      warnings: [{ taxCode: WRONG_CHECK, reason: 'CHECK_DIGIT' }],
      ignored: ['n.d.'],
      ignoredCount: 1,
      groups: [],
      duplicates: 1,
    });
  });

  it('takes a first row of codes as data, not as a header', () => {
    const list = readCodeCells([[VALID_PIVA], [OTHER_PIVA]]);
    expect(list.taxCodes).toEqual([VALID_PIVA, OTHER_PIVA]);
    expect(list.column).toBeNull();
    expect(list.columns).toEqual([]);
  });

  it('reads the column chosen by its header, whatever its case and spaces', () => {
    const rows = [
      ['Cliente', 'P. IVA', 'Codice fiscale'],
      ['ACME', VALID_PIVA, CF],
      ['Beta', OTHER_PIVA, ''],
    ];
    expect(readCodeCells(rows, '  codice FISCALE ').taxCodes).toEqual([CF]);
    expect(readCodeCells(rows, 'p.iva').taxCodes).toEqual([VALID_PIVA, OTHER_PIVA]);
    expect(() => readCodeCells(rows, 'Partita')).toThrow(expect.objectContaining({ code: 'B005' }));
  });

  it('finds the chosen column by its header without accents, dots, dashes, slashes or underscores', () => {
    const rows = [
      ['Denominazione', 'Cod_fisc/P-IVA società', 'Note'],
      ['ACME', VALID_PIVA, ''],
    ];
    expect(readCodeCells(rows, 'codfiscpiva societa').taxCodes).toEqual([VALID_PIVA]);
    expect(
      readCodeCells(
        [
          [' P.IVA ', 'Nome'],
          [OTHER_PIVA, 'Beta'],
        ],
        'piva',
      ).column,
    ).toBe('P.IVA');
  });

  it('reads the chosen column when it is the first one', () => {
    const list = readCodeCells(
      [
        ['Codice fiscale', 'Nome'],
        [VALID_PIVA, 'ACME'],
      ],
      'Codice fiscale',
    );
    expect(list.taxCodes).toEqual([VALID_PIVA]);
  });

  it('names the missing column, without the spaces typed around it, when the first row lacks it (B005)', () => {
    const rows = [
      ['Cliente', 'P. IVA'],
      ['ACME', VALID_PIVA],
    ];
    expect(() => readCodeCells(rows, '  Partita ')).toThrow(
      expect.objectContaining({
        code: 'B005',
        message: 'Nessuna colonna «Partita» nella prima riga del file',
      }),
    );
  });

  it('reads the likely column when the chosen one is only spaces', () => {
    const list = readCodeCells(
      [
        ['Ragione sociale', 'Identificativo'],
        ['ACME', VALID_PIVA],
      ],
      '   ',
    );
    expect(list.column).toBe('Identificativo');
    expect(list.taxCodes).toEqual([VALID_PIVA]);
  });

  it('without a chosen column, reads the one holding the codes whatever its header says', () => {
    const list = readCodeCells([
      ['Cliente', 'Identificativo'],
      ['ACME S.r.l.', VALID_PIVA],
      ['Beta S.p.A.', OTHER_PIVA],
    ]);
    expect(list.column).toBe('Identificativo');
    expect(list.taxCodes).toEqual([VALID_PIVA, OTHER_PIVA]);
  });

  it('prefers the column holding the most codes, the leftmost on a tie, to one headed “Partita IVA”', () => {
    const most = readCodeCells([
      ['Identificativo', 'Partita IVA', 'Referente'],
      [VALID_PIVA, '', CF],
      [OTHER_PIVA, '', ''],
    ]);
    expect(most.column).toBe('Identificativo');
    expect(most.taxCodes).toEqual([VALID_PIVA, OTHER_PIVA]);
    const tie = readCodeCells([
      ['Cliente', 'Partita IVA', 'Codice fiscale'],
      ['ACME', VALID_PIVA, CF],
    ]);
    expect(tie.column).toBe('Partita IVA');
  });

  it('guesses the column from the first 200 rows only', () => {
    // one code in the first column early on, five in the second only from row 201
    const rows = [
      ['Cliente', 'Altro'],
      [VALID_PIVA, ''],
      ...Array.from({ length: 198 }, (_, i) => [`Cliente ${i}`, '']),
      ...Array.from({ length: 5 }, (_, i) => ['Dopo', String(10_000_000_000 + i)]),
    ];
    const list = readCodeCells(rows);
    expect(list.column).toBe('Cliente');
    expect(list.taxCodes).toEqual([VALID_PIVA]);
    expect(list.ignoredCount).toBe(203);
  });

  it('reads the column headed “Partita IVA” when no code shows in the first 200 rows', () => {
    const rows = [
      ['Ragione sociale', 'Note', 'Partita IVA'],
      ...Array.from({ length: 200 }, (_, i) => [`Cliente ${i}`, 'da verificare', '']),
      ['ACME', 'ok', VALID_PIVA],
    ];
    const list = readCodeCells(rows);
    expect(list.column).toBe('Partita IVA');
    expect(list.taxCodes).toEqual([VALID_PIVA]);
  });

  it('without a chosen column, reads the one holding the codes when the names come first', () => {
    const list = readCodeCells([
      ['Ragione sociale', 'P.IVA'],
      ['ACME S.r.l.', VALID_PIVA],
      ['Beta S.p.A.', OTHER_PIVA],
    ]);
    expect(list.column).toBe('P.IVA');
    expect(list.taxCodes).toEqual([VALID_PIVA, OTHER_PIVA]);
    expect(list.ignoredCount).toBe(0);
  });

  it('gives back the leading zeros a spreadsheet took from a partita IVA typed as a number', () => {
    expect(readCodeCells([['1234567897']]).taxCodes).toEqual([VALID_PIVA]);
  });

  it('refuses a list without codes (B005) and one of more than 5,000 distinct codes (B003)', () => {
    expect(() => readCodeCells([['Codice fiscale'], ['nessuno'], ['']])).toThrow(
      expect.objectContaining({ code: 'B005' }),
    );
    const many = Array.from({ length: BULK_MAX_CODES + 1 }, (_, i) => [String(10_000_000_000 + i)]);
    expect(() => readCodeCells(many)).toThrow(expect.objectContaining({ code: 'B003' }));
    expect(readCodeCells(many.slice(0, BULK_MAX_CODES)).taxCodes).toHaveLength(BULK_MAX_CODES);
  });

  it('stops at the first code past 5,000: the rest of a huge list is never read', () => {
    const rows = Array.from({ length: BULK_MAX_CODES + 10 }, (_, i) => [String(10_000_000_000 + i)]);
    // a row after the 5,001st code that fails when read: reading on would answer with its error
    Object.defineProperty(rows, BULK_MAX_CODES + 5, {
      get: () => {
        throw new Error('read past the limit');
      },
    });
    expect(() => readCodeCells(rows)).toThrow(expect.objectContaining({ code: 'B003' }));
  });

  it('echoes a non-code cell cut to 60 characters, never a whole file', () => {
    const huge = 'x'.repeat(4_800_000);
    const list = readCodeCells([[VALID_PIVA], [huge], ['breve nota']]);
    expect(list.ignored).toEqual([`${'x'.repeat(59)}…`, 'breve nota']);
    expect(list.ignoredCount).toBe(2);
  });

  it('echoes a cell of exactly 60 characters whole', () => {
    const sixty = 'y'.repeat(60);
    expect(readCodeCells([[VALID_PIVA], [sixty]]).ignored).toEqual([sixty]);
  });

  it('drops cells of spaces alone and rows too short for the column, without counting them as ignored', () => {
    const list = readCodeCells([
      ['Ragione sociale', 'Partita IVA'],
      ['ACME', VALID_PIVA],
      ['Beta', '   '],
      ['Gamma'],
    ]);
    expect(list.taxCodes).toEqual([VALID_PIVA]);
    expect(list.ignoredCount).toBe(0);
    expect(list.ignored).toEqual([]);
  });

  it('lists an ignored cell without the spaces around it', () => {
    expect(readCodeCells([[VALID_PIVA], ['  n.d.  ']]).ignored).toEqual(['n.d.']);
  });

  it('gives back the zeros of a 9-digit partita IVA, but pads no cell with letters in it', () => {
    expect(readCodeCells([['488410010']]).taxCodes).toEqual(['00488410010']);
    const list = readCodeCells([[VALID_PIVA], ['X123456789'], ['123456789X']]);
    expect(list.taxCodes).toEqual([VALID_PIVA]);
    expect(list.ignored).toEqual(['X123456789', '123456789X']);
  });

  it('lists a header without the spaces around it, and the first row’s non-blank headers as the columns', () => {
    const list = readCodeCells([
      [' Codice fiscale ', '', ' Nome '],
      [VALID_PIVA, '', 'ACME'],
    ]);
    expect(list.column).toBe('Codice fiscale');
    expect(list.columns).toEqual(['Codice fiscale', 'Nome']);
  });

  it('takes a first row blank in the codes’ column, or too short to reach it, for data, not a header', () => {
    const blank = readCodeCells([
      ['', 'Nota'],
      [VALID_PIVA, 'ACME'],
    ]);
    expect(blank).toMatchObject({ column: null, columns: [], taxCodes: [VALID_PIVA] });
    const short = readCodeCells([['Nome'], ['ACME', VALID_PIVA], ['Beta', OTHER_PIVA]]);
    expect(short).toMatchObject({ column: null, columns: [], taxCodes: [VALID_PIVA, OTHER_PIVA] });
  });

  it('lists at most 50 ignored cells but counts them all', () => {
    const rows = [[VALID_PIVA], ...Array.from({ length: 70 }, (_, i) => [`nota ${i}`])];
    const list = readCodeCells(rows);
    expect(list.ignored).toHaveLength(50);
    expect(list.ignoredCount).toBe(70);
  });
});

describe('reading the company groups of a sheet', () => {
  it('reads each company’s group from a column headed “Gruppo” or “Impresa unica”', () => {
    const list = readCodeCells([
      ['Codice fiscale', 'Impresa unica'],
      [VALID_PIVA, 'Alfa'],
      [OTHER_PIVA, ''],
      [CF],
    ]);
    expect(list.groups).toEqual([{ taxCode: VALID_PIVA, group: 'Alfa' }]);
    const gruppo = readCodeCells([
      ['Ragione sociale', 'P.IVA', 'Gruppo'],
      ['ACME', VALID_PIVA, 'Beta'],
    ]);
    expect(gruppo.groups).toEqual([{ taxCode: VALID_PIVA, group: 'Beta' }]);
  });

  it('keeps a group’s name printable and at most 100 characters long', () => {
    const list = readCodeCells([
      ['P.IVA', 'Gruppo'],
      [VALID_PIVA, `\u0007 Gruppo ${'z'.repeat(120)} `],
    ]);
    expect(list.groups).toEqual([{ taxCode: VALID_PIVA, group: `Gruppo ${'z'.repeat(93)}` }]);
  });

  it('does not read the codes’ own column as their group', () => {
    const list = readCodeCells(
      [
        ['Gruppo', 'Impresa unica'],
        [VALID_PIVA, 'Alfa'],
      ],
      'Gruppo',
    );
    expect(list.groups).toEqual([{ taxCode: VALID_PIVA, group: 'Alfa' }]);
  });

  it('reads no group from a sheet without a header row', () => {
    expect(readCodeCells([[VALID_PIVA, 'Alfa']]).groups).toEqual([]);
  });
});

describe('reading a pasted list', () => {
  it('splits at new lines, commas, semicolons and tabs, counting repeats and listing non-codes', () => {
    const list = readPastedCodes(
      `${VALID_PIVA}\r\n${OTHER_PIVA}; ${VALID_PIVA}\n\nrss mra 85t10 a562s\tciao\n${WRONG_CHECK}`,
    );
    expect(list.taxCodes).toEqual([VALID_PIVA, OTHER_PIVA, CF, WRONG_CHECK]);
    expect(list.duplicates).toBe(1);
    expect(list.ignored).toEqual(['ciao']);
    expect(list.warnings).toEqual([{ taxCode: WRONG_CHECK, reason: 'CHECK_DIGIT' }]);
  });

  it('splits at a lone carriage return too, and gives no column, headers nor groups', () => {
    expect(readPastedCodes(`${VALID_PIVA}\r${OTHER_PIVA}\r${VALID_PIVA}`)).toEqual({
      column: null,
      columns: [],
      taxCodes: [VALID_PIVA, OTHER_PIVA],
      warnings: [],
      ignored: [],
      ignoredCount: 0,
      duplicates: 1,
      groups: [],
    });
  });

  it('refuses 85,000 pasted codes with B003, and lists a pasted piece of any length cut short', () => {
    const codes = Array.from({ length: 85_000 }, (_, i) => String(10_000_000_000 + i));
    expect(() => readPastedCodes(codes.join('\n'))).toThrow(expect.objectContaining({ code: 'B003' }));
    const list = readPastedCodes(`${VALID_PIVA}\n${'é'.repeat(100_000)}`);
    expect(list.ignored).toEqual([`${'é'.repeat(59)}…`]);
  });

  it('answers B005 for text without a code', () => {
    expect(() => readPastedCodes('  \n ciao \n')).toThrow(expect.objectContaining({ code: 'B005' }));
  });
});

let aidNumber = 0;
const aid = (taxCode: string, day: string, euro: number, deMinimis = true): AidRecord => {
  aidNumber += 1;
  return {
    idComponenteAiuto: String(aidNumber),
    cor: '1',
    car: '1',
    titoloMisura: 'Misura',
    desTipoMisura: 'Regime',
    soggettoConcedente: 'Regione',
    titoloProgetto: 'Progetto',
    dataConcessione: day,
    cup: '',
    denominazioneBeneficiario: taxCode === VALID_PIVA ? 'ACME S.R.L.' : 'ALTRA S.P.A.',
    codiceFiscaleBeneficiario: taxCode,
    desTipoBeneficiario: 'PMI',
    regioneBeneficiario: 'Lombardia',
    codProcedimento: deMinimis ? '1' : '2',
    desProcedimento: deMinimis ? 'De Minimis' : 'Regime notificato',
    codRegolamento: '',
    desRegolamento: '',
    codObiettivo: '',
    desObiettivo: '',
    settoreAttivita: '',
    elementoDiAiutoCents: euro * 100,
    importoNominaleCents: euro * 200,
    sourceFile: 'f',
    importId: 'i',
  };
};

describe('each company’s figures', () => {
  // 10 March 2026 in Rome: the de minimis window now runs from 1 March 2023 to 1 March 2026
  const now = new Date('2026-03-10T09:00:00Z');
  const aids = [
    aid(VALID_PIVA, '2023-03-05', 10_000), // in the window now, but before the 3 years of the total
    aid(VALID_PIVA, '2023-05-10', 200_000), // leaves the window by September 2026
    aid(VALID_PIVA, '2024-06-01', 40_000, false), // not de minimis: in the total only
    aid(VALID_PIVA, '2025-01-15', 150_000),
    aid(OTHER_PIVA, '2025-07-01', 25_000),
  ];

  it('sums the last 3 years, the de minimis used and left now, in 6 and in 12 months', () => {
    const [acme, other, none] = bulkCompanySummaries([VALID_PIVA, OTHER_PIVA, CF], aids, now, (code) =>
      code === CF ? ['CHECK_DIGIT'] : [],
    );
    expect(acme).toEqual({
      taxCode: VALID_PIVA,
      name: 'ACME S.R.L.',
      aids: 4,
      totalLast3Years: 390_000,
      deMinimisUsed: 360_000,
      remainingNow: -60_000,
      // March 2023 and May 2023 have left the window by September 2026; January 2025 stays until 2028
      remainingIn6Months: 150_000,
      remainingIn12Months: 150_000,
      exceeded: true,
      warnings: ['Massimale de minimis superato'],
    });
    expect(other).toMatchObject({ aids: 1, totalLast3Years: 25_000, remainingNow: 275_000, exceeded: false });
    expect(none).toMatchObject({
      name: '',
      aids: 0,
      remainingNow: 300_000,
      remainingIn12Months: 300_000,
      warnings: ['Codice fiscale con carattere di controllo errato', 'Nessun aiuto trovato nel Registro'],
    });
    expect(bulkTotals([acme!, other!, none!])).toEqual({ companiesWithAids: 2, aids: 5, overCeiling: 1 });
  });

  it('counts in the total an aid granted exactly 3 years ago, and a ceiling reached exactly is not exceeded', () => {
    const [row] = bulkCompanySummaries(
      [OTHER_PIVA],
      [aid(OTHER_PIVA, '2023-03-10', 1_000, false), aid(OTHER_PIVA, '2025-01-15', 300_000)],
      now,
    );
    expect(row).toMatchObject({ totalLast3Years: 301_000, remainingNow: 0, exceeded: false, warnings: [] });
  });

  it('counts an aid granted this month only from next month on, as the search does', () => {
    const [row] = bulkCompanySummaries([OTHER_PIVA], [aid(OTHER_PIVA, '2026-03-02', 100_000)], now);
    expect(row).toMatchObject({
      remainingNow: 300_000,
      remainingIn6Months: 200_000,
      remainingIn12Months: 200_000,
    });
  });
});

describe('a job’s stream', () => {
  const by: Actor = { userId: 'u1', email: 'u1@example.it', role: 'CLIENT' };
  const requested: BulkSearchEvent = {
    type: 'BulkSearchRequested',
    data: {
      jobId: 'j1',
      userId: 'u1',
      clientId: 'u1',
      by,
      at: '2026-03-10T09:00:00.000Z',
      sourceName: 'clienti.xlsx',
      taxCodes: [VALID_PIVA, OTHER_PIVA, CF],
      warnings: [],
      dataSource: 'ARCHIVE',
      cost: 2,
    },
  };
  const given = (...events: BulkSearchEvent[]) => stateOf(bulkJobDecider, events);

  it('is queued, then running with progress that never goes back, then completed for 30 days', () => {
    const progressed = (doneCodes: number): BulkSearchEvent => ({
      type: 'BulkSearchProgressed',
      data: { jobId: 'j1', doneCodes, at: '2026-03-10T09:00:01.000Z' },
    });
    expect(bulkJobDto(given(requested), 0)).toMatchObject({
      status: 'QUEUED',
      totalCodes: 3,
      doneCodes: 0,
      cost: 2,
    });
    const running = given(requested, progressed(2));
    expect(bulkJobDto(running, 0)).toMatchObject({ status: 'RUNNING', doneCodes: 2 });
    // a restarted runner counts from zero again: nothing is appended until it passes what was shown
    expect(
      bulkJobDecider.decide({ type: 'RecordProgress', data: { doneCodes: 1, at: 'x' } }, running),
    ).toEqual([]);
    expect(given(requested, progressed(2), progressed(1)).doneCodes).toBe(2);
    const [completed] = bulkJobDecider.decide(
      {
        type: 'CompleteBulkSearch',
        data: { at: '2026-03-10T09:00:05.000Z', companiesWithAids: 1, aids: 4, overCeiling: 1 },
      },
      running,
    );
    expect(completed).toMatchObject({
      type: 'BulkSearchCompleted',
      data: { expiresAt: '2026-04-09T09:00:05.000Z' },
    });
    const done = given(requested, progressed(2), completed!);
    expect(bulkJobDto(done, Date.parse('2026-04-09T09:00:04.000Z'))).toMatchObject({
      status: 'COMPLETED',
      doneCodes: 3,
    });
    expect(bulkJobDto(done, Date.parse('2026-04-09T09:00:05.000Z')).status).toBe('EXPIRED');
    expect(
      bulkJobDecider.decide({ type: 'FailBulkSearch', data: { at: 'x', code: 'G001', reason: '' } }, done),
    ).toEqual([]);
  });

  it('is requested once', () => {
    const request = {
      type: 'RequestBulkSearch' as const,
      data: requested.data as Extract<BulkSearchEvent, { type: 'BulkSearchRequested' }>['data'],
    };
    expect(bulkJobDecider.decide(request, given())).toEqual([requested]);
    expect(bulkJobDecider.decide(request, given(requested))).toEqual([]);
  });

  it('records progress only forward, never past the list’s codes', () => {
    const progress = (doneCodes: number) => ({
      type: 'RecordProgress' as const,
      data: { doneCodes, at: 'p' },
    });
    const [first] = bulkJobDecider.decide(progress(1), given(requested));
    expect(first).toEqual({ type: 'BulkSearchProgressed', data: { jobId: 'j1', doneCodes: 1, at: 'p' } });
    const running = given(requested, first!);
    expect(bulkJobDecider.decide(progress(1), running)).toEqual([]);
    const [past] = bulkJobDecider.decide(progress(7), running);
    expect(past).toMatchObject({ data: { doneCodes: 3 } });
    expect(given(requested, first!, past!).doneCodes).toBe(3);
  });

  it('keeps a completed job completed whatever progress or charge is read after it', () => {
    const completed: BulkSearchEvent = {
      type: 'BulkSearchCompleted',
      data: {
        jobId: 'j1',
        at: 'c',
        companiesWithAids: 1,
        aids: 2,
        overCeiling: 0,
        expiresAt: '2026-04-09T09:00:00.000Z',
      },
    };
    const late: BulkSearchEvent = {
      type: 'BulkSearchProgressed',
      data: { jobId: 'j1', doneCodes: 1, at: 'l' },
    };
    const charged: BulkSearchEvent = { type: 'BulkSearchCharged', data: { jobId: 'j1', at: 'l', cost: 9 } };
    expect(given(requested, completed, late, charged)).toMatchObject({
      status: 'COMPLETED',
      doneCodes: 3,
      cost: 2,
    });
  });

  it('a client’s job runs only once charged, is charged once, and may fail uncharged', () => {
    const awaiting: BulkSearchEvent = {
      type: 'BulkSearchRequested',
      data: {
        ...(requested.data as Extract<BulkSearchEvent, { type: 'BulkSearchRequested' }>['data']),
        cost: 0,
        awaitingCharge: true,
      },
    };
    const unpaid = given(awaiting);
    // shown as queued, but not for the runner
    expect(bulkJobDto(unpaid, 0)).toMatchObject({ status: 'QUEUED', cost: 0 });
    expect(isBulkJobOpen(unpaid)).toBe(false);
    expect(isBulkJobAwaitingCharge(unpaid)).toBe(true);
    expect(
      bulkJobDecider.decide({ type: 'RecordProgress', data: { doneCodes: 1, at: 'x' } }, unpaid),
    ).toEqual([]);
    expect(
      bulkJobDecider.decide(
        { type: 'CompleteBulkSearch', data: { at: 'x', companiesWithAids: 0, aids: 0, overCeiling: 0 } },
        unpaid,
      ),
    ).toEqual([]);

    const charge = { type: 'RecordCharge' as const, data: { at: 'y', cost: 2 } };
    const [charged] = bulkJobDecider.decide(charge, unpaid);
    expect(charged).toEqual({ type: 'BulkSearchCharged', data: { jobId: 'j1', at: 'y', cost: 2 } });
    const paid = given(awaiting, charged!);
    expect(isBulkJobOpen(paid)).toBe(true);
    expect(bulkJobDto(paid, 0)).toMatchObject({ status: 'QUEUED', cost: 2 });
    expect(bulkJobDecider.decide(charge, paid)).toEqual([]);
    // a job requested the old way (charged before its request) runs as it is
    expect(isBulkJobOpen(given(requested))).toBe(true);
    expect(bulkJobDecider.decide(charge, given(requested))).toEqual([]);

    const fail = (code: string) => ({ type: 'FailBulkSearch' as const, data: { at: 'z', code, reason: '' } });
    const [failed] = bulkJobDecider.decide(fail('B008'), unpaid);
    expect(bulkJobDto(given(awaiting, failed!), 0)).toMatchObject({
      status: 'FAILED',
      failureCode: 'B008',
      cost: 0,
    });
    expect(isBulkJobRefused(given(awaiting, failed!))).toBe(false);
    expect(isBulkJobRefused(given(awaiting, bulkJobDecider.decide(fail('U004'), unpaid)[0]!))).toBe(true);
    expect(isBulkJobRefused(given(awaiting, bulkJobDecider.decide(fail('A002'), unpaid)[0]!))).toBe(true);
    expect(bulkJobDecider.decide(charge, given(awaiting, failed!))).toEqual([]);
  });

  it('records a download of a completed job only before it expires', () => {
    const download = (at: string) => ({
      type: 'RecordDownload' as const,
      data: { at, by, kind: 'sheet' as const },
    });
    expect(() => bulkJobDecider.decide(download('2026-03-10T10:00:00Z'), given())).toThrow(
      expect.objectContaining({ code: 'B007' }),
    );
    const completed: BulkSearchEvent = {
      type: 'BulkSearchCompleted',
      data: {
        jobId: 'j1',
        at: 'x',
        companiesWithAids: 0,
        aids: 0,
        overCeiling: 0,
        expiresAt: '2026-04-09T09:00:00.000Z',
      },
    };
    expect(() => bulkJobDecider.decide(download('2026-03-10T10:00:00Z'), given(requested))).toThrow(
      expect.objectContaining({ code: 'B006', message: 'Il risultato non è ancora pronto' }),
    );
    const done = given(requested, completed);
    expect(bulkJobDecider.decide(download('2026-03-11T10:00:00.000Z'), done)).toHaveLength(1);
    expect(() => bulkJobDecider.decide(download('2026-04-09T09:00:00.000Z'), done)).toThrow(
      expect.objectContaining({ code: 'B006' }),
    );
    expect(
      given(requested, completed, bulkJobDecider.decide(download('2026-03-11T10:00:00.000Z'), done)[0]!)
        .downloaded,
    ).toBe(true);
  });
});
