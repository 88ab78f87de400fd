/**
 * Whether an error came from a storage engine behind a port (SQLite, EventStoreDB, Kafka,
 * Elasticsearch, MongoDB) rather than from the request or the code: the API answers those with
 * G002 ("errore di comunicazione con il database"), not with the generic G001.
 */
const STORAGE_ERROR_NAMES = new Set([
  'SqliteError',
  'MongoError',
  'MongoServerError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongooseError',
  'ConnectionError', // @elastic/transport
  'NoLivingConnectionsError',
  'ResponseError',
  'TimeoutError',
  'KafkaJSError',
  'KafkaJSConnectionError',
  'KafkaJSNumberOfRetriesExceeded',
  'KafkaJSRequestTimeoutError',
  'UnavailableError', // @eventstore/db-client
  'DeadlineExceededError',
  'NotLeaderError',
]);

export function isStorageError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return true;
  return typeof name === 'string' && STORAGE_ERROR_NAMES.has(name);
}
