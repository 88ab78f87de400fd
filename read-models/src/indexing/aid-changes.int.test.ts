import { openTemporaryStores, type TemporaryStores } from '@rna/infra/embedded/testing';
import {
  AID_CHANGE_LOG_COLLECTION,
  CODES_PER_LOG_DOC,
  latestAidChanges,
  noteAidChanges,
  trimAidChanges,
} from './aid-changes';

describe('the changes noted for the alerts', () => {
  let stores: TemporaryStores;
  beforeEach(() => {
    stores = openTemporaryStores('rna-aid-changes-');
  });
  afterEach(() => stores.dispose());

  const code = (n: number) => String(n).padStart(11, '0');

  it('are read whole, past many pages, up to the instant asked and no further', async () => {
    const { documents } = stores;
    // 60 writes of 100 codes at 1,000 … 1,059; each code written twice, 30 writes apart
    for (let write = 0; write < 60; write++)
      await noteAidChanges(
        documents,
        Array.from({ length: 100 }, (_, i) => code((write % 30) * 100 + i)),
        1_000 + write,
      );
    const all = await latestAidChanges(documents, { upTo: Infinity });
    expect(all.size).toBe(3_000);
    expect(all.get(code(0))).toBe(1_030);
    expect(all.get(code(2_999))).toBe(1_059);
    const early = await latestAidChanges(documents, { upTo: 1_029, among: new Set([code(0), code(2_999)]) });
    expect([...early]).toEqual([
      [code(0), 1_000],
      [code(2_999), 1_029],
    ]);
  });

  it('cut a write of many codes in documents of at most CODES_PER_LOG_DOC, and trim what is past', async () => {
    const { documents } = stores;
    const many = Array.from({ length: CODES_PER_LOG_DOC * 2 + 1 }, (_, i) => code(i));
    await noteAidChanges(documents, many, 5);
    await noteAidChanges(documents, [code(1)], 9);
    const log = documents.collection(AID_CHANGE_LOG_COLLECTION);
    expect(await log.count()).toBe(4);
    expect((await latestAidChanges(documents, { upTo: Infinity })).size).toBe(many.length);
    expect(await trimAidChanges(documents, 5)).toBe(3);
    expect([...(await latestAidChanges(documents, { upTo: Infinity }))]).toEqual([[code(1), 9]]);
  });
});
