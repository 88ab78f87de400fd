/**
 * The `sync-control` stream decides that one run at a time is going: a run is going from its
 * SyncRequested until its SyncCompleted or SyncFailed. The API decides on it (request a run), the
 * sync worker reads it (which run to do).
 */
import type { SyncScope } from './archive-files';
import type { Actor, SyncEvent } from './events';

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

/** Folds the control stream's events, oldest first. */
export function foldSyncControl(
  events: readonly { type: string; data: unknown }[],
): Omit<SyncControlState, 'version'> {
  let running: SyncRequest | null = null;
  for (const event of events) {
    const e = event as SyncEvent;
    if (e.type === 'SyncRequested') running = { ...e.data };
    else if ((e.type === 'SyncCompleted' || e.type === 'SyncFailed') && running?.runId === e.data.runId)
      running = null;
  }
  return { running };
}
