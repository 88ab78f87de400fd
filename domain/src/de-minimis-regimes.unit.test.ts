/**
 * De minimis of a single undertaking at a planned date, given/when/then with figures worked out by
 * hand from the rules (Reg. 2023/2831, 2023/2832, 1408/2013, 717/2014 and the register's FAQ 15.1).
 */
import {
  deMinimisHeadroom,
  headroomWindowAids,
  headroomWindowStart,
  regimeOfRegulation,
  releaseDay,
  type HeadroomAid,
} from './de-minimis-regimes';

const A = '01234567897';
const B = '98765432109';

const aid = (
  day: string,
  euro: number,
  codRegolamento: string,
  extra: Partial<HeadroomAid> = {},
): HeadroomAid => ({
  taxCode: A,
  name: 'ACME S.R.L.',
  dataConcessione: day,
  elementoDiAiutoCents: euro * 100,
  isDeMinimis: true,
  codRegolamento,
  desRegolamento: '',
  ...extra,
});

describe('the regime of an aid, from its regulation', () => {
  it.each([
    ['CE2831/23', '', 'GENERAL'],
    ['CE1407/13', '', 'GENERAL'],
    ['', 'Reg. (CE) n. 1998/2006 de minimis', 'GENERAL'],
    ['CE1408/13', '', 'AGRICULTURE'],
    ['', 'Regolamento (UE) n. 1408/2013 agricoltura', 'AGRICULTURE'],
    ['CE717/14', '', 'FISHERIES'],
    ['CE2832/23', '', 'SIEG'],
    ['', 'Regolamento (UE) 2023 / 2832 SIEG', 'SIEG'],
    ['CE360/12', '', 'SIEG'],
    ['', 'Regolamento (UE) n. 2023/ 2831', 'GENERAL'],
    ['', 'Reg. UE 1407 /2013', 'GENERAL'],
    ['', 'Regolamento (UE) 2014/717 pesca', 'FISHERIES'],
    ['', 'Reg. 13/1408', 'AGRICULTURE'],
  ])('%s %s → %s', (cod, des, regime) => {
    expect(regimeOfRegulation(cod, des)).toEqual({ regime, unknownRegulation: false });
  });

  it('counts any other de minimis aid as GENERAL, flagged', () => {
    expect(regimeOfRegulation('CE651/14', 'Regolamento generale di esenzione')).toEqual({
      regime: 'GENERAL',
      unknownRegulation: true,
    });
    expect(regimeOfRegulation('', '')).toEqual({ regime: 'GENERAL', unknownRegulation: true });
    // a number that only looks like one (12831/23) is not 2831/23
    expect(regimeOfRegulation('12831/23').unknownRegulation).toBe(true);
    // the right number of another year is another regulation, in either order
    for (const text of ['1407/2099', '1407/99', '2099/1407', '99/1407', 'CE1408/23']) {
      expect(regimeOfRegulation(text)).toEqual({ regime: 'GENERAL', unknownRegulation: true });
    }
  });
});

describe('the window of a planned grant', () => {
  it('counts from the day after D − 3 years (FAQ 15.1: a grant on 10-02-2024 counts from 11-02-2021)', () => {
    expect(headroomWindowStart('2024-02-10')).toBe('2021-02-11');
  });

  it('takes 28 February for D − 3 years of a 29 February', () => {
    // 2028-02-29 − 3 years = 2025-02-28: the window starts on 1 March 2025
    expect(headroomWindowStart('2028-02-29')).toBe('2025-03-01');
    // 2027-02-28 − 3 years = 2024-02-28: a 29 February 2024 aid still counts
    expect(headroomWindowStart('2027-02-28')).toBe('2024-02-29');
  });

  it('releases an aid on its grant day three years on (a 29 February one on 1 March)', () => {
    expect(releaseDay('2023-05-10')).toBe('2026-05-10');
    expect(releaseDay('2024-02-29')).toBe('2027-03-01');
  });

  it('counts an aid granted on D itself and on the first day, not the day before', () => {
    // given aids on D − 3 years (out), the day after (in) and D (in)
    const aids = [
      aid('2022-06-30', 1_000, 'CE1407/13'),
      aid('2022-07-01', 2_000, 'CE1407/13'),
      aid('2025-06-30', 4_000, 'CE2831/23'),
    ];
    // when the headroom of a GENERAL aid on 2025-06-30 is asked
    const result = deMinimisHeadroom([A], aids, '2025-06-30', 'GENERAL');
    // then 6,000 € count: 300,000 − 6,000 = 294,000 left
    expect(result.windowStart).toBe('2022-07-01');
    expect(result.usedByRegime.GENERAL).toBe('6000.00');
    expect(result.headroom).toBe('294000.00');
  });

  it('refuses a planned date before 2024 (D001), an impossible date (J001) and an unknown regime (D002)', () => {
    expect(() => deMinimisHeadroom([A], [], '2023-12-31', 'GENERAL')).toThrow(
      expect.objectContaining({ code: 'D001' }),
    );
    expect(deMinimisHeadroom([A], [], '2024-01-01', 'GENERAL').headroom).toBe('300000.00');
    // the answer names the date it could not read
    expect(() => deMinimisHeadroom([A], [], '2025-02-29', 'GENERAL')).toThrow(
      expect.objectContaining({ code: 'J001', message: expect.stringContaining('"2025-02-29"') }),
    );
    expect(() => deMinimisHeadroom([A], [], '2025-06-30', 'EDILIZIA' as 'GENERAL')).toThrow(
      expect.objectContaining({ code: 'D002' }),
    );
  });
});

describe('each regime’s limits', () => {
  // given, in the window of 2025-06-30 (from 2022-07-01): general 100,000, agriculture 20,000,
  // fisheries 10,000, SIEG 500,000; and aids that do not count: one of 2021, one not de minimis
  const aids = [
    aid('2023-05-10', 100_000, 'CE1407/13'),
    aid('2024-03-01', 20_000, 'CE1408/13'),
    aid('2024-09-15', 10_000, 'CE717/14'),
    aid('2025-01-20', 500_000, 'CE2832/23'),
    aid('2021-01-10', 77_000, 'CE1407/13'),
    aid('2025-02-01', 90_000, 'CE651/14', { isDeMinimis: false }),
  ];
  const limits = (regime: 'GENERAL' | 'AGRICULTURE' | 'FISHERIES' | 'SIEG', date = '2025-06-30') => {
    const result = deMinimisHeadroom([A], aids, date, regime);
    return {
      headroom: result.headroom,
      limits: result.limits.map((l) => [l.regimes.join('+'), l.ceiling, l.used, l.remaining]),
    };
  };

  it('GENERAL: G+A+F ≤ 300,000 and G+SIEG ≤ 750,000', () => {
    expect(limits('GENERAL')).toEqual({
      headroom: '150000.00',
      limits: [
        ['GENERAL+AGRICULTURE+FISHERIES', '300000.00', '130000.00', '170000.00'],
        ['GENERAL+SIEG', '750000.00', '600000.00', '150000.00'],
      ],
    });
  });

  it('AGRICULTURE: its own 50,000 (25,000 before 16-12-2024) and G+A+F ≤ 300,000', () => {
    expect(limits('AGRICULTURE')).toEqual({
      headroom: '30000.00',
      limits: [
        ['AGRICULTURE', '50000.00', '20000.00', '30000.00'],
        ['GENERAL+AGRICULTURE+FISHERIES', '300000.00', '130000.00', '170000.00'],
      ],
    });
    // on 2024-12-15 the fisheries aid is in the window too, and agriculture's ceiling is 25,000
    expect(limits('AGRICULTURE', '2024-12-15').limits[0]).toEqual([
      'AGRICULTURE',
      '25000.00',
      '20000.00',
      '5000.00',
    ]);
  });

  it('AGRICULTURE: 50,000 from 16-12-2024 itself', () => {
    expect(limits('AGRICULTURE', '2024-12-16').limits[0]?.slice(0, 2)).toEqual(['AGRICULTURE', '50000.00']);
  });

  it('FISHERIES: its own 40,000, F+A ≤ 40,000 and G+A+F ≤ 300,000', () => {
    expect(limits('FISHERIES')).toEqual({
      headroom: '10000.00',
      limits: [
        ['FISHERIES', '40000.00', '10000.00', '30000.00'],
        ['FISHERIES+AGRICULTURE', '40000.00', '30000.00', '10000.00'],
        ['GENERAL+AGRICULTURE+FISHERIES', '300000.00', '130000.00', '170000.00'],
      ],
    });
  });

  it('SIEG: SIEG + GENERAL ≤ 750,000', () => {
    expect(limits('SIEG')).toEqual({
      headroom: '150000.00',
      limits: [['GENERAL+SIEG', '750000.00', '600000.00', '150000.00']],
    });
  });

  it('never answers a headroom below 0', () => {
    const over = deMinimisHeadroom([A], [aid('2024-05-01', 320_000, 'CE2831/23')], '2025-06-30', 'GENERAL');
    expect(over.headroom).toBe('0.00');
    expect(over.limits[0]!.remaining).toBe('0.00');
  });
});

describe('a single undertaking of several companies', () => {
  it('adds up its members’ aids, gives each one’s share, and ignores other companies', () => {
    // given A with 120,000 and B with 150,000 of general de minimis, and C (not a member) with 200,000
    const aids = [
      aid('2024-04-01', 120_000, 'CE2831/23'),
      aid('2024-10-01', 150_000, 'CE2831/23', { taxCode: B, name: 'BETA S.P.A.' }),
      aid('2024-10-01', 200_000, 'CE2831/23', { taxCode: 'RSSMRA85T10A562S', name: 'ALTRA' }),
    ];
    // when a GENERAL aid on 2025-06-30 is planned for the undertaking A + B
    const result = deMinimisHeadroom([A, B], aids, '2025-06-30', 'GENERAL');
    // then 270,000 count against one 300,000 ceiling: 30,000 left
    expect(result.headroom).toBe('30000.00');
    expect(result).toMatchObject({ taxCodes: [A, B], date: '2025-06-30', regime: 'GENERAL' });
    expect(result.perCompany).toEqual([
      {
        taxCode: A,
        name: 'ACME S.R.L.',
        usedByRegime: { GENERAL: '120000.00', AGRICULTURE: '0.00', FISHERIES: '0.00', SIEG: '0.00' },
      },
      {
        taxCode: B,
        name: 'BETA S.P.A.',
        usedByRegime: { GENERAL: '150000.00', AGRICULTURE: '0.00', FISHERIES: '0.00', SIEG: '0.00' },
      },
    ]);
    // and says when those amounts leave the window, day by day
    expect(result.releases).toEqual([
      { date: '2027-04-01', amount: '120000.00' },
      { date: '2027-10-01', amount: '150000.00' },
    ]);
  });

  it('flags aids counted as GENERAL for want of a known regulation', () => {
    const result = deMinimisHeadroom([A], [aid('2025-01-10', 5_000, 'XX99/99')], '2025-06-30', 'GENERAL');
    expect(result.unknownRegulationAids).toBe(1);
    expect(result.usedByRegime.GENERAL).toBe('5000.00');
  });

  it('lists releases day by day in date order, whatever the order of the aids, and none of 0 €', () => {
    const aids = [
      aid('2025-02-01', 7_000, 'CE2831/23'),
      aid('2024-03-01', 0, 'CE2831/23'),
      aid('2024-05-01', 3_000, 'CE2831/23'),
      aid('2025-02-01', 1_000, 'CE1407/13'),
      aid('2024-05-02', 2_000, 'CE2831/23'),
    ];
    expect(deMinimisHeadroom([A], aids, '2025-06-30', 'GENERAL').releases).toEqual([
      { date: '2027-05-01', amount: '3000.00' },
      { date: '2027-05-02', amount: '2000.00' },
      { date: '2028-02-01', amount: '8000.00' },
    ]);
  });

  it('lists releases only of the regimes the planned aid is limited by', () => {
    const aids = [aid('2024-03-01', 20_000, 'CE1408/13'), aid('2025-01-20', 500_000, 'CE2832/23')];
    // agriculture is not limited by SIEG aids: only the agricultural aid's release is listed
    expect(deMinimisHeadroom([A], aids, '2025-06-30', 'AGRICULTURE').releases).toEqual([
      { date: '2027-03-01', amount: '20000.00' },
    ]);
  });
});

describe('the aids a planned grant counts (what the self-declaration lists)', () => {
  const aids = [
    aid('2023-07-01', 1_000, 'CE2831/23'), // first day of the window of 2026-06-30
    aid('2023-06-30', 2_000, 'CE2831/23'), // the day before: out
    aid('2026-07-01', 3_000, 'CE2831/23'), // after the planned day: out
    aid('2025-01-10', 4_000, 'CE1408/13'), // agricultural
    aid('2025-02-10', 5_000, 'CE2832/23'), // SIEG
    aid('2025-03-10', 6_000, 'CE651/14', { isDeMinimis: false }),
    aid('2025-04-10', 7_000, 'CE2831/23', { taxCode: B }), // another undertaking's
  ];
  const listed = (regime: 'GENERAL' | 'SIEG') =>
    headroomWindowAids([A], aids, '2026-06-30', regime).map((w) => [
      w.aid.elementoDiAiutoCents / 100,
      w.regime,
      w.limited,
    ]);

  it('are the undertaking’s de minimis aids of the window, each told whether the regime’s limits count it', () => {
    expect(listed('GENERAL')).toEqual([
      [1_000, 'GENERAL', true],
      [4_000, 'AGRICULTURE', true],
      [5_000, 'SIEG', true],
    ]);
    // a SIEG grant is capped with general aids only: the agricultural aid is outside its limits
    expect(listed('SIEG')).toEqual([
      [1_000, 'GENERAL', true],
      [4_000, 'AGRICULTURE', false],
      [5_000, 'SIEG', true],
    ]);
  });

  it('add up to the headroom’s figures', () => {
    const headroom = deMinimisHeadroom([A], aids, '2026-06-30', 'SIEG');
    expect(headroom.usedByRegime).toEqual({
      GENERAL: '1000.00',
      AGRICULTURE: '4000.00',
      FISHERIES: '0.00',
      SIEG: '5000.00',
    });
    expect(headroom.limits[0]?.used).toBe('6000.00');
  });
});
