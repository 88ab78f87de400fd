// lint as: services/projector/src/aids/fixture.ts
// The projector folds events; it does not import the producer of those events.
import { startSyncWorker } from '@rna/sync';

export const start = startSyncWorker;
