/**
 * The aid index contract: every adapter (embedded SQLite, Elasticsearch, …) runs this suite unchanged.
 * Each test gets fresh storage from the factory; harness.open() opens further instances on it.
 */
import { isDeMinimisProcedure, normalizeTaxCode, orderedImportId, type AidRecord } from '@rna/domain';
import { settleAll, type ContractHarness, type HarnessFactory } from '../embedded/contract-helpers';
import { adaptersPerTest } from '../embedded/contract-lifecycle';
import type { AidIndex } from './port';

export type AidIndexHarness = ContractHarness<AidIndex>;

/** A complete, plausible aid component; tests override what they care about. */
export function sampleAid(overrides: Partial<AidRecord> = {}): AidRecord {
  return {
    idComponenteAiuto: '1000',
    cor: '123456',
    car: '7890',
    titoloMisura: 'Aiuti alle PMI per la digitalizzazione',
    desTipoMisura: 'Regime di aiuti',
    soggettoConcedente: 'Regione Lazio',
    titoloProgetto: 'Nuovo gestionale',
    dataConcessione: '2024-03-15',
    cup: 'F81B24000010007',
    denominazioneBeneficiario: 'Rossi Srl',
    codiceFiscaleBeneficiario: '01234567890',
    desTipoBeneficiario: 'PMI',
    regioneBeneficiario: 'Lazio',
    codProcedimento: '1',
    desProcedimento: 'De minimis',
    codRegolamento: '2831/2023',
    desRegolamento: 'Reg. (UE) 2023/2831 de minimis generale',
    codObiettivo: '1',
    desObiettivo: 'Sviluppo',
    settoreAttivita: 'J.62.01',
    elementoDiAiutoCents: 1_500_000,
    importoNominaleCents: 2_000_000,
    sourceFile: '2024_03_001',
    importId: 'import-1',
    ...overrides,
  };
}

export function describeAidIndexContract(name: string, factory: HarnessFactory<AidIndex>): void {
  describe(`AidIndex contract: ${name}`, () => {
    const adapters = adaptersPerTest(factory);
    const open = adapters.open;
    let index: AidIndex;
    beforeEach(() => {
      index = adapters.first();
    });

    const ids = (records: AidRecord[]) => records.map((r) => r.idComponenteAiuto);
    const A = '01234567890';
    const B = 'RSSMRA80A01H501U';

    describe('upsert', () => {
      it('stores new aids and reports them as changed, with their tax codes', async () => {
        const result = await index.upsert([
          sampleAid({ idComponenteAiuto: '1', codiceFiscaleBeneficiario: A }),
          sampleAid({ idComponenteAiuto: '2', codiceFiscaleBeneficiario: B }),
        ]);
        expect(result.changed).toBe(2);
        expect([...result.changedTaxCodes].sort()).toEqual([A, B].sort());
        expect(await index.count()).toBe(2);
        expect(await index.get('2')).toEqual(
          sampleAid({ idComponenteAiuto: '2', codiceFiscaleBeneficiario: B }),
        );
        expect(await index.get('404')).toBeNull();
      });

      it('is idempotent: the same aids again change nothing', async () => {
        const records = [sampleAid({ idComponenteAiuto: '1' }), sampleAid({ idComponenteAiuto: '2' })];
        await index.upsert(records);
        await expect(index.upsert(records)).resolves.toEqual({ changed: 0, changedTaxCodes: [] });
        expect(await index.count()).toBe(2);
      });

      it('a different importId alone is not a change, but is remembered', async () => {
        await index.upsert([sampleAid({ idComponenteAiuto: '1', importId: 'first' })]);
        const result = await index.upsert([sampleAid({ idComponenteAiuto: '1', importId: 'second' })]);
        expect(result.changed).toBe(0);
        expect((await index.get('1'))?.importId).toBe('second');
      });

      it('a changed amount is a change; the last write wins', async () => {
        await index.upsert([sampleAid({ idComponenteAiuto: '1' }), sampleAid({ idComponenteAiuto: '2' })]);
        const result = await index.upsert([
          sampleAid({ idComponenteAiuto: '1', elementoDiAiutoCents: 99 }),
          sampleAid({ idComponenteAiuto: '2' }),
        ]);
        expect(result).toEqual({ changed: 1, changedTaxCodes: [A] });
        expect((await index.get('1'))?.elementoDiAiutoCents).toBe(99);
      });

      it('a beneficiary change reports both the old and the new tax code', async () => {
        await index.upsert([sampleAid({ idComponenteAiuto: '1', codiceFiscaleBeneficiario: A })]);
        const result = await index.upsert([
          sampleAid({ idComponenteAiuto: '1', codiceFiscaleBeneficiario: B }),
        ]);
        expect([...result.changedTaxCodes].sort()).toEqual([A, B].sort());
        expect(await index.search({ taxCodes: [A] })).toEqual([]);
        expect(ids(await index.search({ taxCodes: [B] }))).toEqual(['1']);
      });

      it('within one batch the later duplicate wins', async () => {
        await index.upsert([
          sampleAid({ idComponenteAiuto: '1', titoloProgetto: 'old' }),
          sampleAid({ idComponenteAiuto: '1', titoloProgetto: 'new' }),
        ]);
        expect(await index.count()).toBe(1);
        expect((await index.get('1'))?.titoloProgetto).toBe('new');
      });

      it('rejects a batch with an invalid record as a whole, naming the problem', async () => {
        const bad = sampleAid({ idComponenteAiuto: '2', dataConcessione: '15/03/2024' });
        await expect(index.upsert([sampleAid({ idComponenteAiuto: '1' }), bad])).rejects.toThrow(
          /dataConcessione/,
        );
        expect(await index.count()).toBe(0);
      });
    });

    describe('search', () => {
      beforeEach(async () => {
        await index.upsert([
          sampleAid({ idComponenteAiuto: '9', codiceFiscaleBeneficiario: A, dataConcessione: '2023-05-01' }),
          sampleAid({ idComponenteAiuto: '10', codiceFiscaleBeneficiario: A, dataConcessione: '2023-05-01' }),
          sampleAid({
            idComponenteAiuto: '11',
            codiceFiscaleBeneficiario: A,
            dataConcessione: '2024-01-10',
            codProcedimento: '2',
            desProcedimento: 'Regime notificato',
          }),
          sampleAid({ idComponenteAiuto: '12', codiceFiscaleBeneficiario: A, dataConcessione: '2021-12-31' }),
          sampleAid({ idComponenteAiuto: '20', codiceFiscaleBeneficiario: B, dataConcessione: '2022-06-30' }),
          sampleAid({ idComponenteAiuto: '30', codiceFiscaleBeneficiario: 'OTHER0000000000X' }),
        ]);
      });

      it('finds one tax code newest first, ties by id descending (ids are integers)', async () => {
        expect(ids(await index.search({ taxCodes: [A] }))).toEqual(['11', '10', '9', '12']);
      });

      it('finds several tax codes at once, merged newest first', async () => {
        expect(ids(await index.search({ taxCodes: [B, A] }))).toEqual(['11', '10', '9', '20', '12']);
      });

      it('filters by an inclusive start date', async () => {
        expect(ids(await index.search({ taxCodes: [A, B], dateFrom: '2023-05-01' }))).toEqual([
          '11',
          '10',
          '9',
        ]);
      });

      it('keeps only de minimis aid (procedure code 1) when asked', async () => {
        expect(ids(await index.search({ taxCodes: [A], deMinimisOnly: true }))).toEqual(['10', '9', '12']);
        expect(
          ids(await index.search({ taxCodes: [A], deMinimisOnly: true, dateFrom: '2022-01-01' })),
        ).toEqual(['10', '9']);
      });

      it('agrees with the domain rules on awkward records: de minimis by description, codes with spaces', async () => {
        const awkward = [
          sampleAid({ idComponenteAiuto: '40', codiceFiscaleBeneficiario: 'bncgnn70b02f205x', codProcedimento: '7', desProcedimento: 'DE MINIMIS' }),
          sampleAid({ idComponenteAiuto: '41', codiceFiscaleBeneficiario: 'BNCGNN 70B02 F205X', codProcedimento: '2', desProcedimento: 'Regime notificato' }),
          sampleAid({ idComponenteAiuto: '42', codiceFiscaleBeneficiario: ' BNCGNN70B02F205X', codProcedimento: '1', desProcedimento: '' }),
        ]; // prettier-ignore
        await index.upsert(awkward);
        // what a user types, normalised as the search screen does
        const typed = normalizeTaxCode(' bncgnn70b02f205x ');
        const byDomain = awkward
          .filter((aid) => normalizeTaxCode(aid.codiceFiscaleBeneficiario) === typed)
          .map((aid) => aid.idComponenteAiuto)
          .sort();
        expect(ids(await index.search({ taxCodes: [typed] })).sort()).toEqual(byDomain);
        expect(byDomain).toEqual(['40', '41', '42']);
        const deMinimisByDomain = awkward
          .filter((aid) => isDeMinimisProcedure(aid.codProcedimento, aid.desProcedimento))
          .map((aid) => aid.idComponenteAiuto)
          .sort();
        expect(ids(await index.search({ taxCodes: [typed], deMinimisOnly: true })).sort()).toEqual(
          deMinimisByDomain,
        );
        expect(deMinimisByDomain).toEqual(['40', '42']);
      });

      it('honours a limit', async () => {
        expect(ids(await index.search({ taxCodes: [A], limit: 2 }))).toEqual(['11', '10']);
      });

      it('matches tax codes regardless of case and surrounding spaces', async () => {
        expect(ids(await index.search({ taxCodes: [' rssmra80a01h501u '] }))).toEqual(['20']);
      });

      it('returns nothing for an unknown or empty tax code list', async () => {
        expect(await index.search({ taxCodes: ['NOBODY00000000X'] })).toEqual([]);
        expect(await index.search({ taxCodes: [] })).toEqual([]);
      });

      it('returns whole records', async () => {
        const [first] = await index.search({ taxCodes: [B] });
        expect(first).toEqual(
          sampleAid({ idComponenteAiuto: '20', codiceFiscaleBeneficiario: B, dataConcessione: '2022-06-30' }),
        );
      });
    });

    describe('withdraw', () => {
      it('removes aids by id and tells which existed and whose they were', async () => {
        await index.upsert([
          sampleAid({ idComponenteAiuto: '1', codiceFiscaleBeneficiario: A }),
          sampleAid({ idComponenteAiuto: '2', codiceFiscaleBeneficiario: A }),
          sampleAid({ idComponenteAiuto: '3', codiceFiscaleBeneficiario: B }),
        ]);
        const result = await index.withdraw(['1', '2', '404']);
        expect(result).toEqual({ count: 2, taxCodes: [A] });
        expect(await index.get('1')).toBeNull();
        expect(await index.count()).toBe(1);
        await expect(index.withdraw(['1'])).resolves.toEqual({ count: 0, taxCodes: [] });
      });

      it('removes a whole source file, or only what another import wrote', async () => {
        await index.upsert([
          sampleAid({
            idComponenteAiuto: '1',
            sourceFile: 'f1',
            importId: 'old',
            codiceFiscaleBeneficiario: A,
          }),
          sampleAid({
            idComponenteAiuto: '2',
            sourceFile: 'f1',
            importId: 'new',
            codiceFiscaleBeneficiario: B,
          }),
          sampleAid({
            idComponenteAiuto: '3',
            sourceFile: 'f1',
            importId: 'old',
            codiceFiscaleBeneficiario: A,
          }),
          sampleAid({
            idComponenteAiuto: '4',
            sourceFile: 'f2',
            importId: 'old',
            codiceFiscaleBeneficiario: B,
          }),
          // Import ids on both sides of the kept one.
          sampleAid({
            idComponenteAiuto: '5',
            sourceFile: 'f1',
            importId: 'earlier',
            codiceFiscaleBeneficiario: A,
          }),
        ]);
        await expect(index.withdrawBySourceFile('f1', 'new')).resolves.toEqual({ count: 3, taxCodes: [A] });
        expect(ids(await index.search({ taxCodes: [A, B] })).sort()).toEqual(['2', '4']);

        const all = await index.withdrawBySourceFile('f2');
        expect(all).toEqual({ count: 1, taxCodes: [B] });
        await expect(index.withdrawBySourceFile('none')).resolves.toEqual({ count: 0, taxCodes: [] });
      });
    });

    describe('imports in their order', () => {
      // Two imports of one file: the older one's importer was paused, the newer one replaced it, and
      // the older one's last aids and marker arrive after the newer one's (import-order.ts).
      const older = orderedImportId(7, 'run-a', 'f1');
      const newer = orderedImportId(8, 'run-a', 'f1');
      const ofImport = (importId: string, id: string, cents: number) =>
        sampleAid({ idComponenteAiuto: id, sourceFile: 'f1', importId, elementoDiAiutoCents: cents });

      it('never lets an older import’s late aids replace a newer import’s, nor its marker remove them', async () => {
        await index.upsert([ofImport(older, '1', 100), ofImport(older, '2', 100)]);
        await index.upsert([ofImport(newer, '1', 200), ofImport(newer, '2', 200), ofImport(newer, '3', 200)]);
        await index.withdrawBySourceFile('f1', newer);
        // the paused importer wakes up: the rest of its file, then its marker
        expect(await index.upsert([ofImport(older, '2', 100), ofImport(older, '3', 100)])).toEqual({
          changed: 0,
          changedTaxCodes: [],
        });
        await expect(index.withdrawBySourceFile('f1', older)).resolves.toEqual({ count: 0, taxCodes: [] });
        const kept = await index.search({ taxCodes: [A] });
        expect(kept.map((aid) => [aid.idComponenteAiuto, aid.elementoDiAiutoCents, aid.importId])).toEqual([
          ['3', 200, newer],
          ['2', 200, newer],
          ['1', 200, newer],
        ]);
      });

      it('never brings back an aid the newer import dropped: an older import’s late aid of a settled file stays out', async () => {
        await index.upsert([ofImport(older, '1', 100), ofImport(older, '2', 100)]);
        // the register dropped '2': the newer import brings '1' only, and its marker removes '2'
        await index.upsert([ofImport(newer, '1', 200)]);
        await expect(index.withdrawBySourceFile('f1', newer)).resolves.toEqual({ count: 1, taxCodes: [A] });
        // a writer paused with the older import's batch in hand (or a redelivery) applies it now
        expect(await index.upsert([ofImport(older, '2', 100), ofImport(older, '1', 100)])).toEqual({
          changed: 0,
          changedTaxCodes: [],
        });
        expect((await index.search({ taxCodes: [A] })).map((aid) => aid.idComponenteAiuto)).toEqual(['1']);
        // a file the register withdrew keeps its older aids out too; other files are not concerned
        await index.withdrawBySourceFile('f1', orderedImportId(9, 'run-b', 'f1'));
        await index.upsert([
          ofImport(newer, '1', 200),
          sampleAid({ idComponenteAiuto: '5', sourceFile: 'f2' }),
        ]);
        expect((await index.search({ taxCodes: [A] })).map((aid) => aid.idComponenteAiuto)).toEqual(['5']);
        // a later import of the file (republished) is let in
        await index.upsert([ofImport(orderedImportId(10, 'run-c', 'f1'), '1', 300)]);
        expect((await index.search({ taxCodes: [A] })).map((aid) => aid.idComponenteAiuto)).toEqual([
          '5',
          '1',
        ]);
      });

      it('lets a marker that arrives before its own aids remove only what older imports wrote', async () => {
        await index.upsert([ofImport(older, '1', 100), ofImport(older, '2', 100)]);
        await index.upsert([ofImport(newer, '1', 200)]);
        // the newer marker overtook its aid '3' (another partition): '2', gone from the file, goes
        await expect(index.withdrawBySourceFile('f1', newer)).resolves.toEqual({ count: 1, taxCodes: [A] });
        await index.upsert([ofImport(newer, '3', 200)]);
        expect((await index.search({ taxCodes: [A] })).map((aid) => aid.idComponenteAiuto)).toEqual([
          '3',
          '1',
        ]);
      });
    });

    describe('administration', () => {
      it('counts per source file and clears everything', async () => {
        await index.upsert([
          sampleAid({ idComponenteAiuto: '1', sourceFile: '2024_01_001' }),
          sampleAid({ idComponenteAiuto: '2', sourceFile: '2024_01_001' }),
          sampleAid({ idComponenteAiuto: '3', sourceFile: '2023_12_004' }),
        ]);
        const stats = await index.statsBySourceFile();
        expect([...stats].sort((x, y) => x.sourceFile.localeCompare(y.sourceFile))).toEqual([
          { sourceFile: '2023_12_004', count: 1 },
          { sourceFile: '2024_01_001', count: 2 },
        ]);
        await index.clear();
        expect(await index.count()).toBe(0);
        expect(await index.statsBySourceFile()).toEqual([]);
        expect(await index.search({ taxCodes: [A] })).toEqual([]);
      });

      it('a completed rebuild holds exactly what was written to it, old aids gone', async () => {
        await index.upsert([
          sampleAid({ idComponenteAiuto: '1', sourceFile: 'old' }),
          sampleAid({ idComponenteAiuto: '2', sourceFile: 'old' }),
        ]);
        const rebuild = await index.beginRebuild();
        await rebuild.target.upsert([sampleAid({ idComponenteAiuto: '3', sourceFile: 'new' })]);
        await rebuild.target.withdrawBySourceFile('new', 'keep-none');
        await rebuild.target.upsert([sampleAid({ idComponenteAiuto: '4', sourceFile: 'new' })]);
        await rebuild.complete();
        expect((await index.search({ taxCodes: [A] })).map((aid) => aid.idComponenteAiuto)).toEqual(['4']);
        expect(await index.count()).toBe(1);
      });
    });

    describe('race and restart', () => {
      it('two instances upserting the same new aid at once: exactly one reports the change', async () => {
        const other = await open();
        const aid = sampleAid({ idComponenteAiuto: '77' });
        const { fulfilled } = await settleAll([index.upsert([aid]), other.upsert([aid])]);
        expect(fulfilled.map((r) => r.value.changed).sort()).toEqual([0, 1]);
        expect(await other.count()).toBe(1);
      });

      it('concurrent batches from two instances all land once', async () => {
        const other = await open();
        const batch = (from: number) =>
          Array.from({ length: 200 }, (_, i) => sampleAid({ idComponenteAiuto: String(from + i) }));
        await Promise.all([index.upsert(batch(1)), other.upsert(batch(101)), index.upsert(batch(301))]);
        expect(await index.count()).toBe(500);
      });

      it('close and reopen: nothing lost, nothing duplicated', async () => {
        const records = Array.from({ length: 50 }, (_, i) => sampleAid({ idComponenteAiuto: String(i + 1) }));
        await index.upsert(records);
        await index.close();
        const reopened = await open();
        expect(await reopened.count()).toBe(50);
        expect(await reopened.get('50')).toEqual(records[49]);
        await expect(reopened.upsert(records)).resolves.toEqual({ changed: 0, changedTaxCodes: [] });
        expect(await reopened.search({ taxCodes: [A] })).toHaveLength(50);
      });
    });
  });
}
