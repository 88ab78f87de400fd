import type { ReportVerificationDto } from '@rna/domain';
import { api } from '../../lib/api';

export const verificationApi = api.injectEndpoints({
  endpoints: (build) => ({
    verifyReport: build.query<ReportVerificationDto, string>({
      query: (code) => ({ url: `/reports/verify/${encodeURIComponent(code)}` }),
    }),
  }),
});

export const { useVerifyReportQuery } = verificationApi;
