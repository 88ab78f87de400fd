/**
 * Saved searches (the "favorite" of the documents screen): PUT replaces the user's list as a
 * whole, as events on `user-<id>`; GET reads the projector's read model.
 */
import { randomUUID } from 'node:crypto';
import { streams, type SavedSearchDto, type UserEvent } from '@rna/domain';
import type { DocumentStore, EventStore } from '@rna/infra';
import { SAVED_SEARCHES_COLLECTION, type SavedSearchesReadModel } from '@rna/read-models/searches';
import { searchRequestFrom, type SearchQuery } from '../documents/search';

export async function listSavedSearches(documents: DocumentStore, userId: string): Promise<SavedSearchDto[]> {
  const doc = await documents.collection<SavedSearchesReadModel>(SAVED_SEARCHES_COLLECTION).get(userId);
  return doc?.searches ?? [];
}

/** Validates like a search (T001/T002), then clears and saves: the answer is the new list. */
export async function replaceSavedSearches(
  deps: { eventStore: EventStore; clock: () => Date },
  userId: string,
  wanted: readonly SearchQuery[],
): Promise<SavedSearchDto[]> {
  const requests = wanted.map(searchRequestFrom);
  const at = deps.clock().toISOString();
  const saved: SavedSearchDto[] = requests.map((request) => ({ id: randomUUID(), ...request }));
  const events: UserEvent[] = [
    { type: 'SavedSearchCleared', data: { userId, at } },
    ...saved.map((search): UserEvent => ({
      type: 'SearchSaved',
      data: {
        userId,
        searchId: search.id,
        taxCodes: search.taxCodes,
        deMinimis: search.deMinimis,
        last3Years: search.last3Years,
        at,
      },
    })),
  ];
  await deps.eventStore.appendToStream(streams.user(userId), events, { expectedVersion: 'any' });
  return saved;
}
