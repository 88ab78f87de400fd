/**
 * MongoDB document store: the contract suite runs against a real server when MONGODB_URI is set
 * (npm run test:engines); the query and update building is tested here in any case.
 */
import { DOCUMENT_INDEXES } from '@rna/domain/document-indexes';
import { describeDocumentStoreContract } from './contract';
import mongoose from 'mongoose';
import {
  fromStored,
  MongoDocumentStore,
  openMongoDocumentStore,
  replacementPipeline,
  toFilter,
  toSort,
  toStored,
} from './mongo-document-store';

const uri = process.env.MONGODB_URI;
if (uri) {
  jest.setTimeout(30_000);
  let run = 0;
  describeDocumentStoreContract('MongoDB', async () => {
    // Fresh storage per test: a database of its own, dropped afterwards.
    run += 1;
    const dbName = `rna_contract_${process.pid}_${Date.now()}_${run}`;
    return {
      open: async () => openMongoDocumentStore({ uri, dbName }),
      dispose: async () => {
        const cleaner = openMongoDocumentStore({ uri, dbName });
        await cleaner.dropDatabase();
        await cleaner.close();
      },
    };
  });
} else {
  describe('DocumentStore contract: MongoDB', () => {
    it.skip('SKIPPED: MONGODB_URI is not set (no MongoDB server here)', () => undefined);
  });
}

describe('MongoDB document mapping', () => {
  it('stores fields at top level with the id as _id, and reads them back', () => {
    const doc = { id: 'c1', email: 'a@b.it', remainingSearches: 3 };
    expect(toStored(doc)).toEqual({ email: 'a@b.it', remainingSearches: 3 });
    expect(fromStored({ _id: 'c1', _rev: 4, email: 'a@b.it', remainingSearches: 3 })).toEqual(doc);
  });

  it('turns a port filter into strict equality, skipping undefined and mapping id', () => {
    expect(toFilter({ remainingSearches: 5, email: undefined, id: 'x', logoId: null })).toEqual({
      remainingSearches: { $eq: 5 },
      _id: { $eq: 'x' },
      logoId: { $eq: null },
    });
    expect(() => toFilter({ $where: 'sleep(1000)' })).toThrow(/Invalid filter field/);
  });

  it('sorts by the field then by id in the same direction, by id by default', () => {
    expect(toSort({})).toEqual({ _id: 1 });
    expect(toSort({ sortBy: 'email', order: 'desc' })).toEqual({ email: -1, _id: -1 });
    expect(toSort({ sortBy: 'remainingSearches' })).toEqual({ remainingSearches: 1, _id: 1 });
  });

  it('replaces with literal values (a "$…" text stays text) and increments the revision', () => {
    expect(replacementPipeline({ id: 'c1', note: '$rev' } as { id: string })).toEqual([
      {
        $replaceWith: {
          $mergeObjects: [
            { $literal: { note: '$rev' } },
            { _id: 'c1', _rev: { $add: [{ $ifNull: ['$_rev', 0] }, 1] } },
          ],
        },
      },
    ]);
  });
});

describe('MongoDB indexes', () => {
  it('declares, at start, an index for every field the features find or sort by', async () => {
    // No server is needed to read the schema the store built its models with: an unopened connection.
    const store = new MongoDocumentStore(mongoose.createConnection(), DOCUMENT_INDEXES);
    try {
      for (const [collection, fields] of Object.entries(DOCUMENT_INDEXES))
        expect(store.indexedFields(collection).sort()).toEqual([...fields].sort());
      expect(store.indexedFields('refresh-tokens')).toEqual(expect.arrayContaining(['familyId', 'userId']));
      expect(store.indexedFields('undeclared')).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
