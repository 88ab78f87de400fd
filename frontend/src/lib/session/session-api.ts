import type { MyClientDto, SavedSearchDto, UserDto, VariationAlertDto } from '@rna/domain';
import { api } from '../api';

/** Endpoints every signed-in screen relies on: the user, the CLIENT counter, saved searches and alerts. */
export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    getMe: build.query<UserDto, void>({
      query: () => '/users/me',
      providesTags: ['Me'],
    }),
    getMyClient: build.query<MyClientDto, void>({
      query: () => '/clients/me',
      providesTags: ['MyClient'],
    }),
    /** the timestamp itself: null = never updated, -1 = live data (SPEC §4) */
    getLastRnaSync: build.query<number | null, void>({
      query: () => '/sync/last-rna-sync',
      providesTags: ['LastUpdate'],
    }),
    getSavedSearches: build.query<SavedSearchDto[], void>({
      query: () => '/users/saved-searches',
      providesTags: (result) => [
        { type: 'SavedSearch', id: 'LIST' },
        ...(result ?? []).map((s) => ({ type: 'SavedSearch' as const, id: s.id })),
      ],
    }),
    /** one search to save it, an empty list to clear it; the answer replaces the list */
    putSavedSearches: build.mutation<SavedSearchDto[], Omit<SavedSearchDto, 'id'>[]>({
      query: (body) => ({ url: '/users/saved-searches', method: 'PUT', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled;
        dispatch(sessionApi.util.upsertQueryData('getSavedSearches', undefined, data));
      },
    }),
    getVariationAlerts: build.query<VariationAlertDto[], void>({
      query: () => '/variation-alerts',
      providesTags: (result) => [
        { type: 'VariationAlert', id: 'LIST' },
        ...(result ?? []).map((a) => ({ type: 'VariationAlert' as const, id: a.id })),
      ],
    }),
    addVariationAlert: build.mutation<VariationAlertDto, { taxCodes: string[] }>({
      query: (body) => ({ url: '/variation-alerts', method: 'POST', body }),
      invalidatesTags: [{ type: 'VariationAlert', id: 'LIST' }],
    }),
    removeVariationAlert: build.mutation<void, string>({
      query: (id) => ({ url: `/variation-alerts/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'VariationAlert', id }],
    }),
  }),
});

export const {
  useGetMeQuery,
  useGetMyClientQuery,
  useGetLastRnaSyncQuery,
  useGetSavedSearchesQuery,
  usePutSavedSearchesMutation,
  useGetVariationAlertsQuery,
  useAddVariationAlertMutation,
  useRemoveVariationAlertMutation,
} = sessionApi;
