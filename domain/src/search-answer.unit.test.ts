import type { AidRowDto, SearchResultDto } from './api';
import { rowsWithDetails, searchAnswer } from './search-answer';

const aid = (id: string, overrides: Partial<AidRowDto> = {}): AidRowDto => ({
  id: `${id}-0`,
  idComponenteAiuto: id,
  codiceFiscaleBeneficiario: '01234567897',
  denominazioneBeneficiario: 'ACME S.R.L.',
  soggettoConcedente: 'Regione Lombardia',
  titoloMisura: 'Bando digitalizzazione',
  dataConcessione: '10-05-2024',
  cup: 'F81B24000010007',
  desProcedimento: 'Regolamento di esenzione',
  desRegolamento: 'Reg. UE 651/2014',
  codRegolamento: 'GBER',
  isDeMinimis: false,
  importoNominale: '20000.00',
  elementoDiAiuto: '1500.50',
  cor: '900001',
  car: '12345',
  titoloProgetto: 'Nuovo gestionale',
  ...overrides,
});

const resultOf = (rows: AidRowDto[]): SearchResultDto => ({
  taxCodes: ['01234567897'],
  deMinimis: false,
  last3Years: false,
  dataSource: 'ARCHIVE',
  lastUpdate: null,
  rows,
  sources: [],
  stats: { totalDocuments: rows.length, totalImport: 0, totalImportDeMinimis: 0, remainingDeMinimis: 0 },
  perCode: [],
  deMinimisSeries: [],
});

describe('the search answer', () => {
  const twoAids = () =>
    resultOf([
      aid('1'),
      aid('2', {
        soggettoConcedente: 'Camera di commercio',
        codRegolamento: 'CE2831/23',
        desRegolamento: 'De minimis generale',
        desProcedimento: 'De Minimis',
        isDeMinimis: true,
        cor: '900002',
        car: '',
        cup: 'n.d.',
        titoloProgetto: undefined,
      }),
    ]);

  it('gives each row the spec’s own values by the spec’s names, and no references unless asked', () => {
    const answer = searchAnswer(twoAids());
    expect(answer.rows[0]).toEqual({
      idComponenteAiuto: '1',
      dataConcessione: '10-05-2024',
      desProcedimento: 'Regolamento di esenzione',
      isDeMinimis: false,
      elementoDiAiuto: '1500.50',
      measure: 0,
      beneficiary: 0,
    });
    expect(answer.rows[1]).toMatchObject({ desProcedimento: 'De Minimis', isDeMinimis: true });
    expect(answer.details).toBeUndefined();
    expect(rowsWithDetails(answer)).toBeNull();
  });

  it('gives back each row’s references, granting body and regulation when asked for details', () => {
    const answer = searchAnswer(twoAids(), { details: true });
    const [first, second] = rowsWithDetails(answer)!;
    expect(first).toEqual({
      ...answer.rows[0],
      cor: '900001',
      car: '12345',
      cup: 'F81B24000010007',
      importoNominale: '20000.00',
      titoloProgetto: 'Nuovo gestionale',
      soggettoConcedente: 'Regione Lombardia',
      regulation: { code: 'GBER', text: 'Reg. UE 651/2014' },
    });
    expect(second).toMatchObject({
      cor: '900002',
      car: '',
      cup: 'n.d.',
      titoloProgetto: '',
      soggettoConcedente: 'Camera di commercio',
      regulation: { code: 'CE2831/23', text: 'De minimis generale' },
    });
  });

  it('gives empty references, and a regulation without code, for a row the register left them out of', () => {
    const answer = searchAnswer(
      resultOf([
        aid('1', {
          cor: undefined,
          car: undefined,
          codRegolamento: undefined,
          desRegolamento: 'Reg. UE 651/2014',
        }),
      ]),
      { details: true },
    );
    expect(rowsWithDetails(answer)![0]).toMatchObject({
      cor: '',
      car: '',
      regulation: { code: '', text: 'Reg. UE 651/2014' },
    });
  });

  it('gives a row the detail columns do not reach empty references, never another row’s', () => {
    const answer = searchAnswer(
      resultOf([
        aid('1'),
        aid('2', {
          soggettoConcedente: 'INPS',
          codRegolamento: 'CE2831/23',
          desRegolamento: 'De minimis generale',
        }),
        aid('3'),
      ]),
      {
        details: true,
      },
    );
    const details = answer.details!;
    // details for the first row only, as an answer cut short would carry them
    const cut = {
      rows: answer.rows,
      details: {
        ...details,
        cor: details.cor.slice(0, 1),
        car: details.car.slice(0, 1),
        cup: details.cup.slice(0, 1),
        importoNominale: details.importoNominale.slice(0, 1),
        titoloProgetto: details.titoloProgetto.slice(0, 1),
        grantor: details.grantor.slice(0, 1),
        regulation: details.regulation.slice(0, 1),
      },
    };
    const [, , third] = rowsWithDetails(cut)!;
    expect(third).toEqual({
      ...answer.rows[2],
      cor: '',
      car: '',
      cup: '',
      importoNominale: '',
      titoloProgetto: '',
      soggettoConcedente: '',
      regulation: { code: '', text: '' },
    });
  });

  it('sends a text repeated across rows once, each row pointing at its own', () => {
    const answer = searchAnswer(
      resultOf([
        aid('1'),
        aid('2', { titoloMisura: 'Voucher fiere' }),
        aid('3', { soggettoConcedente: 'INPS' }),
        aid('4', { codRegolamento: 'CE2831/23', desRegolamento: 'De minimis generale' }),
        aid('5', { codiceFiscaleBeneficiario: '98765432109', denominazioneBeneficiario: 'BETA SPA' }),
        aid('6'),
      ]),
      { details: true },
    );
    expect(answer.measures).toEqual(['Bando digitalizzazione', 'Voucher fiere']);
    expect(answer.details!.grantors).toEqual(['Regione Lombardia', 'INPS']);
    expect(answer.details!.regulations).toEqual([
      { code: 'GBER', text: 'Reg. UE 651/2014' },
      { code: 'CE2831/23', text: 'De minimis generale' },
    ]);
    expect(answer.beneficiaries).toEqual([
      { taxCode: '01234567897', name: 'ACME S.R.L.' },
      { taxCode: '98765432109', name: 'BETA SPA' },
    ]);
    expect(answer.rows.map((row) => row.measure)).toEqual([0, 1, 0, 0, 0, 0]);
    expect(answer.details!.grantor).toEqual([0, 0, 1, 0, 0, 0]);
    expect(answer.details!.regulation).toEqual([0, 0, 0, 1, 0, 0]);
    expect(answer.rows.map((row) => row.beneficiary)).toEqual([0, 0, 0, 0, 1, 0]);
  });
});
