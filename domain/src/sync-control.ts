/**
 * The `sync-control` stream decides that one run at a time is going: a run is going from its
 * SyncRequested until its SyncCompleted or SyncFailed. The API decides on it (request a run), the
 * sync worker reads it (which run to do).
 */
import type { SyncScope } from './archive-files';
import type { Decider } from './decider';
import { DomainError } from './errors';
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
  events: readonly SyncEvent[],
  from: SyncRequest | null = null,
): Omit<SyncControlState, 'version'> {
  let running = from;
  for (const e of events) {
    if (e.type === 'SyncRequested') running = { ...e.data };
    else if ((e.type === 'SyncCompleted' || e.type === 'SyncFailed') && running?.runId === e.data.runId)
      running = null;
  }
  return { running };
}

/** "Sincronizza": one run at a time (S001 while another is going). */
export type SyncControlCommand = { type: 'RequestSync'; data: SyncRequest };

export const syncControlDecider: Decider<SyncControlCommand, SyncEvent, Omit<SyncControlState, 'version'>> = {
  initialState: { running: null },
  evolve: (state, event) => foldSyncControl([event], state.running),
  decide(command, state) {
    if (state.running) throw new DomainError('S001');
    const { scope, onlyDocuments } = command.data;
    return [
      {
        type: 'SyncRequested',
        // only a chosen set of files carries their names
        data: { ...command.data, onlyDocuments: scope === 'CUSTOM' ? [...onlyDocuments] : [] },
      },
    ];
  },
};
