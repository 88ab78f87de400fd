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
