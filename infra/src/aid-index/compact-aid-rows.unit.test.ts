import type { AidRecord } from '@rna/domain';
import { grantDateNumber, joinAid, splitAid, textKey } from './compact-aid-rows';
import { sampleAid } from './contract';

describe('compact aid rows', () => {
  it('give back every field of the aid exactly, whatever the field holds', () => {
    const awkward = sampleAid({
      idComponenteAiuto: '0042',
      codiceFiscaleBeneficiario: ' rssmra80a01h501u ',
      dataConcessione: '2024-02-30', // not a calendar day, but what the file said
      titoloProgetto: '["not","a","list"]',
      denominazioneBeneficiario: 'Caffè "Le Due Torri" – S.n.c.',
      cor: '',
      cup: 'n.d.',
      elementoDiAiutoCents: 0,
      importoNominaleCents: Number.MAX_SAFE_INTEGER,
    });
    for (const record of [sampleAid(), awkward]) expect(joinAid(splitAid(record))).toEqual(record);
  });

  it('leaves absent what the register did not give', () => {
    const partial = { ...sampleAid() } as Partial<AidRecord>;
    delete partial.cup;
    delete partial.titoloProgetto;
    delete partial.settoreAttivita;
    const back = joinAid(splitAid(partial as AidRecord));
    expect(back).toEqual(partial);
    expect(Object.keys(back)).not.toContain('cup');
  });

  it('share the measure and beneficiary texts between aids of the same measure and company', () => {
    const a = splitAid(sampleAid({ idComponenteAiuto: '1', elementoDiAiutoCents: 5 }));
    const b = splitAid(sampleAid({ idComponenteAiuto: '2', cor: '999', dataConcessione: '2025-01-01' }));
    expect(b.measure).toBe(a.measure);
    expect(b.beneficiary).toBe(a.beneficiary);
    const other = splitAid(sampleAid({ soggettoConcedente: 'Regione Puglia' }));
    expect(other.measure).not.toBe(a.measure);
    expect(other.beneficiary).toBe(a.beneficiary);
  });

  it('order grant dates as the dates they are', () => {
    const dates = ['2015-12-31', '2016-01-01', '2024-02-29', '2024-10-01', '2024-09-30'];
    const byNumber = [...dates].sort((x, y) => grantDateNumber(x) - grantDateNumber(y));
    expect(byNumber).toEqual([...dates].sort());
  });

  it('key texts the same way every time and tell close texts apart', () => {
    expect(textKey('Regione Lazio')).toBe(textKey('Regione Lazio'));
    const keys = new Set(Array.from({ length: 10_000 }, (_, i) => textKey(`Progetto n. ${i}`)));
    expect(keys.size).toBe(10_000);
    expect(Number.isSafeInteger(textKey('x'.repeat(5_000)))).toBe(true);
  });
});
