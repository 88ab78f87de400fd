import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { AIDS_TOPIC, encodeAidRecorded, orderedImportId, type AidRecord } from '@rna/domain';
import { unpackTexts, type AidIndex } from '@rna/infra';
import { countDeadLetters, RecordRejectedError } from '@rna/infra/dead-letters';
import { openStores } from '@rna/infra/stores';
import { startAidIndexProjection } from '@rna/projector/aids';

jest.setTimeout(60_000);

const importId = orderedImportId(1, 'run', '2025_06');
const aid = (id: string, taxCode: string): AidRecord => ({
  idComponenteAiuto: id, cor: 'c', car: 'k', titoloMisura: '', desTipoMisura: '', soggettoConcedente: '', titoloProgetto: '',
  dataConcessione: '2025-06-10', cup: 'n.d.', denominazioneBeneficiario: 'ALFA S.R.L.', codiceFiscaleBeneficiario: taxCode,
  desTipoBeneficiario: '', regioneBeneficiario: '', codProcedimento: '1', desProcedimento: 'De Minimis',
  codRegolamento: 'CE2831/23', desRegolamento: '', codObiettivo: '', desObiettivo: '', settoreAttivita: '',
  elementoDiAiutoCents: 100, importoNominaleCents: 100, sourceFile: '2025_06', importId,
}); // prettier-ignore

/** An index whose rules refuse aid 1 (as Elasticsearch refuses a field it cannot map). */
function refusingFirst(index: AidIndex): AidIndex {
  const refused = Object.create(index) as AidIndex;
  const reject = () => Promise.reject(new RecordRejectedError('aid 1 refused'));
  refused.upsert = (aids) => (aids.some((a) => a.idComponenteAiuto === '1') ? reject() : index.upsert(aids));
  const upsertEncoded = index.upsertEncoded?.bind(index);
  if (upsertEncoded)
    refused.upsertEncoded = (messages) =>
      unpackTexts(messages).some((json) => json.includes('"idComponenteAiuto":"1"'))
        ? reject()
        : upsertEncoded(messages);
  return refused;
}

describe('npm run replay-dead-letters', () => {
  it('indexes, on the data directory’s stores, an aid the index had set aside and now takes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'replay-'));
    try {
      const before = openStores({ dataDir: dir });
      try {
        await before.messageLog.publish(
          AIDS_TOPIC,
          [aid('1', '01234567897'), aid('2', '12345678903')].map((record) => ({
            key: record.codiceFiscaleBeneficiario,
            json: encodeAidRecorded(JSON.stringify(record)),
          })),
        );
        const consumer = startAidIndexProjection({
          messageLog: before.messageLog,
          aidIndex: refusingFirst(before.aidIndex),
          documents: before.documents,
        });
        await consumer.caughtUp();
        await consumer.stop();
        expect(await before.aidIndex.search({ taxCodes: ['01234567897'] })).toEqual([]);
        expect(await countDeadLetters(before.documents)).toBe(1);
      } finally {
        await before.close();
      }

      const script = path.resolve(__dirname, '../dist/replay-dead-letters.js');
      const { stdout } = await promisify(execFile)(process.execPath, [script], {
        env: { ...process.env, DATA_DIR: dir },
      });
      expect(stdout).toMatch(/riapplicati all'indice: 1; ancora rifiutati: 0/);

      const after = openStores({ dataDir: dir });
      try {
        expect(await after.aidIndex.search({ taxCodes: ['01234567897'] })).toEqual([aid('1', '01234567897')]);
        expect(await countDeadLetters(after.documents)).toBe(0);
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
