/** The embedded default: every port on files under one data directory. */
import fs from 'node:fs';
import path from 'node:path';
import { openSqliteAidIndex, type SqliteAidIndex } from '../aid-index/sqlite-aid-index';
import { openFileBlobStore, type FileBlobStore } from '../blobs/file-blob-store';
import { openSqliteDocumentStore, type SqliteDocumentStore } from '../documents/sqlite-document-store';
import { openSqliteEventStore, type SqliteEventStore } from '../event-store/sqlite-event-store';
import { openSqliteMessageLog, type SqliteMessageLog } from '../message-log/sqlite-message-log';

export interface EmbeddedStores {
  eventStore: SqliteEventStore;
  messageLog: SqliteMessageLog;
  aidIndex: SqliteAidIndex;
  documents: SqliteDocumentStore;
  blobs: FileBlobStore;
  /** Stops subscriptions and consumers, then closes every file. */
  close(): Promise<void>;
}

export const EMBEDDED_FILES = {
  events: 'events.db',
  messages: 'messages.db',
  aids: 'aids.db',
  documents: 'documents.db',
  blobs: 'blobs',
} as const;

export function openEmbeddedStores(dataDir: string): EmbeddedStores {
  fs.mkdirSync(dataDir, { recursive: true });
  const eventStore = openSqliteEventStore(path.join(dataDir, EMBEDDED_FILES.events));
  const messageLog = openSqliteMessageLog(path.join(dataDir, EMBEDDED_FILES.messages));
  const aidIndex = openSqliteAidIndex(path.join(dataDir, EMBEDDED_FILES.aids));
  const documents = openSqliteDocumentStore(path.join(dataDir, EMBEDDED_FILES.documents));
  const blobs = openFileBlobStore(path.join(dataDir, EMBEDDED_FILES.blobs));
  let closing: Promise<void> | null = null;
  return {
    eventStore,
    messageLog,
    aidIndex,
    documents,
    blobs,
    close: () => {
      // Consumers first (they may still write projections), then the stores they write to.
      closing ??= (async () => {
        await Promise.all([eventStore.close(), messageLog.close()]);
        await Promise.all([aidIndex.close(), documents.close()]);
      })();
      return closing;
    },
  };
}
