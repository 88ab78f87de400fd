/**
 * Bulk search jobs (Ricerca massiva) read model: one document per job, the fold of its stream
 * `bulk-<jobId>` (the domain's evolveBulkJob) without the codes. It lists a user's jobs and lets the
 * runner find the jobs still to run. Idempotent: an event at or below the stored stream version is
 * one already applied.
 */
import {
  evolveBulkJob,
  initialBulkJobState,
  isBulkJobAwaitingCharge,
  isBulkJobOpen,
  type BulkJobState,
  type BulkSearchEvent,
} from '@rna/domain';
import { updateDocument, type Doc } from '@rna/infra';
import type { Projection } from '../projection';

export const BULK_SEARCHES_COLLECTION = 'bulk-searches';

export interface BulkSearchReadModel extends Doc, BulkJobState {
  /** the job id */
  id: string;
  /** the last applied event's stream version */
  version: number;
  /** QUEUED or RUNNING: the runner has it to do */
  open: boolean;
  /** requested by a client and not charged yet: the runner settles it if its request died half-way */
  awaitingCharge: boolean;
}

export const bulkSearchesProjection: Projection<BulkSearchEvent> = {
  name: 'bulk-searches',
  collections: [BULK_SEARCHES_COLLECTION],
  handles: [
    'BulkSearchRequested',
    'BulkSearchCharged',
    'BulkSearchProgressed',
    'BulkSearchCompleted',
    'BulkSearchFailed',
    'BulkResultDownloaded',
  ],
  async apply(event, stores) {
    const collection = stores.documents.collection<BulkSearchReadModel>(BULK_SEARCHES_COLLECTION);
    const jobEvent = { type: event.type, data: event.data } as BulkSearchEvent;
    await updateDocument(collection, jobEvent.data.jobId, (current) => {
      if (current && current.version >= event.streamVersion) return current;
      const {
        id: _id,
        version: _version,
        open: _open,
        awaitingCharge: _awaitingCharge,
        ...state
      } = current ?? {
        id: '',
        version: -1,
        open: false,
        awaitingCharge: false,
        ...initialBulkJobState,
      };
      const next = evolveBulkJob(state, jobEvent);
      return {
        ...next,
        id: jobEvent.data.jobId,
        version: event.streamVersion,
        open: isBulkJobOpen(next),
        awaitingCharge: isBulkJobAwaitingCharge(next),
      };
    });
  },
  async reset(stores) {
    await stores.documents.collection(BULK_SEARCHES_COLLECTION).clear();
  },
};
