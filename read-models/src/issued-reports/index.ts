/**
 * Issued reports: one document per verification code, from the ReportDownloaded events that carry
 * one (a client's quota stream, an administrator's audit stream). What a public verification may
 * say of a report: when, which kind, for which tax codes, under which organisation's brand; no
 * amounts, no user. Idempotent: the document is the event's, put again on redelivery.
 */
import type { QuotaEvent, ReportKind } from '@rna/domain';
import type { Doc } from '@rna/infra';
import type { Projection } from '../projection';

export const ISSUED_REPORTS_COLLECTION = 'issued-reports';

export interface IssuedReportReadModel extends Doc {
  /** the verification code, stored form (report-codes.ts) */
  id: string;
  issuedAt: number;
  kind: ReportKind;
  taxCodes: string[];
  organisation: string;
}

type Downloaded = Extract<QuotaEvent, { type: 'ReportDownloaded' }>;

export const issuedReportsProjection: Projection = {
  name: 'issued-reports',
  collections: [ISSUED_REPORTS_COLLECTION],
  handles: ['ReportDownloaded'],
  async apply(event, stores) {
    const { data } = { type: event.type, data: event.data } as Downloaded;
    if (!data.reportCode) return; // a download without a code (a bulk result, or before codes)
    await stores.documents.collection<IssuedReportReadModel>(ISSUED_REPORTS_COLLECTION).put({
      id: data.reportCode,
      issuedAt: Date.parse(data.at),
      kind: data.kind,
      taxCodes: data.taxCodes,
      organisation: data.organisation ?? '',
    });
  },
  async reset(stores) {
    await stores.documents.collection(ISSUED_REPORTS_COLLECTION).clear();
  },
};
