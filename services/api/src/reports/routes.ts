/** GET /documents/sheet and /documents/pdf: the reports of a search (free when searched today). */
import { DomainError, type ReportKind } from '@rna/domain';
import { PdfQueueFullError, PdfRenderError } from '@rna/infra/pdf';
import { countPaidRequest, RetryLaterError } from '../http/paid-work-limit';
import { searchProfile } from '../documents/profile';
import { searchQuerySchema } from '../documents/query-schema';
import { performSearch, searchRequestFrom } from '../documents/search';
import type { ApiDeps } from '../http/deps';
import { defineRoute, reply, signedIn, type AnyRoute, type Principal } from '../http/route';
import { reportBranding } from './branding';
import { buildExcelReport } from './excel';
import { pdfFooterTemplate, pdfReportHtml } from './pdf-template';
import type { ReportInput } from './report-input';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function reportInput(
  deps: ApiDeps,
  principal: Principal,
  query: { taxCodes: string[]; deMinimis: boolean; last3Years: boolean },
  kind: ReportKind,
): Promise<ReportInput> {
  const request = searchRequestFrom(query);
  await countPaidRequest(deps, principal.userId);
  const profile = await searchProfile(deps, principal);
  if (kind === 'pdf' && !profile.pdfEnabled) throw new DomainError('P001');
  if (kind === 'pdf' && !deps.pdfRenderer) throw new DomainError('G001', 'Generazione PDF non disponibile');
  const result = await performSearch(deps, profile, request, kind);
  const branding = await reportBranding(deps, profile.logoId);
  return { result, branding, generatedAt: deps.clock() };
}

export const reportsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/documents/sheet',
    access: 'signed-in',
    allowExpiredClient: true,
    tag: 'documents',
    summary: 'The search as report.xlsx (rows, totals, de minimis series)',
    query: searchQuerySchema,
    responses: { 200: { description: 'report.xlsx', contentType: XLSX } },
    async handler(ctx) {
      const input = await reportInput(ctx.deps, signedIn(ctx), ctx.query, 'sheet');
      return reply.file({ contentType: XLSX, fileName: 'report.xlsx', bytes: await buildExcelReport(input) });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/documents/pdf',
    access: 'signed-in',
    allowExpiredClient: true,
    tag: 'documents',
    summary: 'The search as report.pdf, branded with the client’s logo (pdfEnabled clients and ADMIN)',
    query: searchQuerySchema,
    responses: { 200: { description: 'report.pdf', contentType: 'application/pdf' } },
    async handler(ctx) {
      const input = await reportInput(ctx.deps, signedIn(ctx), ctx.query, 'pdf');
      const renderer = ctx.deps.pdfRenderer;
      if (!renderer) throw new DomainError('G001');
      try {
        const bytes = await renderer.render(pdfReportHtml(input), {
          footerTemplate: pdfFooterTemplate(input.branding),
        });
        return reply.file({ contentType: 'application/pdf', fileName: 'report.pdf', bytes });
      } catch (error) {
        if (error instanceof PdfQueueFullError) throw new RetryLaterError(5);
        if (error instanceof PdfRenderError) {
          ctx.deps.logger.error({ err: error }, 'PDF report could not be rendered');
          throw new DomainError('G001');
        }
        throw error;
      }
    },
  }),
];
