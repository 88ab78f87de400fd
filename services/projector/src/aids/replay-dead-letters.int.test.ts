import { AIDS_TOPIC, encodeAidRecorded, orderedImportId, type AidMessage, type AidRecord } from '@rna/domain';
import { unpackTexts, type AidIndex } from '@rna/infra';
import { openTemporaryStores, type TemporaryStores } from '@rna/infra/embedded/testing';
import { countDeadLetters, RecordRejectedError } from '@rna/infra/dead-letters';
import { startAidIndexProjection } from './aid-index-projection';
import { replayDeadLetters } from './replay-dead-letters';

const first = orderedImportId(1, 'r1', '2024_01');
const second = orderedImportId(2, 'r2', '2024_01');

const aid = (id: string, taxCode: string, importId = first): AidRecord => ({
  idComponenteAiuto: id, cor: 'c', car: 'k', titoloMisura: '', desTipoMisura: '', soggettoConcedente: '', titoloProgetto: '',
  dataConcessione: '2024-01-10', cup: 'n.d.', denominazioneBeneficiario: '', codiceFiscaleBeneficiario: taxCode,
  desTipoBeneficiario: '', regioneBeneficiario: '', codProcedimento: '1', desProcedimento: 'De Minimis',
  codRegolamento: 'CE2831/23', desRegolamento: '', codObiettivo: '', desObiettivo: '', settoreAttivita: '',
  elementoDiAiutoCents: 100, importoNominaleCents: 100, sourceFile: '2024_01', importId,
}); // prettier-ignore

const recorded = (record: AidRecord) => ({
  key: record.codiceFiscaleBeneficiario,
  json: encodeAidRecorded(JSON.stringify(record)),
});
const marker = (importId: string, records: number) => ({
  key: 'file:2024_01',
  value: { type: 'SourceFileImported', sourceFile: '2024_01', importId, runId: 'r', records } as AidMessage,
});

/** The index as a store whose rules refuse one aid: the projector sets it aside. */
function refusing(index: AidIndex, id: string): AidIndex {
  const refused = Object.create(index) as AidIndex;
  const reject = () => Promise.reject(new RecordRejectedError(`aid ${id} refused`));
  refused.upsert = (aids) => (aids.some((a) => a.idComponenteAiuto === id) ? reject() : index.upsert(aids));
  const upsertEncoded = index.upsertEncoded?.bind(index);
  if (upsertEncoded)
    refused.upsertEncoded = (messages) =>
      unpackTexts(messages).some((json) => json.includes(`"idComponenteAiuto":"${id}"`))
        ? reject()
        : upsertEncoded(messages);
  return refused;
}

let stores: TemporaryStores;
beforeEach(() => {
  stores = openTemporaryStores('rna-replay-stores-');
});
afterEach(() => stores.dispose());

async function project(aidIndex: AidIndex): Promise<void> {
  const consumer = startAidIndexProjection({
    messageLog: stores.messageLog,
    aidIndex,
    documents: stores.documents,
  });
  try {
    await consumer.caughtUp();
  } finally {
    await consumer.stop();
  }
}

const ids = (letters: { position: string }[]) => letters.map((letter) => letter.position);

describe('replay of the aids set aside', () => {
  it('indexes an aid the index refused once the index takes it, and removes its dead letter', async () => {
    const { aidIndex, documents, messageLog } = stores;
    await messageLog.publish(AIDS_TOPIC, [
      recorded(aid('1', 'AAA')),
      recorded(aid('2', 'BBB')),
      marker(first, 2),
    ]);
    await project(refusing(aidIndex, '1'));
    expect(await aidIndex.search({ taxCodes: ['AAA'] })).toEqual([]);
    expect(await countDeadLetters(documents)).toBe(1);

    // the fault is gone (the store's rules or the code fixed)
    const summary = await replayDeadLetters({ messageLog, aidIndex, documents });
    expect(summary.replayed.map((letter) => letter.sourceFile)).toEqual(['2024_01']);
    expect(summary.stillFailing).toEqual([]);
    expect(await aidIndex.search({ taxCodes: ['AAA'] })).toEqual([aid('1', 'AAA')]);
    expect(await aidIndex.get('2')).toEqual(aid('2', 'BBB'));
    expect(await countDeadLetters(documents)).toBe(0);

    // nothing is left to replay
    const again = await replayDeadLetters({ messageLog, aidIndex, documents });
    expect([again.replayed, again.stillFailing, again.withoutMessage]).toEqual([[], [], []]);
  });

  it('keeps what still fails, with its error, for the next replay', async () => {
    const { aidIndex, documents, messageLog } = stores;
    await messageLog.publish(AIDS_TOPIC, [
      recorded(aid('1', 'AAA')),
      { key: 'CCC', json: '{"type":"AidRecorded","aid":{"idComponente' }, // cut short: never JSON
      recorded(aid('3', 'DDD')),
    ]);
    await project(refusing(aidIndex, '3'));
    expect(await countDeadLetters(documents)).toBe(2);

    const summary = await replayDeadLetters({ messageLog, aidIndex: refusing(aidIndex, '3'), documents });
    expect(summary.replayed).toEqual([]);
    expect(summary.stillFailing).toHaveLength(2);
    expect(summary.stillFailing.map((letter) => letter.error).sort()).toEqual([
      expect.stringMatching(/^RecordRejectedError: aid 3 refused/),
      expect.stringMatching(/^SyntaxError/),
    ]);
    expect(await countDeadLetters(documents)).toBe(2);

    // a later replay finds them again: the aid the index now takes is indexed, the broken text stays
    const later = await replayDeadLetters({ messageLog, aidIndex, documents });
    expect(later.replayed.map((letter) => letter.type)).toEqual(['AidRecorded']);
    expect(ids(later.stillFailing)).toEqual(
      ids(summary.stillFailing).filter((p) => !ids(later.replayed).includes(p)),
    );
    expect(later.withoutMessage).toEqual([]);
    expect(await aidIndex.get('3')).toEqual(aid('3', 'DDD'));
    expect(await countDeadLetters(documents)).toBe(1);
  });

  it('removes without applying it an aid of an import the index has since replaced whole', async () => {
    const { aidIndex, documents, messageLog } = stores;
    await messageLog.publish(AIDS_TOPIC, [
      recorded(aid('1', 'AAA')),
      recorded(aid('2', 'BBB')),
      marker(first, 2),
    ]);
    await project(refusing(aidIndex, '1'));
    // the file is imported again (aid 1 is no longer in it) and indexed whole
    await messageLog.publish(AIDS_TOPIC, [recorded(aid('2', 'BBB', second)), marker(second, 1)]);
    await project(aidIndex);

    const summary = await replayDeadLetters({ messageLog, aidIndex, documents });
    expect(summary.superseded).toHaveLength(1);
    expect(summary.replayed).toEqual([]);
    expect(await aidIndex.get('1')).toBeNull();
    expect(await countDeadLetters(documents)).toBe(0);
  });
});
