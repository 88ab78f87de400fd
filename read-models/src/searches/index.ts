/**
 * Saved searches read model: one document per user holding the user's saved searches.
 * Idempotent under redelivery: SearchSaved upserts by search id, SavedSearchCleared empties.
 */
import type { SavedSearchDto, UserEvent } from '@rna/domain';
import { updateDocument, type Doc } from '@rna/infra';
import type { Projection } from '../projection';

export const SAVED_SEARCHES_COLLECTION = 'saved-searches';

export interface SavedSearchesReadModel extends Doc {
  /** the user id */
  id: string;
  searches: SavedSearchDto[];
}

type SavedSearchEvent = Extract<UserEvent, { type: 'SearchSaved' | 'SavedSearchCleared' }>;

export function evolveSavedSearches(current: SavedSearchDto[], event: SavedSearchEvent): SavedSearchDto[] {
  if (event.type === 'SavedSearchCleared') return [];
  const { searchId, taxCodes, deMinimis, last3Years } = event.data;
  const saved: SavedSearchDto = { id: searchId, taxCodes, deMinimis, last3Years };
  return [...current.filter((search) => search.id !== searchId), saved];
}

export const savedSearchesProjection: Projection = {
  name: 'saved-searches',
  collections: [SAVED_SEARCHES_COLLECTION],
  handles: ['SearchSaved', 'SavedSearchCleared'],
  async apply(event, stores) {
    const collection = stores.documents.collection<SavedSearchesReadModel>(SAVED_SEARCHES_COLLECTION);
    const userEvent = { type: event.type, data: event.data } as SavedSearchEvent;
    const id = userEvent.data.userId;
    await updateDocument(collection, id, (current) => ({
      id,
      searches: evolveSavedSearches(current?.searches ?? [], userEvent),
    }));
  },
  async reset(stores) {
    await stores.documents.collection(SAVED_SEARCHES_COLLECTION).clear();
  },
};
