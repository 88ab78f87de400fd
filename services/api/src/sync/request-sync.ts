/**
 * The "start a sync" command: the API appends SyncRequested on the `sync-control` stream with the
 * version it decided on, so two concurrent requests cannot both start a run; the sync worker reacts.
 */
import { randomUUID } from 'node:crypto';
import {
  DomainError,
  stateOf,
  streams,
  syncControlDecider,
  type Actor,
  type SyncRequest,
  type SyncScope,
} from '@rna/domain';
import { ConcurrencyError, type EventStore } from '@rna/infra';

export interface RequestSyncInput {
  scope: SyncScope;
  onlyDocuments?: string[];
  by: Actor;
  now?: Date;
}

/** Appends SyncRequested; DomainError S001 when a run is already in progress. */
export async function requestSync(eventStore: EventStore, input: RequestSyncInput): Promise<SyncRequest> {
  const { currentVersion, events } = await eventStore.readStream(streams.syncControl);
  const decided = syncControlDecider.decide(
    {
      type: 'RequestSync',
      data: {
        runId: randomUUID(),
        scope: input.scope,
        onlyDocuments: input.onlyDocuments ?? [],
        at: (input.now ?? new Date()).toISOString(),
        by: input.by,
      },
    },
    stateOf(syncControlDecider, events),
  );
  try {
    await eventStore.appendToStream(streams.syncControl, decided, {
      expectedVersion: currentVersion < 0 ? 'no_stream' : currentVersion,
    });
  } catch (error) {
    if (error instanceof ConcurrencyError) throw new DomainError('S001');
    throw error;
  }
  const [requested] = decided;
  if (requested?.type !== 'SyncRequested') throw new Error('sync-control decided no SyncRequested');
  return requested.data;
}
