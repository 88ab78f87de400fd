import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeAidIndexContract, sampleAid } from './contract';
import { openSqliteAidIndex } from './sqlite-aid-index';

describeAidIndexContract('SQLite (embedded)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-'));
  const file = path.join(dir, 'aids.db');
  return {
    open: async () => openSqliteAidIndex(file),
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
});

describe('SQLite aid index bulk upserts (writer thread)', () => {
  it('writes, reports changes and reads back a sync-sized batch in order with small writes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-bulk-'));
    const index = openSqliteAidIndex(path.join(dir, 'aids.db'));
    try {
      const batch = Array.from({ length: 2500 }, (_, i) =>
        sampleAid({ idComponenteAiuto: String(i), codiceFiscaleBeneficiario: `cf${i % 10}` }),
      );
      const first = index.upsert(batch); // not awaited: the withdrawal below must still come after it
      const withdrawn = index.withdraw(['7']);
      expect((await first).changed).toBe(2500);
      expect((await first).changedTaxCodes).toHaveLength(10);
      expect(await withdrawn).toEqual({ count: 1, taxCodes: ['CF7'] });
      expect(await index.count()).toBe(2499);
      const again = await index.upsert(batch.map((aid) => ({ ...aid, importId: 'import-2' })));
      expect(again).toEqual({ changed: 1, changedTaxCodes: ['CF7'] });
      expect((await index.get('3'))?.importId).toBe('import-2');
      await expect(index.upsert([...batch, sampleAid({ dataConcessione: '15/03/2024' })])).rejects.toThrow(
        TypeError,
      );
      expect(await index.search({ taxCodes: ['CF1'], limit: 3 })).toHaveLength(3);
    } finally {
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SQLite aid index upserts of aids encoded as JSON (the sync fast path)', () => {
  it('stores the aids as published, reports the source file of each changed tax code and rejects invalid aids', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-encoded-'));
    const index = openSqliteAidIndex(path.join(dir, 'aids.db'));
    try {
      const aids = Array.from({ length: 2500 }, (_, i) =>
        sampleAid({
          idComponenteAiuto: String(i),
          codiceFiscaleBeneficiario: `cf${i % 10}`,
          sourceFile: i < 2000 ? '2024_01' : '2024_02',
        }),
      );
      const first = await index.upsertEncoded(aids.map((aid) => JSON.stringify(aid)));
      expect(first.changed).toBe(2500);
      const fileOf = Object.fromEntries(first.changedTaxCodes.map((code, i) => [code, first.sourceFiles[i]]));
      expect(fileOf).toEqual(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`CF${i}`, '2024_02'])));
      expect(await index.get('42')).toEqual(aids[42]);
      // The same aids in the record form: nothing changed, whichever form wrote them.
      expect(await index.upsert(aids.slice(0, 10))).toEqual({ changed: 0, changedTaxCodes: [] });
      const small = await index.upsertEncoded([JSON.stringify({ ...aids[1]!, cor: 'other' })]);
      expect(small).toEqual({ changed: 1, changedTaxCodes: ['CF1'], sourceFiles: ['2024_01'] });
      const invalid = JSON.stringify(sampleAid({ idComponenteAiuto: 'x', dataConcessione: '15/03/2024' }));
      await expect(index.upsertEncoded([invalid])).rejects.toThrow('dataConcessione');
      await expect(index.upsertEncoded([...aids.map((a) => JSON.stringify(a)), invalid])).rejects.toThrow(
        'dataConcessione',
      );
      expect(await index.get('x')).toBeNull();
    } finally {
      await index.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
