import type { DeMinimisRegime, HeadroomDto, SearchAnswerDto } from '@rna/domain';
import { api } from '../../lib/api';
import { downloadFileName } from '../../lib/domain-rules';
import { saveAs } from '../../lib/download';
import { announceSearchUsed } from '../../lib/session/session-actions';
import type { DocumentsQuery } from './search-params';

export const toQueryString = (q: DocumentsQuery): string =>
  new URLSearchParams({
    taxCodes: q.taxCodes.join(','),
    deMinimis: String(q.deMinimis),
    last3Years: String(q.last3Years),
  }).toString();

/**
 * A report's query: the search's, the group (impresa unica) whose headroom it carries, if any, and the
 * day and regime of that headroom (the server takes today and GENERAL without them).
 */
export type ReportQuery = DocumentsQuery & { group?: string | null; date?: string; regime?: DeMinimisRegime };
const reportQueryString = (q: ReportQuery): string => {
  const extra = new URLSearchParams();
  if (q.group) extra.set('group', q.group);
  if (q.date) extra.set('date', q.date);
  if (q.regime) extra.set('regime', q.regime);
  const more = extra.toString();
  return more ? `${toQueryString(q)}&${more}` : toQueryString(q);
};

/** The de minimis headroom asked for: the searched codes, or the group they come from; a day; a regime. */
export interface HeadroomQuery {
  taxCodes: string[];
  /** the user's group (impresa unica): the server counts its members instead of taxCodes */
  group: string | null;
  /** YYYY-MM-DD */
  date: string;
  regime: DeMinimisRegime;
}

export const headroomQueryString = (q: HeadroomQuery): string => {
  const params = new URLSearchParams(q.group ? { group: q.group } : { taxCodes: q.taxCodes.join(',') });
  params.set('date', q.date);
  params.set('regime', q.regime);
  return params.toString();
};

/** Each search or download uses one of a CLIENT's searches: reload the counter (SPEC §4 search counter). */
async function afterCharge(
  dispatch: Parameters<typeof announceSearchUsed>[0],
  done: Promise<unknown>,
): Promise<void> {
  try {
    await done;
  } finally {
    announceSearchUsed(dispatch);
  }
}

export const documentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** With a group (impresa unica), its members are searched as one undertaking: one allowance. */
    searchDocuments: build.query<SearchAnswerDto, DocumentsQuery & { group?: string | null }>({
      query: (q) => `/documents?${toQueryString(q)}${q.group ? `&group=${encodeURIComponent(q.group)}` : ''}`,
      // read again when the archive is synchronised or the data source switched (same day: no charge)
      providesTags: ['SearchResult'],
      onQueryStarted: (_q, { dispatch, queryFulfilled }) =>
        afterCharge(dispatch, queryFulfilled).catch(() => undefined),
    }),
    /**
     * The same search with each aid's references (the "Dettaglio aiuti" view): asked when the view is
     * opened, after the search itself, so it costs nothing more that day.
     */
    searchDocumentDetails: build.query<SearchAnswerDto, DocumentsQuery>({
      query: (q) => `/documents?${toQueryString(q)}&details=true`,
      providesTags: ['SearchResult'],
      onQueryStarted: (_q, { dispatch, queryFulfilled }) =>
        afterCharge(dispatch, queryFulfilled).catch(() => undefined),
    }),
    /**
     * Charged like a search of the codes (one per code not yet searched today) and refused like one:
     * the screen asks for it only on the user's request, never on a change of date or regime.
     */
    getHeadroom: build.query<HeadroomDto, HeadroomQuery>({
      query: (q) => `/de-minimis/headroom?${headroomQueryString(q)}`,
      onQueryStarted: (_q, { dispatch, queryFulfilled }) =>
        afterCharge(dispatch, queryFulfilled).catch(() => undefined),
    }),
    /** The pre-filled de minimis self-declaration (PDF): charged like a report PDF of the codes. */
    downloadDeclaration: build.mutation<null, HeadroomQuery>({
      query: (q) => ({
        url: `/de-minimis/declaration?${headroomQueryString(q)}`,
        responseHandler: saveAs(downloadFileName('dichiarazione-de-minimis', 'pdf', Date.now(), q.taxCodes)),
      }),
      onQueryStarted: (_q, { dispatch, queryFulfilled }) =>
        afterCharge(dispatch, queryFulfilled).catch(() => undefined),
    }),
    downloadSheet: build.mutation<null, ReportQuery>({
      query: (q) => ({
        url: `/documents/sheet?${reportQueryString(q)}`,
        responseHandler: saveAs(downloadFileName('aiuti', 'xlsx', Date.now(), q.taxCodes)),
      }),
      onQueryStarted: (_q, { dispatch, queryFulfilled }) =>
        afterCharge(dispatch, queryFulfilled).catch(() => undefined),
    }),
    downloadPdf: build.mutation<null, ReportQuery>({
      query: (q) => ({
        url: `/documents/pdf?${reportQueryString(q)}`,
        responseHandler: saveAs(downloadFileName('aiuti', 'pdf', Date.now(), q.taxCodes)),
      }),
      onQueryStarted: (_q, { dispatch, queryFulfilled }) =>
        afterCharge(dispatch, queryFulfilled).catch(() => undefined),
    }),
  }),
});

export const {
  useSearchDocumentsQuery,
  useSearchDocumentDetailsQuery,
  useLazyGetHeadroomQuery,
  useDownloadDeclarationMutation,
  useDownloadSheetMutation,
  useDownloadPdfMutation,
} = documentsApi;
