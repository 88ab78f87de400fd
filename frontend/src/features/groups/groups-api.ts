import type { UndertakingGroupDto, UndertakingGroupInput } from '@rna/domain';
import { api } from '../../lib/api';
import { errorCodeOf } from '../../lib/errors';

/** A group removed meanwhile (in another tab): the list is read again. */
const gone = (_result: unknown, error: unknown) =>
  error && errorCodeOf(error) === 'I003' ? (['UndertakingGroup'] as const) : [];

/**
 * The user's groups of companies counted as one undertaking (impresa unica). Each change answers the
 * group as saved (or nothing, for a removal), so the list on screen is updated from the answer itself
 * rather than read again.
 */
export const groupsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getGroups: build.query<UndertakingGroupDto[], void>({
      query: () => '/groups',
      providesTags: ['UndertakingGroup'],
    }),
    createGroup: build.mutation<UndertakingGroupDto, UndertakingGroupInput>({
      query: (body) => ({ url: '/groups', method: 'POST', body }),
      onQueryStarted: async (_input, { dispatch, queryFulfilled }) => {
        try {
          const { data: group } = await queryFulfilled;
          dispatch(
            groupsApi.util.updateQueryData('getGroups', undefined, (groups) => [
              ...groups.filter((other) => other.id !== group.id),
              group,
            ]),
          );
        } catch {
          // the editor tells the refusal
        }
      },
    }),
    updateGroup: build.mutation<UndertakingGroupDto, { id: string; input: UndertakingGroupInput }>({
      query: ({ id, input }) => ({ url: `/groups/${encodeURIComponent(id)}`, method: 'PUT', body: input }),
      onQueryStarted: async (_arg, { dispatch, queryFulfilled }) => {
        try {
          const { data: group } = await queryFulfilled;
          dispatch(
            groupsApi.util.updateQueryData('getGroups', undefined, (groups) =>
              groups.map((other) => (other.id === group.id ? group : other)),
            ),
          );
        } catch {
          // the editor tells the refusal
        }
      },
      invalidatesTags: gone,
    }),
    deleteGroup: build.mutation<void, string>({
      query: (id) => ({ url: `/groups/${encodeURIComponent(id)}`, method: 'DELETE' }),
      onQueryStarted: async (id, { dispatch, queryFulfilled }) => {
        try {
          await queryFulfilled;
          dispatch(
            groupsApi.util.updateQueryData('getGroups', undefined, (groups) =>
              groups.filter((group) => group.id !== id),
            ),
          );
        } catch {
          // the page tells the refusal
        }
      },
      invalidatesTags: gone,
    }),
  }),
});

export const { useGetGroupsQuery, useCreateGroupMutation, useUpdateGroupMutation, useDeleteGroupMutation } =
  groupsApi;
