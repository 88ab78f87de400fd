import {
  allowanceFigures,
  DE_MINIMIS_CEILING_EURO,
  deMinimisRemaining,
  deMinimisSeries,
  documentTotals,
  isDeMinimisProcedure,
  summariesByCode,
  type BeneficiaryRow,
  type DeMinimisRow,
} from './de-minimis';

const deMinimis = (dataConcessione: string, euro: number): DeMinimisRow => ({
  dataConcessione,
  elementoDiAiutoCents: Math.round(euro * 100),
  isDeMinimis: true,
});
const otherAid = (dataConcessione: string, euro: number): DeMinimisRow => ({
  ...deMinimis(dataConcessione, euro),
  isDeMinimis: false,
});

// 15 June 2025, midday in Rome
const now = new Date('2025-06-15T10:00:00Z');
const rows: DeMinimisRow[] = [
  deMinimis('2022-05-31', 100_000), // just before the first window
  deMinimis('2022-06-01', 50_000), // first day of the first window: counts in 06/25 only
  deMinimis('2025-05-31', 200_000),
  deMinimis('2025-06-01', 80_000), // the current month: counts from 07/25
  otherAid('2024-01-10', 999_999.99), // not de minimis: never in the series
  deMinimis('2026-01-15', 10_000), // granted in the future: counts from 02/26
];

describe('the 36-month de minimis series', () => {
  const series = deMinimisSeries(rows, now);

  it('has 36 points from the current month forward, labelled MM/YY', () => {
    expect(series).toHaveLength(36);
    expect(series[0]?.month).toBe('06/25');
    expect(series[1]?.month).toBe('07/25');
    expect(series[7]?.month).toBe('01/26');
    expect(series[35]?.month).toBe('05/28');
  });

  it('sums de minimis aid granted in the 3 years before each month’s first day', () => {
    expect(series[0]).toEqual({ month: '06/25', total: 250_000, remaining: 50_000 });
    expect(series[1]).toEqual({ month: '07/25', total: 280_000, remaining: 20_000 });
    expect(series[7]).toEqual({ month: '01/26', total: 280_000, remaining: 20_000 });
    expect(series[8]).toEqual({ month: '02/26', total: 290_000, remaining: 10_000 });
    expect(series[35]).toEqual({ month: '05/28', total: 290_000, remaining: 10_000 });
  });

  it('shows a full allowance when there is no de minimis aid', () => {
    const empty = deMinimisSeries([otherAid('2025-01-01', 5)], now);
    expect(empty.every((point) => point.total === 0 && point.remaining === DE_MINIMIS_CEILING_EURO)).toBe(
      true,
    );
  });

  it('goes negative, not zero, when the ceiling is exceeded', () => {
    const over = deMinimisSeries([...rows, deMinimis('2024-03-01', 100_000.01)], now);
    expect(over[0]).toEqual({ month: '06/25', total: 350_000.01, remaining: -50_000.01 });
  });

  it('sums in cents: many small amounts give exact euro', () => {
    const small = Array.from({ length: 3 }, () => deMinimis('2025-01-01', 0.1));
    expect(deMinimisSeries(small, now)[0]).toEqual({ month: '06/25', total: 0.3, remaining: 299_999.7 });
  });

  it('starts from the month in Rome, not in UTC', () => {
    // 22:30 UTC on 31 May is 00:30 on 1 June in Rome
    const series = deMinimisSeries(rows, new Date('2025-05-31T22:30:00Z'));
    expect(series[0]?.month).toBe('06/25');
  });
});

describe('document totals', () => {
  it('counts only aids granted from today − 3 years on, including future grants', () => {
    expect(documentTotals(rows, now)).toEqual({
      totalDocuments: 4,
      totalImport: 1_289_999.99,
      totalImportDeMinimis: 290_000,
      remainingDeMinimis: 50_000,
    });
  });

  it('includes the boundary day and excludes the day before', () => {
    const boundary = [deMinimis('2022-06-15', 1), deMinimis('2022-06-14', 2)];
    expect(documentTotals(boundary, now)).toMatchObject({ totalDocuments: 1, totalImport: 1 });
  });

  it('reports the current month’s remaining, matching the first point of the series', () => {
    expect(deMinimisRemaining(rows, now)).toBe(deMinimisSeries(rows, now)[0]?.remaining);
    expect(documentTotals([], now)).toEqual({
      totalDocuments: 0,
      totalImport: 0,
      totalImportDeMinimis: 0,
      remainingDeMinimis: 300_000,
    });
  });
});

describe('which aids are de minimis', () => {
  it('recognises procedure code 1 or the description De Minimis in any case', () => {
    expect(isDeMinimisProcedure('1', 'De Minimis')).toBe(true);
    expect(isDeMinimisProcedure('1', '')).toBe(true);
    expect(isDeMinimisProcedure(' 1 ', null)).toBe(true);
    expect(isDeMinimisProcedure('', 'DE MINIMIS')).toBe(true);
    expect(isDeMinimisProcedure(undefined, 'de minimis ')).toBe(true);
    expect(isDeMinimisProcedure('2', 'Notifica')).toBe(false);
    expect(isDeMinimisProcedure('3', 'Esenzione')).toBe(false);
    expect(isDeMinimisProcedure('11', 'De Minimis SIEG')).toBe(false);
  });
});

describe('one summary per searched company', () => {
  const of = (code: string, name: string, row: DeMinimisRow): BeneficiaryRow => ({
    ...row,
    codiceFiscaleBeneficiario: code,
    denominazioneBeneficiario: name,
  });
  const alfa = [
    of('01234567897', 'ALFA SRL', deMinimis('2025-05-31', 200_000)),
    of('01234567897', 'ALFA SRL', otherAid('2024-01-10', 1_000)),
  ];
  const beta = [of('rssmra80a01h501u', 'Mario Rossi', deMinimis('2024-02-01', 250_000))];

  it('keeps each company’s allowance its own, in the order searched, a code without aids included', () => {
    const every = [...beta, ...alfa];
    const summaries = summariesByCode(['RSSMRA80A01H501U', '01234567897', '02345678902'], every, every, now);
    expect(summaries).toEqual([
      {
        taxCode: 'RSSMRA80A01H501U',
        name: 'Mario Rossi',
        totalDocuments: 1,
        totalImport: 250_000,
        deMinimisUsed: 250_000,
        remainingDeMinimis: 50_000,
      },
      {
        taxCode: '01234567897',
        name: 'ALFA SRL',
        totalDocuments: 2,
        totalImport: 201_000,
        deMinimisUsed: 200_000,
        remainingDeMinimis: 100_000,
      },
      {
        taxCode: '02345678902',
        name: '',
        totalDocuments: 0,
        totalImport: 0,
        deMinimisUsed: 0,
        remainingDeMinimis: DE_MINIMIS_CEILING_EURO,
      },
    ]);
  });

  it('names a company by its first row that has a name', () => {
    const unnamedFirst = [
      of('01234567897', '', deMinimis('2025-01-10', 1_000)),
      of('01234567897', '   ', deMinimis('2025-02-10', 1_000)),
      ...alfa,
    ];
    const [summary] = summariesByCode(['01234567897'], unnamedFirst, unnamedFirst, now);
    expect(summary?.name).toBe('ALFA SRL');
  });

  it('counts only the shown aids in the totals, and every aid in the allowance', () => {
    const shown = alfa.filter((row) => !row.isDeMinimis);
    const [summary] = summariesByCode(['01234567897'], shown, alfa, now);
    expect(summary).toMatchObject({ totalDocuments: 1, totalImport: 1_000, remainingDeMinimis: 100_000 });
  });
});

describe('the cards and chart of a search of several companies', () => {
  const of = (code: string, name: string, row: DeMinimisRow): BeneficiaryRow => ({
    ...row,
    codiceFiscaleBeneficiario: code,
    denominazioneBeneficiario: name,
  });
  const alfa = [of('01234567897', 'ALFA SRL', deMinimis('2025-05-31', 200_000))];
  const beta = [
    of('RSSMRA80A01H501U', '', deMinimis('2024-02-01', 150_000)),
    of('RSSMRA80A01H501U', 'Mario Rossi', deMinimis('2024-03-01', 100_000)),
  ];
  const every = [...alfa, ...beta];

  it('never adds unrelated companies up: they show the company with the least left, named', () => {
    const figures = allowanceFigures(['01234567897', 'rssmra80a01h501u'], every, now, false);
    expect(figures.remainingDeMinimis).toBe(50_000);
    expect(figures.deMinimisOf).toEqual({ taxCode: 'RSSMRA80A01H501U', name: 'Mario Rossi' });
    expect(figures.deMinimisSeries[0]).toEqual({ month: '06/25', total: 250_000, remaining: 50_000 });
  });

  it('on a tie, the company searched first', () => {
    const twin = [of('02345678902', 'GAMMA SPA', deMinimis('2025-04-30', 200_000))];
    const figures = allowanceFigures(['02345678902', '01234567897'], [...alfa, ...twin], now, false);
    expect(figures.deMinimisOf).toEqual({ taxCode: '02345678902', name: 'GAMMA SPA' });
    const company = (code: string) => allowanceFigures([code, '02345678902'], [...alfa, ...twin], now, false);
    expect(company('01234567897').deMinimisOf?.taxCode).toBe('01234567897');
  });

  it('a company without aids is the one shown only when no company has used any', () => {
    const none = allowanceFigures(['02345678902', '01234567897'], alfa, now, false);
    expect(none.deMinimisOf?.taxCode).toBe('01234567897');
    const nobody = allowanceFigures(['02345678902', '03456789013'], [], now, false);
    expect(nobody).toMatchObject({
      remainingDeMinimis: DE_MINIMIS_CEILING_EURO,
      deMinimisOf: { taxCode: '02345678902', name: '' },
    });
  });

  it('a group counted as one undertaking adds its companies up, and names nobody', () => {
    const figures = allowanceFigures(['01234567897', 'RSSMRA80A01H501U'], every, now, true);
    expect(figures.remainingDeMinimis).toBe(-150_000);
    expect(figures.deMinimisOf).toBeNull();
    expect(figures.deMinimisSeries[0]).toEqual({ month: '06/25', total: 450_000, remaining: -150_000 });
  });

  it('one company is its own figures, unnamed (the heading names it)', () => {
    const figures = allowanceFigures(['01234567897'], alfa, now, false);
    expect(figures).toMatchObject({ remainingDeMinimis: 100_000, deMinimisOf: null });
  });
});
