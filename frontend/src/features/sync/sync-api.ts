import type {
  ArchiveFileDto,
  ArchiveStatsDto,
  DataSourceStatusDto,
  SyncResultDto,
  SyncRunDto,
  SyncScope,
  SyncStatusDto,
} from '@rna/domain';
import { api } from '../../lib/api';

export const syncApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSyncStatus: build.query<SyncStatusDto, void>({
      query: () => '/sync/status',
      providesTags: ['SyncStatus'],
      keepUnusedDataFor: 0,
    }),
    startSync: build.mutation<SyncRunDto, { type: SyncScope; onlyDocuments?: string[] }>({
      query: (body) => ({ url: '/sync', method: 'POST', body }),
      invalidatesTags: ['SyncStatus'],
    }),
    getSyncResults: build.query<SyncResultDto[], void>({
      query: () => '/sync/results',
      providesTags: ['SyncResult'],
    }),
    getArchiveFiles: build.query<ArchiveFileDto[], void>({
      query: () => '/sync/documents-update',
      providesTags: ['ArchiveFile'],
    }),
    getArchiveStats: build.query<ArchiveStatsDto, void>({
      query: () => '/sync/archive-stats',
      providesTags: ['ArchiveStats'],
    }),
    getDataSourceStatus: build.query<DataSourceStatusDto, void>({
      query: () => '/documents/data-source-status',
      providesTags: ['DataSource'],
    }),
    /** the state asked for, not a flip: a double click or a second administrator cannot undo it */
    setDataSource: build.mutation<DataSourceStatusDto, { useLiveData: boolean }>({
      query: (body) => ({ url: '/documents/data-source', method: 'POST', body }),
      // results already on screen came from the other source: they are read again
      invalidatesTags: ['DataSource', 'LastUpdate', 'SearchResult'],
    }),
    toggleDataSource: build.mutation<DataSourceStatusDto, void>({
      query: () => ({ url: '/documents/toggle-data-source', method: 'POST' }),
      // afterwards the status and the last-update value are refreshed (SPEC §4)
      invalidatesTags: ['DataSource', 'LastUpdate', 'SearchResult'],
    }),
  }),
});

export const {
  useGetSyncStatusQuery,
  useStartSyncMutation,
  useGetSyncResultsQuery,
  useGetArchiveFilesQuery,
  useGetArchiveStatsQuery,
  useGetDataSourceStatusQuery,
  useSetDataSourceMutation,
  useToggleDataSourceMutation,
} = syncApi;
