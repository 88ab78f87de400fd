/**
 * Engine selection per port: each engine URL present in the configuration puts that port on its
 * distributed engine; every port without one stays on the embedded store under dataDir. Feature code
 * only sees the ports, so the mix is invisible to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AidIndex } from '../aid-index/port';
import type { BlobStore } from '../blobs/port';
import type { DocumentStore } from '../documents/port';
import { openSqliteAidIndex } from '../aid-index/sqlite-aid-index';
import { openSqliteDocumentStore } from '../documents/sqlite-document-store';
import { openSqliteEventStore } from '../event-store/sqlite-event-store';
import { openSqliteMessageLog } from '../message-log/sqlite-message-log';
import { openFileBlobStore } from '../blobs/file-blob-store';
import type { EventStore } from '../event-store/port';
import type { MessageLog } from '../message-log/port';
import { DOCUMENT_INDEXES } from '@rna/domain/document-indexes';

/*
 * The engines' adapters are loaded only when their engine is configured: loaded eagerly, their clients
 * (kafkajs, mongoose, the Elasticsearch and EventStoreDB clients) cost the embedded portal, and every
 * test on temporary stores, for nothing: requiring services/standalone/dist/portal took 0.80 s and
 * 169 MB with them, 0.57 s and 159 MB without (`/usr/bin/time node -e "require(…)"`, 2-core machine).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- lazy loading, see above */
const engineAdapters = {
  eventStoreDb: () =>
    require('../event-store/eventstoredb-event-store') as typeof import('../event-store/eventstoredb-event-store'),
  kafka: () =>
    require('../message-log/kafka-message-log') as typeof import('../message-log/kafka-message-log'),
  elasticsearch: () =>
    require('../aid-index/elasticsearch-aid-index') as typeof import('../aid-index/elasticsearch-aid-index'),
  mongo: () =>
    require('../documents/mongo-document-store') as typeof import('../documents/mongo-document-store'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

export interface EngineConfig {
  eventStoreUrl?: string | null;
  kafkaBrokers?: string[] | null;
  /** Bytes of messages per Produce request (KAFKA_MAX_REQUEST_BYTES; default 900 KB). */
  kafkaMaxRequestBytes?: number | null;
  /** How the topics are created (KAFKA_PARTITIONS, default 1; KAFKA_REPLICATION_FACTOR, default the broker's). */
  kafkaPartitions?: number | null;
  kafkaReplicationFactor?: number | null;
  /** The producer's idempotence (KAFKA_IDEMPOTENT, default true; off for librdkafka's mock). */
  kafkaIdempotent?: boolean;
  elasticsearchUrl?: string | null;
  mongodbUri?: string | null;
}

/** The embedded default's files under the data directory, one per port without an engine. */
export const EMBEDDED_FILES = {
  events: 'events.db',
  messages: 'messages.db',
  aids: 'aids.db',
  documents: 'documents.db',
  blobs: 'blobs',
} as const;

export type EngineName = 'embedded' | 'eventstoredb' | 'kafka' | 'elasticsearch' | 'mongodb';

/** Every port, each on its engine or on its embedded file. */
export interface Stores {
  eventStore: EventStore;
  messageLog: MessageLog;
  aidIndex: AidIndex;
  documents: DocumentStore;
  /** Logos: GridFS when MongoDB is configured (shared by API processes on any host), else files. */
  blobs: BlobStore;
  /** Which engine serves each port (for the start-up log and /health). */
  engines: { eventStore: EngineName; messageLog: EngineName; aidIndex: EngineName; documents: EngineName };
  close(): Promise<void>;
}

/** Reads EVENTSTORE_URL, KAFKA_BROKERS (comma separated), ELASTICSEARCH_URL, MONGODB_URI; blank = absent. */
export function enginesFromEnv(env: Record<string, string | undefined> = process.env): EngineConfig {
  const value = (name: string) => env[name]?.trim() || null;
  const brokers = value('KAFKA_BROKERS')
    ?.split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  return {
    eventStoreUrl: value('EVENTSTORE_URL'),
    kafkaBrokers: brokers && brokers.length > 0 ? brokers : null,
    elasticsearchUrl: value('ELASTICSEARCH_URL'),
    mongodbUri: value('MONGODB_URI'),
  };
}

export function engineSelection(engines: EngineConfig): Stores['engines'] {
  return {
    eventStore: engines.eventStoreUrl ? 'eventstoredb' : 'embedded',
    messageLog: engines.kafkaBrokers?.length ? 'kafka' : 'embedded',
    aidIndex: engines.elasticsearchUrl ? 'elasticsearch' : 'embedded',
    documents: engines.mongodbUri ? 'mongodb' : 'embedded',
  };
}

/**
 * Logos beside the documents: in the document store itself when it keeps files (MongoDB's GridFS, on
 * its connection), else files under the data directory.
 */
export function blobStoreBeside(documents: DocumentStore, directory: string): BlobStore {
  return documents.blobsBeside?.() ?? openFileBlobStore(directory);
}

/**
 * The one store factory: with no engine configured (the embedded default, tests) every port is a file
 * under dataDir; each engine URL moves its port to that engine.
 */
export function openStores(options: {
  dataDir: string;
  engines?: EngineConfig;
  /**
   * The lease time of the embedded log's consumer groups (default 30 s): how long the aids stay
   * unindexed when the projector fetching them dies or freezes, before another member takes over.
   */
  groupLeaseMs?: number;
}): Stores {
  const engines = options.engines ?? {};
  const selected = engineSelection(engines);
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = (name: string) => path.join(options.dataDir, name);
  const eventStore = engines.eventStoreUrl
    ? engineAdapters.eventStoreDb().openEventStoreDbEventStore({ url: engines.eventStoreUrl })
    : openSqliteEventStore(file(EMBEDDED_FILES.events));
  const messageLog = engines.kafkaBrokers?.length
    ? engineAdapters.kafka().openKafkaMessageLog({
        brokers: engines.kafkaBrokers,
        maxRequestBytes: engines.kafkaMaxRequestBytes ?? undefined,
        partitions: engines.kafkaPartitions ?? undefined,
        replicationFactor: engines.kafkaReplicationFactor ?? undefined,
        idempotent: engines.kafkaIdempotent ?? true,
      })
    : openSqliteMessageLog(file(EMBEDDED_FILES.messages), { leaseMs: options.groupLeaseMs });
  const aidIndex = engines.elasticsearchUrl
    ? engineAdapters.elasticsearch().openElasticsearchAidIndex({ node: engines.elasticsearchUrl })
    : openSqliteAidIndex(file(EMBEDDED_FILES.aids));
  const documents = engines.mongodbUri
    ? engineAdapters.mongo().openMongoDocumentStore({ uri: engines.mongodbUri, indexes: DOCUMENT_INDEXES })
    : openSqliteDocumentStore(file(EMBEDDED_FILES.documents));
  const blobs = blobStoreBeside(documents, file(EMBEDDED_FILES.blobs));
  let closing: Promise<void> | null = null;
  return {
    eventStore,
    messageLog,
    aidIndex,
    documents,
    blobs,
    engines: selected,
    close: () =>
      // Consumers first (they may still write read models), then the stores they write to.
      (closing ??= (async () => {
        await Promise.all([eventStore.close(), messageLog.close()]);
        await Promise.all([aidIndex.close(), documents.close()]);
      })()),
  };
}
