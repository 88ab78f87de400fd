import { aidRecordProblems, assertStorableAid } from './aid-records';
import type { AidRecord } from './events';

// An aid as the register's parser hands it over; each test spoils one field.
const aid: AidRecord = {
  idComponenteAiuto: '12345678',
  cor: '987654',
  car: '1234',
  titoloMisura: 'Bando innovazione',
  desTipoMisura: 'Regime di aiuti',
  soggettoConcedente: 'Regione Lazio',
  titoloProgetto: 'Nuovo impianto',
  dataConcessione: '2024-03-15',
  cup: 'J12B34000010007',
  denominazioneBeneficiario: 'ALFA SRL',
  codiceFiscaleBeneficiario: '01234567890',
  desTipoBeneficiario: 'PMI',
  regioneBeneficiario: 'Lazio',
  codProcedimento: 'P1',
  desProcedimento: 'Procedura automatica',
  codRegolamento: 'R1',
  desRegolamento: 'Reg. (UE) 2023/2831 de minimis',
  codObiettivo: 'O1',
  desObiettivo: 'Innovazione',
  settoreAttivita: 'C.25',
  elementoDiAiutoCents: 1_500_000,
  importoNominaleCents: 2_000_000,
  sourceFile: '2024_03',
  importId: 'import-1',
};

function spoiled(changes: Record<string, unknown>): AidRecord {
  return { ...aid, ...changes } as unknown as AidRecord;
}

describe('aidRecordProblems', () => {
  it('finds nothing wrong with a well-formed aid, also when its id has spaces around it', () => {
    expect(aidRecordProblems(aid)).toEqual([]);
    expect(aidRecordProblems(spoiled({ idComponenteAiuto: ' 12345678 ' }))).toEqual([]);
    // the money is whole cents, zero and negative (a reduction) included
    expect(aidRecordProblems(spoiled({ elementoDiAiutoCents: 0, importoNominaleCents: -500 }))).toEqual([]);
  });

  it.each([
    ['a letter in it', '12A45'],
    ['empty', ''],
    ['only spaces', '   '],
    ['a number, not text', 12345],
    ['missing', undefined],
  ])('refuses an aid id that is %s', (_, idComponenteAiuto) => {
    expect(aidRecordProblems(spoiled({ idComponenteAiuto }))).toEqual([
      'idComponenteAiuto must be an integer',
    ]);
  });

  it('refuses an id with digits only at one end', () => {
    expect(aidRecordProblems(spoiled({ idComponenteAiuto: 'x123' }))).toEqual([
      'idComponenteAiuto must be an integer',
    ]);
    expect(aidRecordProblems(spoiled({ idComponenteAiuto: '123x' }))).toEqual([
      'idComponenteAiuto must be an integer',
    ]);
  });

  it('refuses an aid without a beneficiary tax code, but keeps one the register spelled badly', () => {
    expect(aidRecordProblems(spoiled({ codiceFiscaleBeneficiario: undefined }))).toEqual([
      'codiceFiscaleBeneficiario is missing',
    ]);
    // the index keys by the code as written; a malformed one is still the register's record
    expect(aidRecordProblems(spoiled({ codiceFiscaleBeneficiario: 'non valido' }))).toEqual([]);
  });

  it.each([
    ['in the Italian order', '15/03/2024'],
    ['with a time', '2024-03-15T10:00:00'],
    ['with a prefix', 'x2024-03-15'],
    ['with one-digit month', '2024-3-15'],
    ['missing', undefined],
  ])('refuses a grant date %s', (_, dataConcessione) => {
    expect(aidRecordProblems(spoiled({ dataConcessione }))).toEqual(['dataConcessione must be YYYY-MM-DD']);
  });

  it.each([
    ['a fraction of a cent', 10.5],
    ['text', '1500000'],
    ['not a number', Number.NaN],
    ['beyond what adds up exactly', 2 ** 53],
  ])('refuses an amount that is %s, naming which amount', (_, cents) => {
    expect(aidRecordProblems(spoiled({ elementoDiAiutoCents: cents }))).toEqual([
      'elementoDiAiutoCents must be integer cents',
    ]);
    expect(aidRecordProblems(spoiled({ importoNominaleCents: cents }))).toEqual([
      'importoNominaleCents must be integer cents',
    ]);
  });

  it('refuses an aid that does not say which file and which import brought it', () => {
    expect(aidRecordProblems(spoiled({ sourceFile: undefined }))).toEqual(['sourceFile is missing']);
    expect(aidRecordProblems(spoiled({ importId: undefined }))).toEqual(['importId is missing']);
  });

  it('names every problem of a record, in the order of its fields', () => {
    expect(aidRecordProblems({} as AidRecord)).toEqual([
      'idComponenteAiuto must be an integer',
      'codiceFiscaleBeneficiario is missing',
      'dataConcessione must be YYYY-MM-DD',
      'elementoDiAiutoCents must be integer cents',
      'importoNominaleCents must be integer cents',
      'sourceFile is missing',
      'importId is missing',
    ]);
  });
});

describe('assertStorableAid', () => {
  it('lets a well-formed aid through', () => {
    expect(() => assertStorableAid(aid)).not.toThrow();
  });

  it('throws a TypeError naming the aid and every problem, for the dead-letter record', () => {
    const bad = spoiled({ dataConcessione: '15/03/2024', importoNominaleCents: 1.5 });
    expect(() => assertStorableAid(bad)).toThrow(TypeError);
    expect(() => assertStorableAid(bad)).toThrow(
      'Invalid aid record 12345678: dataConcessione must be YYYY-MM-DD, importoNominaleCents must be integer cents',
    );
  });
});
