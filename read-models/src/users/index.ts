/** The users read model: every account (ADMIN or CLIENT) by user id, from `user-<id>` registrations. */
import type { EventOfType } from '@rna/domain';
import type { Doc } from '@rna/infra';
import type { Projection } from '../projection';

export const USERS_COLLECTION = 'users';

export interface UserReadModel extends Doc {
  email: string;
  role: 'ADMIN' | 'CLIENT';
  registeredAt: number;
}

export const usersProjection: Projection<EventOfType<'UserRegistered' | 'ClientRemoved'>> = {
  name: 'users',
  collections: [USERS_COLLECTION],
  handles: ['UserRegistered', 'ClientRemoved'],
  async apply(event, stores) {
    const users = stores.documents.collection<UserReadModel>(USERS_COLLECTION);
    if (event.type === 'UserRegistered') {
      const { data } = event;
      await users.put({
        id: data.userId,
        email: data.email,
        role: data.role,
        registeredAt: new Date(data.at).getTime(),
      });
    } else if (event.type === 'ClientRemoved') {
      // A client's user id is its client id.
      await users.delete(event.data.clientId);
    }
  },
  async reset(stores) {
    await stores.documents.collection(USERS_COLLECTION).clear();
  },
};
