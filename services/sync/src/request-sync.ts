/**
 * The "start a sync" command. One run at a time: the decision is taken on the `sync-control`
 * stream with an expected version, so two concurrent requests cannot both start a run.
 */
import { randomUUID } from 'node:crypto';
import { DomainError, streams, type Actor, type SyncEvent, type SyncScope } from '@rna/domain';
import { ConcurrencyError, type EventStore, type RecordedEvent } from '@rna/infra';

export interface SyncRequest {
  runId: string;
  scope: SyncScope;
  onlyDocuments: string[];
  at: string;
  by: Actor;
}

export interface SyncControlState {
  version: number;
  /** The requested run that has not completed or failed yet. */
  running: SyncRequest | null;
}

/** Folds the control stream: a run is running from SyncRequested until SyncCompleted/SyncFailed. */
export function foldSyncControl(events: RecordedEvent[]): Omit<SyncControlState, 'version'> {
  let running: SyncRequest | null = null;
  for (const event of events) {
    const e = event as unknown as SyncEvent;
    if (e.type === 'SyncRequested') running = { ...e.data };
    else if ((e.type === 'SyncCompleted' || e.type === 'SyncFailed') && running?.runId === e.data.runId)
      running = null;
  }
  return { running };
}

export async function readSyncControl(eventStore: EventStore): Promise<SyncControlState> {
  const { currentVersion, events } = await eventStore.readStream(streams.syncControl);
  return { version: currentVersion, ...foldSyncControl(events) };
}

export interface RequestSyncInput {
  scope: SyncScope;
  onlyDocuments?: string[];
  by: Actor;
  now?: Date;
}

/** Appends SyncRequested; DomainError S001 when a run is already in progress. */
export async function requestSync(eventStore: EventStore, input: RequestSyncInput): Promise<SyncRequest> {
  const state = await readSyncControl(eventStore);
  if (state.running) throw new DomainError('S001');
  const request: SyncRequest = {
    runId: randomUUID(),
    scope: input.scope,
    onlyDocuments: input.scope === 'CUSTOM' ? [...(input.onlyDocuments ?? [])] : [],
    at: (input.now ?? new Date()).toISOString(),
    by: input.by,
  };
  const event: SyncEvent = { type: 'SyncRequested', data: request };
  try {
    await eventStore.appendToStream(streams.syncControl, [event], {
      expectedVersion: state.version < 0 ? 'no_stream' : state.version,
    });
  } catch (error) {
    if (error instanceof ConcurrencyError) throw new DomainError('S001');
    throw error;
  }
  return request;
}
