import type { AuditHistoryDto } from '@rna/domain';
import { api } from '../../lib/api';
import { downloadFileName } from '../../lib/domain-rules';
import { saveAs } from '../../lib/download';

/** Whose history: a client's quota stream, or an administrator's own audit stream. */
export interface AuditSubject {
  kind: 'clients' | 'users';
  id: string;
}

/**
 * A date range (ms, either end open) and the stream version the page starts from: newest first, so
 * null is the newest entry and each next page goes back in time.
 */
export interface AuditQuery extends AuditSubject {
  since: number | null;
  at: number | null;
  from: number | null;
}

export const AUDIT_PAGE = 200;

const rangeParams = (q: { since: number | null; at: number | null }): URLSearchParams => {
  const params = new URLSearchParams();
  if (q.since !== null) params.set('since', String(q.since));
  if (q.at !== null) params.set('at', String(q.at));
  return params;
};

const historyPath = (subject: AuditSubject): string =>
  `/audit/${subject.kind}/${encodeURIComponent(subject.id)}/history`;

export const auditApi = api.injectEndpoints({
  endpoints: (build) => ({
    getAuditHistory: build.query<AuditHistoryDto, AuditQuery>({
      query: (q) => {
        const params = rangeParams(q);
        params.set('order', 'desc');
        if (q.from !== null) params.set('from', String(q.from));
        params.set('limit', String(AUDIT_PAGE));
        return `${historyPath(q)}?${params.toString()}`;
      },
      // an audit is read as it is now, never from an old cache
      keepUnusedDataFor: 0,
    }),
    downloadAuditSheet: build.mutation<null, Omit<AuditQuery, 'from'>>({
      query: (q) => ({
        url: `${historyPath(q)}.xlsx?${rangeParams(q).toString()}`,
        responseHandler: saveAs(downloadFileName('registro-attivita', 'xlsx', Date.now())),
      }),
    }),
  }),
});

export const { useGetAuditHistoryQuery, useDownloadAuditSheetMutation } = auditApi;
