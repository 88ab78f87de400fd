// lint as: services/api/src/sync/fixture.ts
// The API asks for a sync with an event; it never calls the sync worker's code.
import { startSyncWorker } from '@rna/sync';

export const start = startSyncWorker;
