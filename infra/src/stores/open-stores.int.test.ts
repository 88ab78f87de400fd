import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { SqliteAidIndex } from '../aid-index/sqlite-aid-index';
import { ElasticsearchAidIndex } from '../aid-index/elasticsearch-aid-index';
import { GridFsBlobStore } from '../blobs/gridfs-blob-store';
import { MongoDocumentStore } from '../documents/mongo-document-store';
import { SqliteDocumentStore } from '../documents/sqlite-document-store';
import { EventStoreDbEventStore } from '../event-store/eventstoredb-event-store';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { KafkaMessageLog } from '../message-log/kafka-message-log';
import { SqliteMessageLog } from '../message-log/sqlite-message-log';
import { blobStoreBeside, enginesFromEnv, openStores } from './open-stores';

describe('openStores: engine per port', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-engines-'))));
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('reads the four engine variables, blank meaning absent', () => {
    expect(
      enginesFromEnv({
        EVENTSTORE_URL: ' ',
        KAFKA_BROKERS: 'k1:9092, k2:9092,',
        ELASTICSEARCH_URL: 'http://es:9200',
      }),
    ).toEqual({
      eventStoreUrl: null,
      kafkaBrokers: ['k1:9092', 'k2:9092'],
      elasticsearchUrl: 'http://es:9200',
      mongodbUri: null,
    });
  });

  it('without engines every port is embedded, and data written is there after reopening', async () => {
    const stores = openStores({ dataDir, engines: enginesFromEnv({}) });
    expect(stores.engines).toEqual({
      eventStore: 'embedded',
      messageLog: 'embedded',
      aidIndex: 'embedded',
      documents: 'embedded',
    });
    expect(stores.eventStore).toBeInstanceOf(SqliteEventStore);
    await stores.eventStore.appendToStream('s', [{ type: 'A', data: {} }]);
    await stores.close();
    const again = openStores({ dataDir });
    expect((await again.eventStore.readStream('s')).currentVersion).toBe(0);
    await again.close();
  });

  it('puts each configured port on its engine and leaves the others embedded', async () => {
    const stores = openStores({
      dataDir,
      engines: {
        eventStoreUrl: 'esdb://localhost:2113?tls=false',
        elasticsearchUrl: 'http://localhost:9200',
      },
    });
    expect(stores.engines).toEqual({
      eventStore: 'eventstoredb',
      messageLog: 'embedded',
      aidIndex: 'elasticsearch',
      documents: 'embedded',
    });
    expect(stores.eventStore).toBeInstanceOf(EventStoreDbEventStore);
    expect(stores.aidIndex).toBeInstanceOf(ElasticsearchAidIndex);
    expect(stores.messageLog).toBeInstanceOf(SqliteMessageLog);
    expect(stores.documents).toBeInstanceOf(SqliteDocumentStore);
    await stores.close();

    const kafka = openStores({ dataDir, engines: { kafkaBrokers: ['localhost:9092'] } });
    expect(kafka.messageLog).toBeInstanceOf(KafkaMessageLog);
    expect(kafka.aidIndex).toBeInstanceOf(SqliteAidIndex);
    await kafka.close();
  });

  it('on MongoDB, logos go to GridFS over the document store connection', async () => {
    const documents = new MongoDocumentStore(mongoose.createConnection(), {});
    const blobs = blobStoreBeside(documents, path.join(dataDir, 'blobs'));
    expect(blobs).toBeInstanceOf(GridFsBlobStore);
    expect((blobs as unknown as { connection: unknown }).connection).toBe(documents.connection);
    const embedded = openStores({ dataDir });
    try {
      expect(blobStoreBeside(embedded.documents, path.join(dataDir, 'blobs'))).not.toBeInstanceOf(
        GridFsBlobStore,
      );
    } finally {
      await embedded.close();
    }
  });
});
