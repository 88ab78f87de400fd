import type { BulkJobDto, BulkPreviewDto, BulkSearchRequestDto } from '@rna/domain';
import { api } from '../../lib/api';
import { saveAs } from '../../lib/download';
import { announceSearchUsed } from '../../lib/session/session-actions';
import { resultFileName } from './bulk-job-rules';

/** What to preview: an uploaded file or a pasted list, and optionally the header of the codes' column. */
export type BulkPreviewSource =
  | { kind: 'file'; file: File; column?: string | null }
  | { kind: 'text'; text: string; column?: string | null };

const LIST = { type: 'BulkJob' as const, id: 'LIST' };

export const bulkSearchesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Nothing is charged or kept: the file is read and the cost worked out. */
    previewBulkSearch: build.mutation<BulkPreviewDto, BulkPreviewSource>({
      query: (source) => {
        const column = source.column ?? undefined;
        if (source.kind === 'text') {
          return { url: '/bulk-searches/preview', method: 'POST', body: { text: source.text, column } };
        }
        const body = new FormData();
        body.append('file', source.file, source.file.name);
        if (column !== undefined) body.append('column', column);
        return { url: '/bulk-searches/preview', method: 'POST', body };
      },
    }),
    /** Queues the job (202); the client is charged for the codes new today, or refused with U004. */
    startBulkSearch: build.mutation<BulkJobDto, BulkSearchRequestDto>({
      query: (body) => ({ url: '/bulk-searches', method: 'POST', body }),
      onQueryStarted: async (_request, { dispatch, queryFulfilled }) => {
        try {
          const { data: job } = await queryFulfilled;
          // at the top of the list at once; the list's polling then follows it on the server
          dispatch(
            bulkSearchesApi.util.updateQueryData('getBulkJobs', undefined, (jobs) => [
              job,
              ...jobs.filter((other) => other.jobId !== job.jobId),
            ]),
          );
        } catch {
          // the page tells the refusal
        } finally {
          announceSearchUsed(dispatch); // the searches left in the navigation bar
        }
      },
    }),
    /** The user's own jobs, newest first. */
    getBulkJobs: build.query<BulkJobDto[], void>({
      query: () => '/bulk-searches',
      providesTags: [LIST],
    }),
    downloadBulkSheet: build.mutation<null, BulkJobDto>({
      query: (job) => ({
        url: `/bulk-searches/${encodeURIComponent(job.jobId)}/sheet`,
        responseHandler: saveAs(resultFileName(job.sourceName, 'xlsx')),
      }),
      // 'downloaded' (the home notice stops) or, once expired, the job's new state
      invalidatesTags: [LIST],
    }),
    downloadBulkPdf: build.mutation<null, BulkJobDto>({
      query: (job) => ({
        url: `/bulk-searches/${encodeURIComponent(job.jobId)}/pdf`,
        responseHandler: saveAs(resultFileName(job.sourceName, 'pdf')),
      }),
      invalidatesTags: [LIST],
    }),
  }),
});

export const {
  usePreviewBulkSearchMutation,
  useStartBulkSearchMutation,
  useGetBulkJobsQuery,
  useDownloadBulkSheetMutation,
  useDownloadBulkPdfMutation,
} = bulkSearchesApi;
