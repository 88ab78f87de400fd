import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AIDS_TOPIC, encodeAidRecorded, orderedImportId, type AidMessage, type AidRecord } from '@rna/domain';
import { unpackTexts, type ConsumedMessage } from '@rna/infra';
import { openSqliteAidIndex } from '@rna/infra/aid-index';
import { openTemporaryStores, type TemporaryStores } from '@rna/infra/embedded/testing';
import { DEAD_LETTERS_COLLECTION, deadLetterTopic, type DeadLetterDoc } from '@rna/infra/dead-letters';
import {
  INDEXED_IMPORTS_COLLECTION,
  INDEXING_GAPS_COLLECTION,
  type IndexedImportDoc,
  type IndexingGapDoc,
  AID_CHANGE_BUCKETS_COLLECTION,
  AID_CHANGE_LOG_COLLECTION,
  aidChangeBucket,
  latestAidChanges,
} from '@rna/read-models';
import {
  applyAidMessages,
  planIndexWrites,
  recordIndexingGap,
  resetIndexingProgress,
  startAidIndexProjection,
} from './aid-index-projection';

const aid = (id: string, taxCode: string, importId: string, cents = 100): AidRecord => ({
  idComponenteAiuto: id, cor: 'c', car: 'k', titoloMisura: '', desTipoMisura: '', soggettoConcedente: '', titoloProgetto: '',
  dataConcessione: '2024-01-10', cup: 'n.d.', denominazioneBeneficiario: '', codiceFiscaleBeneficiario: taxCode,
  desTipoBeneficiario: '', regioneBeneficiario: '', codProcedimento: '1', desProcedimento: 'De Minimis',
  codRegolamento: 'CE2831/23', desRegolamento: '', codObiettivo: '', desObiettivo: '', settoreAttivita: '',
  elementoDiAiutoCents: cents, importoNominaleCents: cents, sourceFile: '2024_01', importId,
}); // prettier-ignore

/** The changes the projection noted: tax code → when it last changed. */
const notedChanges = async (documents: TemporaryStores['documents']) =>
  Object.fromEntries(await latestAidChanges(documents, { upTo: Infinity }));

let offset = 0;
const messages = (...values: AidMessage[]): ConsumedMessage[] =>
  values.map((value) => ({
    topic: 'aids',
    partition: 0,
    offset: String(offset++),
    key: 'k',
    value,
    timestamp: '',
  }));

/** As the SQLite message log hands them over: the stored text beside the value. */
const stored = (...values: AidMessage[]): ConsumedMessage[] =>
  messages(...values).map((message) => {
    const value = message.value as AidMessage;
    const json =
      value.type === 'AidRecorded' ? encodeAidRecorded(JSON.stringify(value.aid)) : JSON.stringify(value);
    return { ...message, json };
  });

let stores: TemporaryStores;
beforeEach(() => {
  stores = openTemporaryStores('rna-projection-stores-');
});
afterEach(() => stores.dispose());

describe('aid index projection', () => {
  it('withdraws what a re-import did not record again and notes every touched tax code', async () => {
    const { aidIndex, documents } = stores;
    const deps = { aidIndex, documents, now: () => 1234 };
    await applyAidMessages(
      messages(
        { type: 'AidRecorded', aid: aid('1', 'AAA', 'i1') },
        { type: 'AidRecorded', aid: aid('2', 'BBB', 'i1') },
        { type: 'SourceFileImported', sourceFile: '2024_01', importId: 'i1', runId: 'r', records: 2 },
      ),
      deps,
    );
    await documents.collection(AID_CHANGE_LOG_COLLECTION).clear();
    // Second import: aid 2 disappeared, aid 1 unchanged, aid 3 new.
    const second = messages(
      { type: 'AidRecorded', aid: aid('1', 'AAA', 'i2') },
      { type: 'AidRecorded', aid: aid('3', 'CCC', 'i2') },
      { type: 'SourceFileImported', sourceFile: '2024_01', importId: 'i2', runId: 'r', records: 2 },
    );
    await applyAidMessages(second, deps);
    await applyAidMessages(second, deps); // redelivery changes nothing
    const indexed = await aidIndex.search({ taxCodes: ['AAA', 'BBB', 'CCC'] });
    expect(indexed.map((a) => a.idComponenteAiuto).sort()).toEqual(['1', '3']);
    expect(await notedChanges(documents)).toEqual({ BBB: 1234, CCC: 1234 });
  });
});

describe('imports applied in any order', () => {
  const older = orderedImportId(11, 'r1', '2024_01');
  const newer = orderedImportId(12, 'r1', '2024_01');
  const marker = (importId: string, records: number): AidMessage => ({
    type: 'SourceFileImported',
    sourceFile: '2024_01',
    importId,
    runId: 'r1',
    records,
  });
  const recorded = (id: string, importId: string, cents: number): AidMessage => ({
    type: 'AidRecorded',
    aid: aid(id, `T${id}`, importId, cents),
  });
  const indexedCents = async () =>
    (await stores.aidIndex.search({ taxCodes: ['T1', 'T2', 'T3'] }))
      .map((a) => [a.idComponenteAiuto, a.elementoDiAiutoCents] as const)
      .sort();

  it('an importer paused past its lease and resumed: its late aids and marker leave the new import whole', async () => {
    const deps = { aidIndex: stores.aidIndex, documents: stores.documents, now: () => 1 };
    // the first importer had sent aid 1 when it froze; the new holder imported the whole file
    await applyAidMessages(messages(recorded('1', older, 100)), deps);
    await applyAidMessages(
      messages(
        recorded('1', newer, 200),
        recorded('2', newer, 200),
        recorded('3', newer, 200),
        marker(newer, 3),
      ),
      deps,
    );
    // it wakes up and sends the rest of its file and its marker
    await applyAidMessages(
      messages(recorded('2', older, 100), recorded('3', older, 100), marker(older, 3)),
      deps,
    );
    expect(await indexedCents()).toEqual([
      ['1', 200],
      ['2', 200],
      ['3', 200],
    ]);
  });

  it('a withdrawal of the file applied after a later re-import leaves the re-import', async () => {
    const deps = { aidIndex: stores.aidIndex, documents: stores.documents, now: () => 1 };
    const withdrawal = orderedImportId(11, 'r1', '2024_01'); // the register dropped the file…
    // …and listed it again in the next run, whose import arrived first (another partition)
    await applyAidMessages(messages(recorded('1', newer, 300), marker(newer, 1)), deps);
    await applyAidMessages(
      messages({ type: 'SourceFileWithdrawn', sourceFile: '2024_01', runId: 'r0', importId: withdrawal }),
      deps,
    );
    expect(await indexedCents()).toEqual([['1', 300]]);
    // a withdrawal without an order (published before imports were ordered) removes the file whole
    await applyAidMessages(
      messages({ type: 'SourceFileWithdrawn', sourceFile: '2024_01', runId: 'r0' }),
      deps,
    );
    expect(await indexedCents()).toEqual([]);
  });
});

describe('indexing progress', () => {
  it('notes an import as applied only once its marker is, after every aid of it', async () => {
    const { aidIndex, documents } = stores;
    const deps = { aidIndex, documents, now: () => 99 };
    const imports = documents.collection<IndexedImportDoc>(INDEXED_IMPORTS_COLLECTION);
    await applyAidMessages(messages({ type: 'AidRecorded', aid: aid('1', 'AAA', 'i1') }), deps);
    expect(await imports.get('i1')).toBeNull();
    const marker = messages(
      { type: 'AidRecorded', aid: aid('2', 'BBB', 'i1') },
      { type: 'SourceFileImported', sourceFile: '2024_01', importId: 'i1', runId: 'r7', records: 2 },
    );
    await applyAidMessages(marker, deps);
    await applyAidMessages(marker, deps); // redelivered: still one import
    expect(await imports.find()).toEqual([
      { id: 'i1', sourceFile: '2024_01', runId: 'r7', records: 2, indexedAt: 99 },
    ]);
  });

  it('notes an import as applied only once every change before its marker and its own are logged', async () => {
    const { aidIndex, documents } = stores;
    const events: string[] = [];
    // the marker's withdrawal, once the index has made it
    let withdrawn!: () => void;
    const markerWithdrawn = new Promise<void>((resolve) => (withdrawn = resolve));
    const index = Object.create(aidIndex) as typeof aidIndex;
    index.withdrawBySourceFile = async (...args) => {
      const result = await aidIndex.withdrawBySourceFile(...args);
      withdrawn();
      return result;
    };
    // a store on the network (MongoDB): a note lands after the marker's withdrawal, a turn later
    const slow = Object.create(documents) as typeof documents;
    slow.collection = <T extends { id: string }>(name: string) => {
      const collection = documents.collection<T>(name);
      const spy = Object.create(collection) as typeof collection;
      if (name === AID_CHANGE_LOG_COLLECTION)
        spy.putMany = async (docs) => {
          await markerWithdrawn;
          await new Promise((resolve) => setImmediate(resolve));
          await collection.putMany(docs);
          for (const doc of docs as unknown as { taxCodes: string }[]) events.push(`logged ${doc.taxCodes}`);
        };
      if (name === INDEXED_IMPORTS_COLLECTION)
        spy.put = async (doc, options) => {
          const revision = await collection.put(doc, options);
          events.push(`indexed ${doc.id}`);
          return revision;
        };
      return spy;
    };
    await applyAidMessages(messages({ type: 'AidRecorded', aid: aid('1', 'AAA', 'i0') }), {
      aidIndex,
      documents,
    });
    // the re-import leaves aid 1 out (its marker withdraws it) and brings aid 2
    await applyAidMessages(
      messages(
        { type: 'AidRecorded', aid: aid('2', 'BBB', 'i1') },
        { type: 'SourceFileImported', sourceFile: '2024_01', importId: 'i1', runId: 'r7', records: 1 },
      ),
      { aidIndex: index, documents: slow },
    );
    // the variation alerts are checked once the marker is there: every change must be in the log by then
    expect(events).toEqual(['logged BBB', 'logged AAA', 'indexed i1']);
  });

  it('records the messages lost before the index saw them, once per gap, until a rebuild', async () => {
    const { documents } = stores;
    const told: IndexingGapDoc[] = [];
    const deps = { documents, now: () => 5, onGap: (gap: IndexingGapDoc) => told.push(gap) };
    const gap = { topic: 'aids', partition: 0, fromOffset: '1000', toOffset: '22868', missing: 21_868 };
    await recordIndexingGap(gap, deps);
    await recordIndexingGap(gap, deps); // met again after a restart before the next commit
    const gaps = documents.collection<IndexingGapDoc>(INDEXING_GAPS_COLLECTION);
    expect(await gaps.find()).toEqual([{ id: 'aids/0/1000', ...gap, detectedAt: 5 }]);
    expect(told).toHaveLength(2);
    await resetIndexingProgress(documents);
    expect(await gaps.count()).toBe(0);
  });
});

describe('aid index projection on an index that stores JSON', () => {
  it('indexes the published aids as they are, withdraws what a re-import left out and notes their files', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-projection-'));
    const aidIndex = openSqliteAidIndex(path.join(dir, 'aids.db'));
    const { documents } = stores;
    const deps = { aidIndex, documents, now: () => 1234 };
    try {
      await applyAidMessages(
        stored(
          { type: 'AidRecorded', aid: aid('1', 'AAA', 'i1') },
          { type: 'AidRecorded', aid: aid('2', 'BBB', 'i1') },
          { type: 'SourceFileImported', sourceFile: '2024_01', importId: 'i1', runId: 'r', records: 2 },
        ),
        deps,
      );
      expect(await notedChanges(documents)).toEqual({ AAA: 1234, BBB: 1234 });
      await documents.collection(AID_CHANGE_LOG_COLLECTION).clear();
      // Second import: aid 2 disappeared, aid 1 unchanged, aid 3 new; one message without its text
      // (another adapter) in between must keep its place in the order.
      const [first, , marker] = stored(
        { type: 'AidRecorded', aid: aid('1', 'AAA', 'i2') },
        { type: 'AidRecorded', aid: aid('3', 'CCC', 'i2') },
        { type: 'SourceFileImported', sourceFile: '2024_01', importId: 'i2', runId: 'r', records: 3 },
      );
      const decodedOnly = messages(
        { type: 'AidRecorded', aid: aid('3', 'CCC', 'i2', 200) },
        { type: 'AidRecorded', aid: aid('3', 'CCC', 'i2', 100) },
      );
      const second = [
        first!,
        ...decodedOnly,
        ...stored({ type: 'AidRecorded', aid: aid('3', 'CCC', 'i2', 300) }),
        marker!,
      ];
      await applyAidMessages(second, deps);
      expect((await aidIndex.get('3'))?.importoNominaleCents).toBe(300);
      expect(await aidIndex.get('2')).toBeNull();
      expect(await aidIndex.get('1')).toEqual(aid('1', 'AAA', 'i2'));
      expect(await notedChanges(documents)).toEqual({ BBB: 1234, CCC: 1234 });
    } finally {
      await aidIndex.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('aid index projection handing encoded writes to the embedded index', () => {
  it('hands the next write over before the one under way has ended, never more than two, a marker after both', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-projection-overlap-'));
    const aidIndex = openSqliteAidIndex(path.join(dir, 'aids.db'));
    const events: string[] = [];
    let inFlight = 0;
    let most = 0;
    const index = Object.create(aidIndex) as typeof aidIndex;
    index.upsertEncoded = async (messages) => {
      const first = (JSON.parse(unpackTexts(messages)[0]!) as { aid: AidRecord }).aid
        .codiceFiscaleBeneficiario;
      events.push(`write ${first}`);
      most = Math.max(most, ++inFlight);
      try {
        return await aidIndex.upsertEncoded!(messages);
      } finally {
        inFlight -= 1;
        events.push(`written ${first}`);
      }
    };
    index.withdrawBySourceFile = async (sourceFile, importId) => {
      events.push(`withdraw ${sourceFile}`);
      return aidIndex.withdrawBySourceFile(sourceFile, importId);
    };
    try {
      // four writes of a thousand; the same aid's later copy in the last one; then the file's marker
      const recorded = Array.from({ length: 3999 }, (_, i) => ({
        type: 'AidRecorded' as const,
        aid: aid(`${1000 + i}`, `T${i}`, 'i1'),
      }));
      const batch = stored(
        ...recorded,
        { type: 'AidRecorded', aid: aid('1005', 'T5', 'i1', 700) },
        { type: 'SourceFileImported', sourceFile: '2024_01', importId: 'i1', runId: 'r', records: 3999 },
      );
      await applyAidMessages(batch, { aidIndex: index, documents: stores.documents, now: () => 1 });

      const at = (event: string) => events.indexOf(event);
      // the second write was handed over while the first was under way
      expect(at('write T1000')).toBeLessThan(at('written T0'));
      expect(most).toBe(2);
      for (const first of ['T0', 'T1000', 'T2000', 'T3000']) {
        expect(at(`write ${first}`)).toBeGreaterThanOrEqual(0);
        expect(at(`written ${first}`)).toBeLessThan(at('withdraw 2024_01'));
      }
      expect((await aidIndex.get('1005'))?.importoNominaleCents).toBe(700);
      expect(await aidIndex.count()).toBe(3999);
      expect(Object.keys(await notedChanges(stores.documents))).toHaveLength(3999);
    } finally {
      await aidIndex.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('aid index projection and poison messages', () => {
  it('sets aside a message it can never index, publishes it on the dead-letter topic, and indexes the rest', async () => {
    const { aidIndex, documents, messageLog } = stores;
    const letters: DeadLetterDoc[] = [];
    await messageLog.publish(AIDS_TOPIC, [
      { key: 'AAA', json: encodeAidRecorded(JSON.stringify(aid('1', 'AAA', 'i1'))) },
      // the register's defects reach the topic: an aid without its fields, a record cut short
      {
        key: 'BBB',
        json: '{"type":"AidRecorded","aid":{"idComponenteAiuto":"2","sourceFile":"2024_01","importId":"i1"}}',
      },
      { key: 'CCC', json: '{"type":"AidRecorded","aid":{"idComponente' },
      { key: 'DDD', json: encodeAidRecorded(JSON.stringify(aid('4', 'DDD', 'i1'))) },
    ]);
    const consumer = startAidIndexProjection({
      messageLog,
      aidIndex,
      documents,
      onDeadLetter: (letter) => letters.push(letter),
    });
    try {
      await consumer.caughtUp();
    } finally {
      await consumer.stop();
    }
    const indexed = await aidIndex.search({ taxCodes: ['AAA', 'BBB', 'CCC', 'DDD'] });
    expect(indexed.map((a) => a.idComponenteAiuto).sort()).toEqual(['1', '4']);
    const recorded = await documents.collection<DeadLetterDoc>(DEAD_LETTERS_COLLECTION).find();
    expect(recorded.map((letter) => letter.position).sort()).toEqual(letters.map((l) => l.position).sort());
    expect(recorded).toHaveLength(2);
    expect(recorded.every((letter) => letter.attempts === 3 && letter.error.length > 0)).toBe(true);
    // the next sync imports the file of an aid set aside again; a text that is not JSON has no file
    const origins = recorded.map(({ type, sourceFile, importId }) => ({ type, sourceFile, importId }));
    expect(origins).toEqual(
      expect.arrayContaining([
        { type: 'AidRecorded', sourceFile: '2024_01', importId: 'i1' },
        { type: 'unreadable', sourceFile: undefined, importId: undefined },
      ]),
    );

    const setAside: string[] = [];
    const reader = messageLog.consume({
      topic: deadLetterTopic(AIDS_TOPIC),
      groupId: 'test-reader',
      handler: async (batch) => {
        for (const message of batch) setAside.push((message.value as { key: string }).key);
      },
    });
    try {
      await reader.caughtUp();
    } finally {
      await reader.stop();
    }
    expect(setAside.sort()).toEqual(['BBB', 'CCC']);
  });

  it('sets aside an aid the index refuses in a sync-sized batch (written by the index’s writer thread) and indexes the rest', async () => {
    const { aidIndex, documents, messageLog } = stores;
    const letters: DeadLetterDoc[] = [];
    const refused = { ...aid('700', 'EEE', 'i1'), dataConcessione: '10/01/2024' }; // not an ISO date
    await messageLog.publish(
      AIDS_TOPIC,
      Array.from({ length: 1_500 }, (_, i) => {
        const value = i === 700 ? refused : aid(String(i), `T${i % 50}`, 'i1');
        return { key: value.codiceFiscaleBeneficiario, json: encodeAidRecorded(JSON.stringify(value)) };
      }),
    );
    const consumer = startAidIndexProjection({
      messageLog,
      aidIndex,
      documents,
      batchSize: 1_500,
      onDeadLetter: (letter) => letters.push(letter),
    });
    try {
      await consumer.caughtUp();
    } finally {
      await consumer.stop();
    }
    expect(await aidIndex.count()).toBe(1_499);
    expect(await aidIndex.get('700')).toBeNull();
    expect(letters).toHaveLength(1);
    expect(letters[0]).toMatchObject({ type: 'AidRecorded', sourceFile: '2024_01', attempts: 3 });
    expect(letters[0]!.error).toContain('dataConcessione');
  });

  it('waits out an index that fails for a while (a rolling restart) and sets nothing aside', async () => {
    const { aidIndex, documents, messageLog } = stores;
    // more than a poison message's attempts as a batch and then alone (3 + 3): the old rule set it aside
    let failures = 7;
    const flaky: typeof aidIndex = Object.create(aidIndex) as typeof aidIndex;
    const failFirst =
      <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      (...args: A): Promise<R> => {
        if (failures > 0) {
          failures -= 1;
          return Promise.reject(new Error('Elasticsearch kept rejecting 2 aids (first: 1)'));
        }
        return call(...args);
      };
    flaky.upsert = failFirst(aidIndex.upsert.bind(aidIndex));
    if (aidIndex.upsertEncoded) flaky.upsertEncoded = failFirst(aidIndex.upsertEncoded.bind(aidIndex));
    await messageLog.publish(AIDS_TOPIC, [
      { key: 'AAA', json: encodeAidRecorded(JSON.stringify(aid('1', 'AAA', 'i1'))) },
      { key: 'BBB', json: encodeAidRecorded(JSON.stringify(aid('2', 'BBB', 'i1'))) },
    ]);
    const consumer = startAidIndexProjection({ messageLog, aidIndex: flaky, documents });
    try {
      await consumer.caughtUp();
    } finally {
      await consumer.stop();
    }
    expect(failures).toBe(0);
    const indexed = await aidIndex.search({ taxCodes: ['AAA', 'BBB'] });
    expect(indexed.map((a) => a.idComponenteAiuto).sort()).toEqual(['1', '2']);
    expect(await documents.collection(DEAD_LETTERS_COLLECTION).count()).toBe(0);
  }, 30_000); // the consumer's back-off: 0.1 s doubling to 5 s, seven times
});

describe('a batch bigger than one index write', () => {
  const recorded = (count: number, taxCode: (i: number) => string, file = '2024_01'): AidMessage[] =>
    Array.from({ length: count }, (_, i) => ({
      type: 'AidRecorded' as const,
      aid: { ...aid(`${1000 + i}`, taxCode(i), 'i1'), sourceFile: file },
    }));
  /** The cache buckets of the codes T0 … T(count - 1), sorted. */
  const bucketsOfFirst = (count: number) =>
    [...new Set(Array.from({ length: count }, (_, i) => aidChangeBucket(`T${i}`)))].sort();
  /** `documents` whose `collection` (the change log unless told) refuses its first `failures` notes. */
  const withFailingNotes = (
    documents: TemporaryStores['documents'],
    { collection: failingName = AID_CHANGE_LOG_COLLECTION, failures = Infinity } = {},
  ) => {
    let left = failures;
    const failing = Object.create(documents) as typeof documents;
    failing.collection = <T extends { id: string }>(name: string) => {
      const collection = documents.collection<T>(name);
      if (name !== failingName) return collection;
      const spy = Object.create(collection) as typeof collection;
      spy.putMany = (docs) => {
        if (left <= 0) return collection.putMany(docs);
        left -= 1;
        return Promise.reject(new Error('documents unavailable'));
      };
      return spy;
    };
    return failing;
  };
  /** The aids as the sync publishes them, on the store's log. */
  const publish = (values: AidMessage[]) =>
    stores.messageLog.publish(
      AIDS_TOPIC,
      values.map((value) => ({
        key: 'k',
        json:
          value.type === 'AidRecorded' ? encodeAidRecorded(JSON.stringify(value.aid)) : JSON.stringify(value),
      })),
    );

  it('is cut in writes of at least a thousand aids, in order, a marker a write of its own', () => {
    const batch = messages(
      ...recorded(5000, (i) => `T${i}`),
      { type: 'SourceFileImported', sourceFile: '2024_01', importId: 'i1', runId: 'r', records: 5000 },
      ...recorded(2500, (i) => `U${i}`),
      {
        type: 'AidWithdrawn',
        idComponenteAiuto: '1001',
        codiceFiscaleBeneficiario: 'T1',
        sourceFile: '2024_01',
      },
      ...recorded(999, (i) => `V${i}`),
      {
        type: 'AidWithdrawn',
        idComponenteAiuto: '1002',
        codiceFiscaleBeneficiario: 'T2',
        sourceFile: '2024_01',
      },
      ...recorded(3001, (i) => `W${i}`),
    );
    const writes = planIndexWrites(batch, false);
    const sizes = writes.map((write) =>
      write.kind === 'records' ? write.aids.length : write.kind === 'encoded' ? -1 : write.value.type,
    );
    expect(sizes).toEqual([
      1000,
      1000,
      1000,
      1000,
      1000,
      'SourceFileImported',
      1250,
      1250,
      'AidWithdrawn',
      999,
      'AidWithdrawn',
      1001,
      1000,
      1000,
    ]);
    const ids = writes.flatMap((write) =>
      write.kind === 'records' ? write.aids.map((a) => a.codiceFiscaleBeneficiario) : [],
    );
    expect(ids).toEqual([
      ...Array.from({ length: 5000 }, (_, i) => `T${i}`),
      ...Array.from({ length: 2500 }, (_, i) => `U${i}`),
      ...Array.from({ length: 999 }, (_, i) => `V${i}`),
      ...Array.from({ length: 3001 }, (_, i) => `W${i}`),
    ]);
  });

  it("notes one write's tax codes while the next write is under way, the index taking one write at a time", async () => {
    const { aidIndex, documents } = stores;
    const events: string[] = [];
    let writing = 0;
    const index = Object.create(aidIndex) as typeof aidIndex;
    index.upsert = async (records) => {
      writing += 1;
      if (writing > 1) events.push('two writes at once');
      const first = records[0]!.codiceFiscaleBeneficiario;
      events.push(`write ${first}`);
      try {
        return await aidIndex.upsert(records); // on the index's writer thread: settles later
      } finally {
        events.push(`written ${first}`);
        writing -= 1;
      }
    };
    const noted = Object.create(documents) as typeof documents;
    noted.collection = <T extends { id: string }>(name: string) => {
      const collection = documents.collection<T>(name);
      const spy = Object.create(collection) as typeof collection;
      if (name === AID_CHANGE_LOG_COLLECTION)
        spy.putMany = async (docs) => {
          events.push(`note ${(docs[0] as unknown as { taxCodes: string }).taxCodes.split(' ')[0]}`);
          await collection.putMany(docs);
        };
      else if (name === AID_CHANGE_BUCKETS_COLLECTION)
        spy.putMany = async (docs) => {
          events.push(`raise ${docs.length} buckets`);
          await collection.putMany(docs);
        };
      return spy;
    };
    // three writes of a thousand: T0…T999, T1000…, T2000…; the same aid's later copy in the last
    const batch = messages(...recorded(2999, (i) => `T${i}`), {
      type: 'AidRecorded',
      aid: { ...aid('1005', 'T5', 'i1', 700), sourceFile: '2024_02' },
    });
    await applyAidMessages(batch, { aidIndex: index, documents: noted, now: () => 1 });

    expect(events).toEqual([
      'write T0',
      'written T0',
      'write T1000',
      'note T0',
      'written T1000',
      'write T2000',
      'note T1000',
      'written T2000',
      'note T2000',
      // once for the batch, after its last write: each bucket of the three writes' codes
      `raise ${bucketsOfFirst(2999).length} buckets`,
    ]);
    expect((await aidIndex.get('1005'))?.importoNominaleCents).toBe(700);
    const changes = await notedChanges(documents);
    expect(Object.keys(changes)).toHaveLength(2999);
    expect(changes).toMatchObject({ T0: 1, T5: 1, T2998: 1 });
    // the writes raised the buckets of their codes (what the API's cache reads), those only
    const buckets = new Set(Object.keys(changes).map(aidChangeBucket));
    const raised = await documents.collection(AID_CHANGE_BUCKETS_COLLECTION).find();
    expect(raised.map((bucket) => bucket.id).sort()).toEqual([...buckets].sort());
  });

  it('raises the buckets of a write still under way when the note before it fails', async () => {
    const { aidIndex, documents } = stores;
    const failingLog = withFailingNotes(documents);
    // two writes: the first one's note fails while the second is on the index's writer thread
    const batch = messages(...recorded(2000, (i) => `T${i}`));
    await expect(applyAidMessages(batch, { aidIndex, documents: failingLog })).rejects.toThrow(
      'documents unavailable',
    );
    expect(await aidIndex.get('1999')).not.toBeNull();
    const raised = await documents.collection(AID_CHANGE_BUCKETS_COLLECTION).find();
    expect(raised.map((bucket) => bucket.id).sort()).toEqual(bucketsOfFirst(2000));
  });

  it('stops at a failed write: the batch fails with its error, the writes after it are not made', async () => {
    const { aidIndex, documents } = stores;
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const index = Object.create(aidIndex) as typeof aidIndex;
    const firsts: string[] = [];
    index.upsert = async (records) => {
      const first = records[0]!.codiceFiscaleBeneficiario;
      firsts.push(first);
      if (first === 'T1000') throw new Error('index unavailable');
      return aidIndex.upsert(records);
    };
    // the notes of the first write fail as well, while the second write is under way
    const failing = withFailingNotes(documents);
    try {
      const batch = messages(...recorded(3000, (i) => `T${i}`));
      await expect(applyAidMessages(batch, { aidIndex: index, documents: failing })).rejects.toThrow(
        'documents unavailable',
      );
      // the first write's buckets are raised all the same: its retry below changes nothing, notes nothing
      const raisedAfterFailure = await documents.collection(AID_CHANGE_BUCKETS_COLLECTION).find();
      expect(raisedAfterFailure.map((bucket) => bucket.id).sort()).toEqual(bucketsOfFirst(1000));
      // retried with the notes back: the first write changes nothing now, the second fails again
      await expect(applyAidMessages(batch, { aidIndex: index, documents })).rejects.toThrow(
        'index unavailable',
      );
      expect(firsts).toEqual(['T0', 'T1000', 'T0', 'T1000']);
      // Node reports a rejection nobody handled once the microtasks of the turn have run
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      expect(await aidIndex.get('1999')).not.toBeNull();
      expect(await aidIndex.get('2000')).toBeNull();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
  it.each([
    ['change log', AID_CHANGE_LOG_COLLECTION],
    ['cache buckets', AID_CHANGE_BUCKETS_COLLECTION],
  ])(
    'notes on its retry the codes of writes whose %s note failed, though the retry changes nothing',
    async (_, collection) => {
      const { aidIndex, documents } = stores;
      // one batch, three writes: the first note fails, the batch is retried by the consumer
      await publish(recorded(3000, (i) => `T${i}`));
      const consumer = startAidIndexProjection({
        messageLog: stores.messageLog,
        aidIndex,
        documents: withFailingNotes(documents, { collection, failures: 1 }),
      });
      try {
        await consumer.caughtUp();
      } finally {
        await consumer.stop();
      }
      expect(await aidIndex.get('3999')).not.toBeNull();
      // what a variation alert reads: every changed code, whichever note failed
      expect(Object.keys(await notedChanges(documents)).sort()).toEqual(
        Array.from({ length: 3000 }, (_, i) => `T${i}`).sort(),
      );
      // what the API's cache reads: every bucket of those codes raised
      const raised = await documents.collection(AID_CHANGE_BUCKETS_COLLECTION).find();
      expect(raised.map((bucket) => bucket.id).sort()).toEqual(bucketsOfFirst(3000));
    },
    30_000, // the consumer's back-off before the retry
  );
});
