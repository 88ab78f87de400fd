/**
 * The fields each document collection is searched or sorted by (equality filters and sortBy of the
 * features' finds), so that a document engine that needs indexes declared (MongoDB) builds them at
 * start. A new find by another field adds its field here.
 */
export const DOCUMENT_INDEXES: Readonly<Record<string, readonly string[]>> = {
  'refresh-tokens': ['familyId', 'userId'],
  'password-resets': ['userId'],
  credentials: ['role'],
  clients: ['email'],
  logos: ['fileName', 'deleted'],
  'variation-alerts': ['userId', 'removed', 'createdAt'],
  'sync-runs': ['start'],
  'sync-history': ['start'],
  'bulk-searches': ['userId', 'open', 'awaitingCharge', 'status', 'requestedAt'],
  'undertaking-groups': ['userId', 'deleted', 'createdAt'],
  // the sync asks for a file's set-aside aids before it skips the file as unchanged
  'dead-letters': ['sourceFile'],
};
