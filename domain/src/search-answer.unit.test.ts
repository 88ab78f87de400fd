import type { AidRowDto, SearchResultDto } from './api';
import { readAidListRows, searchAnswer } from './search-answer';

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
  it('gives back each row’s own values and the texts it points at', () => {
    const answer = searchAnswer(
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
      ]),
    );
    const [first, second] = readAidListRows(answer);
    expect(first).toEqual({
      idComponenteAiuto: '1',
      dataConcessione: '10-05-2024',
      desProcedimento: 'Regolamento di esenzione',
      isDeMinimis: false,
      elementoDiAiuto: '1500.50',
      importoNominale: '20000.00',
      measure: 0,
      grantor: 0,
      regulation: 0,
      beneficiary: 0,
      cor: '900001',
      car: '12345',
      cup: 'F81B24000010007',
      titoloProgetto: 'Nuovo gestionale',
    });
    expect(second).toMatchObject({
      desProcedimento: 'De Minimis',
      isDeMinimis: true,
      car: '',
      titoloProgetto: '',
    });
    expect(answer.grantors[second!.grantor]).toBe('Camera di commercio');
    expect(answer.regulations[second!.regulation]).toEqual({
      code: 'CE2831/23',
      text: 'De minimis generale',
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
    );
    expect(answer.measures).toEqual(['Bando digitalizzazione', 'Voucher fiere']);
    expect(answer.grantors).toEqual(['Regione Lombardia', 'INPS']);
    expect(answer.regulations).toEqual([
      { code: 'GBER', text: 'Reg. UE 651/2014' },
      { code: 'CE2831/23', text: 'De minimis generale' },
    ]);
    expect(answer.beneficiaries).toEqual([
      { taxCode: '01234567897', name: 'ACME S.R.L.' },
      { taxCode: '98765432109', name: 'BETA SPA' },
    ]);
    const rows = readAidListRows(answer);
    expect(rows.map((row) => row.measure)).toEqual([0, 1, 0, 0, 0, 0]);
    expect(rows.map((row) => row.grantor)).toEqual([0, 0, 1, 0, 0, 0]);
    expect(rows.map((row) => row.regulation)).toEqual([0, 0, 0, 1, 0, 0]);
    expect(rows.map((row) => row.beneficiary)).toEqual([0, 0, 0, 0, 1, 0]);
  });

  it('reads each value by the name the answer gives its position, whatever the order', () => {
    const answer = searchAnswer(resultOf([aid('7')]));
    const reversed = [...answer.rowFields].reverse() as unknown as typeof answer.rowFields;
    const rows = answer.rows.map(
      (values) => [...values].reverse() as unknown as (typeof answer.rows)[number],
    );
    expect(readAidListRows({ rowFields: reversed, rows })).toEqual(readAidListRows(answer));
    expect(readAidListRows({ rowFields: reversed, rows })[0]).toMatchObject({
      idComponenteAiuto: '7',
      cor: '900001',
    });
  });
});
