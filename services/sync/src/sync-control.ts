/** Which run the worker has to do: the control stream as the API decided it. */
import { foldSyncControl, streams, type SyncControlState } from '@rna/domain';
import type { EventStore } from '@rna/infra';

export type { SyncControlState, SyncRequest } from '@rna/domain';

export async function readSyncControl(eventStore: EventStore): Promise<SyncControlState> {
  const { currentVersion, events } = await eventStore.readStream(streams.syncControl);
  return { version: currentVersion, ...foldSyncControl(events) };
}
