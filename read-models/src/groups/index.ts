/**
 * Groups of companies counted as one undertaking (impresa unica): one document per group, the fold
 * of its events on the owner's stream `user-<id>`. Idempotent: saving replaces the group whole, a
 * deleted group stays as a tombstone so a late save of it is not revived.
 */
import type { UndertakingGroupDto, UserEvent } from '@rna/domain';
import { updateDocument, type Doc } from '@rna/infra';
import type { Projection } from '../projection';

export const UNDERTAKING_GROUPS_COLLECTION = 'undertaking-groups';

export interface UndertakingGroupReadModel extends Doc {
  /** the group id */
  id: string;
  userId: string;
  name: string;
  members: { taxCode: string; note: string }[];
  createdAt: number;
  updatedAt: number;
  deleted: boolean;
}

type GroupEvent = Extract<UserEvent, { type: 'UndertakingGroupSaved' | 'UndertakingGroupDeleted' }>;

export function groupDto(group: UndertakingGroupReadModel): UndertakingGroupDto {
  return {
    id: group.id,
    name: group.name,
    members: group.members,
    createdAt: group.createdAt,
    updatedAt: group.updatedAt,
  };
}

export const undertakingGroupsProjection: Projection = {
  name: 'undertaking-groups',
  collections: [UNDERTAKING_GROUPS_COLLECTION],
  handles: ['UndertakingGroupSaved', 'UndertakingGroupDeleted'],
  async apply(event, stores) {
    const collection = stores.documents.collection<UndertakingGroupReadModel>(UNDERTAKING_GROUPS_COLLECTION);
    const groupEvent = { type: event.type, data: event.data } as GroupEvent;
    const at = Date.parse(groupEvent.data.at);
    await updateDocument(collection, groupEvent.data.groupId, (current) => {
      if (groupEvent.type === 'UndertakingGroupDeleted')
        return current ? { ...current, deleted: true, updatedAt: at } : null;
      if (current?.deleted) return current;
      const { userId, groupId, name, members } = groupEvent.data;
      return {
        id: groupId,
        userId,
        name,
        members,
        createdAt: current?.createdAt ?? at,
        updatedAt: at,
        deleted: false,
      };
    });
  },
  async reset(stores) {
    await stores.documents.collection(UNDERTAKING_GROUPS_COLLECTION).clear();
  },
};
