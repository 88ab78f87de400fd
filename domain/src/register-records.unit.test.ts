import type { AidRecord } from './events';
import {
  capText,
  checkRegisterRecord,
  EXCEL_CELL_MAX_CHARS,
  REGISTER_TEXT_MAX_CHARS,
  registerRecordValidator,
  type RegisterRecordCheck,
} from './register-records';

/** The sync runs on 15 March 2026 (Rome): grants up to 15 March 2027 are plausible. */
const SYNC_NOW = new Date('2026-03-15T10:00:00Z');

/** A well-formed register record: 12.345,67 € of de minimis granted on 10 February 2026. */
const aid = (over: Partial<AidRecord> = {}): AidRecord => ({
  car: '10001',
  titoloMisura: 'Sostegno alle attività produttive',
  desTipoMisura: 'Regime di aiuti',
  soggettoConcedente: 'Regione Lombardia',
  cor: '2026020000001',
  titoloProgetto: 'Progetto n. 1',
  dataConcessione: '2026-02-10',
  cup: 'n.d.',
  denominazioneBeneficiario: 'ACME S.R.L.',
  codiceFiscaleBeneficiario: '01234567897',
  desTipoBeneficiario: 'Piccola impresa',
  regioneBeneficiario: 'Lombardia',
  idComponenteAiuto: '20260200000011',
  codProcedimento: '1',
  desProcedimento: 'De Minimis',
  codRegolamento: 'CE2831/23',
  desRegolamento: 'Regolamento (UE) 2023/2831',
  codObiettivo: '10',
  desObiettivo: 'Sviluppo delle PMI',
  settoreAttivita: 'C.25.62',
  elementoDiAiutoCents: 1_234_567,
  importoNominaleCents: 1_234_567,
  sourceFile: '2026_02',
  importId: 'run:2026_02:abc',
  ...over,
});

const check = (over: Partial<AidRecord>) => checkRegisterRecord(aid(over), SYNC_NOW);
const rejection = (result: RegisterRecordCheck) => (result.ok ? null : result.rejection);

describe('a register record checked like user input', () => {
  it('keeps a well-formed record as it is', () => {
    // given a record with a real date, amounts and short texts; when checked
    const record = aid();
    const result = checkRegisterRecord(record, SYNC_NOW);
    // then it is kept unchanged, nothing capped, and not even copied (a file holds millions of them)
    expect(result).toEqual({ ok: true, record, capped: false });
    expect(result.ok && result.record).toBe(record);
  });

  it('accepts 29 February of a leap year and rejects it in any other year', () => {
    expect(check({ dataConcessione: '2024-02-29' })).toMatchObject({
      ok: true,
      record: { dataConcessione: '2024-02-29' },
    });
    expect(rejection(check({ dataConcessione: '2026-02-29' }))).toEqual({
      idComponenteAiuto: '20260200000011',
      reason: 'DATA_NON_VALIDA',
      message: 'Data di concessione non valida: 2026-02-29',
    });
  });

  it('rejects a date that is no calendar day, or none at all', () => {
    expect(rejection(check({ dataConcessione: '2026-13-45' }))).toMatchObject({
      reason: 'DATA_NON_VALIDA',
      message: 'Data di concessione non valida: 2026-13-45',
    });
    expect(rejection(check({ dataConcessione: '10/02/2026' }))?.reason).toBe('DATA_NON_VALIDA');
    expect(rejection(check({ dataConcessione: '' }))).toMatchObject({
      reason: 'DATA_NON_VALIDA',
      message: 'Data di concessione mancante',
    });
  });

  it('rejects a real date outside 1990-01-01 … one year after the sync', () => {
    expect(rejection(check({ dataConcessione: '9999-12-31' }))).toMatchObject({
      reason: 'DATA_FUORI_INTERVALLO',
      message: 'Data di concessione fuori dall’intervallo ammesso (1990-01-01 – 2027-03-15): 9999-12-31',
    });
    expect(rejection(check({ dataConcessione: '1989-12-31' }))?.reason).toBe('DATA_FUORI_INTERVALLO');
    expect(rejection(check({ dataConcessione: '2027-03-16' }))?.reason).toBe('DATA_FUORI_INTERVALLO');
    // both ends are plausible
    expect(check({ dataConcessione: '1990-01-01' }).ok).toBe(true);
    expect(check({ dataConcessione: '2027-03-15' }).ok).toBe(true);
  });

  it('moves the upper bound with the sync’s clock, in Rome', () => {
    // 23:30 UTC on 31 December 2026 is already 1 January 2027 in Rome
    const validate = registerRecordValidator(new Date('2026-12-31T23:30:00Z'));
    expect(validate(aid({ dataConcessione: '2028-01-01' })).ok).toBe(true);
    expect(validate(aid({ dataConcessione: '2028-01-02' })).ok).toBe(false);
  });

  it('rejects a negative amount instead of letting it lower a de minimis total', () => {
    // given an "aid" of -500.000,00 €: indexed, it would leave 800.000 € of a 300.000 € allowance
    const result = check({ elementoDiAiutoCents: -50_000_000, importoNominaleCents: -50_000_000 });
    expect(rejection(result)).toEqual({
      idComponenteAiuto: '20260200000011',
      reason: 'IMPORTO_NEGATIVO',
      message: 'Importo negativo (elemento di aiuto): -500.000,00 €',
    });
    expect(rejection(check({ importoNominaleCents: -1 }))?.message).toBe(
      'Importo negativo (importo nominale): -0,01 €',
    );
  });

  it('rejects amounts that are not integer cents or beyond 100 billion euro', () => {
    expect(rejection(check({ elementoDiAiutoCents: Number.NaN }))).toMatchObject({
      reason: 'IMPORTO_NON_VALIDO',
      message: 'Importo non valido (elemento di aiuto)',
    });
    expect(rejection(check({ importoNominaleCents: 10.5 }))?.reason).toBe('IMPORTO_NON_VALIDO');
    expect(rejection(check({ importoNominaleCents: 10_000_000_000_001 }))).toMatchObject({
      reason: 'IMPORTO_NON_VALIDO',
      message: 'Importo fuori misura (importo nominale): 100.000.000.000,01 €',
    });
    // 100 billion euro itself and zero are amounts
    expect(check({ importoNominaleCents: 10_000_000_000_000, elementoDiAiutoCents: 0 }).ok).toBe(true);
  });

  it('rejects a component id that is not an integer, and a missing tax code', () => {
    expect(rejection(check({ idComponenteAiuto: '12A' }))).toEqual({
      idComponenteAiuto: '12A',
      reason: 'ID_NON_VALIDO',
      message: 'Identificativo del componente di aiuto non valido: 12A',
    });
    expect(rejection(check({ idComponenteAiuto: '' }))?.message).toBe(
      'Identificativo del componente di aiuto mancante',
    );
    expect(rejection(check({ codiceFiscaleBeneficiario: '  ' }))).toMatchObject({
      reason: 'CODICE_FISCALE_NON_VALIDO',
      message: 'Codice fiscale del beneficiario mancante',
    });
    expect(rejection(check({ codiceFiscaleBeneficiario: 'X'.repeat(33) }))?.reason).toBe(
      'CODICE_FISCALE_NON_VALIDO',
    );
  });

  it('caps a 2.16-million-character beneficiary name instead of rejecting the aid', () => {
    // given the name a tester found in a register file: 2,160,000 characters
    const name = 'ACME S.R.L. '.repeat(180_000);
    expect(name.length).toBe(2_160_000);
    const result = check({ denominazioneBeneficiario: name, titoloProgetto: 'P'.repeat(2_001) });
    // then the aid is kept, with its name bounded and marked as cut
    if (!result.ok) throw new Error(result.rejection.message);
    expect(result.capped).toBe(true);
    const kept = result.record.denominazioneBeneficiario;
    expect(kept.length).toBe(2_000);
    expect(kept === `${name.slice(0, 1_999)}…`).toBe(true);
    expect(result.record.titoloProgetto).toBe(`${'P'.repeat(1_999)}…`);
    expect(REGISTER_TEXT_MAX_CHARS).toBeLessThan(EXCEL_CELL_MAX_CHARS);
    // and the rest of the record is the register's
    expect(result.record).toEqual(
      aid({ denominazioneBeneficiario: kept, titoloProgetto: result.record.titoloProgetto }),
    );
  });

  it('keeps a text of exactly the cap whole, and never cuts a character in two', () => {
    expect(check({ titoloMisura: 'T'.repeat(2_000) })).toMatchObject({ ok: true, capped: false });
    // an emoji is two UTF-16 units: a cut between them would leave half a character
    const result = check({ titoloMisura: `${'T'.repeat(1_998)}😀😀` });
    if (!result.ok) throw new Error(result.rejection.message);
    expect(result.record.titoloMisura).toBe(`${'T'.repeat(1_998)}…`);
  });

  it('quotes at most 40 characters of an offending value', () => {
    const id = '9'.repeat(21) + 'Z'.repeat(100_000);
    const reason = rejection(check({ idComponenteAiuto: id }));
    expect(reason?.idComponenteAiuto).toHaveLength(40);
    expect(reason?.message.length).toBeLessThan(100);
  });

  it('quotes at most 40 characters of a long tax code or a long malformed date too', () => {
    const taxCode = 'X'.repeat(50);
    expect(rejection(check({ codiceFiscaleBeneficiario: taxCode }))?.message).toBe(
      `Codice fiscale del beneficiario non valido: ${'X'.repeat(39)}…`,
    );
    const day = `2026-02-10${'0'.repeat(50)}`;
    expect(rejection(check({ dataConcessione: day }))?.message).toBe(
      `Data di concessione non valida: ${day.slice(0, 39)}…`,
    );
  });

  it('takes component ids of up to 20 digits and tax codes of up to 32 characters', () => {
    expect(check({ idComponenteAiuto: '9'.repeat(20) }).ok).toBe(true);
    expect(rejection(check({ idComponenteAiuto: '9'.repeat(21) }))).toEqual({
      idComponenteAiuto: '9'.repeat(21),
      reason: 'ID_NON_VALIDO',
      message: `Identificativo del componente di aiuto non valido: ${'9'.repeat(21)}`,
    });
    expect(check({ codiceFiscaleBeneficiario: 'X'.repeat(32) }).ok).toBe(true);
    expect(rejection(check({ codiceFiscaleBeneficiario: 'X'.repeat(33) }))?.message).toBe(
      `Codice fiscale del beneficiario non valido: ${'X'.repeat(33)}`,
    );
  });

  it('rejects a component id with anything but digits, at either end or in the middle', () => {
    for (const id of ['A12', '12A', '1 2', '-12', '1.5']) {
      expect(rejection(check({ idComponenteAiuto: id }))?.reason).toBe('ID_NON_VALIDO');
    }
    // spaces only: the id is missing
    expect(rejection(check({ idComponenteAiuto: '   ' }))?.message).toBe(
      'Identificativo del componente di aiuto mancante',
    );
  });

  it('keeps the record with the spaces around its id and date trimmed, the register’s record untouched', () => {
    const record = aid({ idComponenteAiuto: ' 20260200000011 ', dataConcessione: '2026-02-10 ' });
    const result = checkRegisterRecord(record, SYNC_NOW);
    expect(result).toEqual({ ok: true, record: aid(), capped: false });
    expect(record.idComponenteAiuto).toBe(' 20260200000011 ');
    // a date with spaces alone is trimmed too
    const dateOnly = check({ dataConcessione: ' 2026-02-10' });
    expect(dateOnly.ok && dateOnly.record.dataConcessione).toBe('2026-02-10');
    const idOnly = check({ idComponenteAiuto: '20260200000011\t' });
    expect(idOnly.ok && idOnly.record.idComponenteAiuto).toBe('20260200000011');
  });

  it('caps every free text of the record, and leaves the register’s record as it was', () => {
    const long = 'L'.repeat(2_500);
    const capped = `${'L'.repeat(1_999)}…`;
    const record = aid({ cor: long, settoreAttivita: long, desRegolamento: long });
    const result = checkRegisterRecord(record, SYNC_NOW);
    expect(result).toEqual({
      ok: true,
      record: aid({ cor: capped, settoreAttivita: capped, desRegolamento: capped }),
      capped: true,
    });
    expect(record.cor).toBe(long);
  });

  it('names the record of a missing tax code by its id, and calls a blank date missing', () => {
    expect(rejection(check({ codiceFiscaleBeneficiario: '' }))).toEqual({
      idComponenteAiuto: '20260200000011',
      reason: 'CODICE_FISCALE_NON_VALIDO',
      message: 'Codice fiscale del beneficiario mancante',
    });
    expect(rejection(check({ dataConcessione: ' ' }))?.message).toBe('Data di concessione mancante');
  });

  it('checks the nominal amount as well as the aid element', () => {
    expect(rejection(check({ importoNominaleCents: Number.POSITIVE_INFINITY }))).toMatchObject({
      reason: 'IMPORTO_NON_VALIDO',
      message: 'Importo non valido (importo nominale)',
    });
    expect(rejection(check({ elementoDiAiutoCents: 10_000_000_000_001 }))?.message).toBe(
      'Importo fuori misura (elemento di aiuto): 100.000.000.000,01 €',
    );
  });
});

describe('capText', () => {
  it('leaves a text of at most the cap as it is', () => {
    expect(capText('abcde', 5)).toBe('abcde');
    expect(capText('', 5)).toBe('');
  });

  it('cuts a longer text to the cap, its last character an ellipsis', () => {
    expect(capText('abcdef', 5)).toBe('abcd…');
    expect(capText('x'.repeat(2_001))).toBe(`${'x'.repeat(1_999)}…`);
  });

  it('cuts before a character outside the basic plane rather than through it, whatever the character', () => {
    // U+10000 (\ud800\udc00), U+1F600 😀 (\ud83d\ude00), U+10FFFF (\udbff\udfff): the first and
    // last code points that take two units
    for (const wide of ['\u{10000}', '😀', '\u{10FFFF}']) {
      expect(capText(`abc${wide}xyz`, 5)).toBe('abc…');
    }
    // a character of the basic plane right at the cut is kept
    expect(capText('abc\uffffxyz', 5)).toBe('abc\uffff…');
    expect(capText('abc\u{d7ff}xyz', 5)).toBe('abc\u{d7ff}…');
  });
});
