/**
 * GridFS blob store: the contract suite runs against a real MongoDB when MONGODB_URI is set
 * (npm run test:engines); no MongoDB server runs on the development machines.
 */
import { openMongoDocumentStore } from '../documents/mongo-document-store';
import { describeBlobStoreContract } from './contract';
import { GridFsBlobStore } from './gridfs-blob-store';

const uri = process.env.MONGODB_URI;
if (uri) {
  jest.setTimeout(30_000);
  let run = 0;
  describeBlobStoreContract('MongoDB GridFS', async () => {
    run += 1;
    const store = openMongoDocumentStore({ uri, dbName: `rna_blobs_${process.pid}_${Date.now()}_${run}` });
    return {
      open: async () => new GridFsBlobStore(store.connection),
      dispose: async () => {
        await store.dropDatabase();
        await store.close();
      },
    };
  });
} else {
  describe('BlobStore contract: MongoDB GridFS', () => {
    it.skip('SKIPPED: MONGODB_URI is not set (no MongoDB server here)', () => undefined);
  });
}
