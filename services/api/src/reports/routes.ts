/** GET /documents/sheet and /documents/pdf: the reports of a search (free when searched today). */
import { PassThrough, Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  deMinimisHeadroom,
  DomainError,
  downloadFileName,
  type HeadroomAid,
  type ReportKind,
} from '@rna/domain';
import { downloadProfile } from '../documents/profile';
import { reportQuerySchema } from '../documents/query-schema';
import { performLookUp, searchResult } from '../documents/search';
import { headroomAidOf } from '../de-minimis/headroom-aids';
import { undertakingAsked } from '../de-minimis/undertaking';
import type { ApiDeps } from '../http/deps';
import {
  defineRoute,
  reply,
  signedIn,
  type AnyRoute,
  type Principal,
  type Reply,
  type RouteContext,
} from '../http/route';
import { reportBranding } from './branding';
import { writeExcelReport } from './excel';
import { renderingPdf } from './pdf-failures';
import { preparePdfReport } from './pdf-report';
import type { ReportInput } from './report-input';
import { archiveExtent, issueReport } from './verification/issue';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function reportInput(
  deps: ApiDeps,
  principal: Principal,
  query: {
    taxCodes: string[];
    deMinimis: boolean;
    last3Years: boolean;
    group?: string;
    date?: string;
    regime?: string;
  },
  kind: ReportKind,
): Promise<ReportInput> {
  const { date, regime, group, taxCodes } = await undertakingAsked(deps, principal, query);
  const request = { taxCodes, deMinimis: query.deMinimis, last3Years: query.last3Years };
  const profile = await downloadProfile(deps, principal, kind);
  const branding = await reportBranding(deps, profile.logoId);
  // the code is recorded with the download, so that the report it is printed on can be verified
  const { verification, stamp } = issueReport(deps, branding);
  // The search's aids come from the look-up cache when the user just searched the same codes
  // (documents/aid-lookups); the download is decided, charged or refused, and recorded as always.
  // The headroom at the date: a group's together, else each company's own (never added up).
  const { result, remainingSearches } = await performLookUp(
    deps,
    profile,
    request,
    kind,
    (found, source, now, archiveAsOf) => {
      const aids = found.aids.map(headroomAidOf);
      // each company's own aids once, not every aid of the search for each company
      const byCode = new Map<string, HeadroomAid[]>();
      for (const aid of aids) {
        const own = byCode.get(aid.taxCode);
        if (own) own.push(aid);
        else byCode.set(aid.taxCode, [aid]);
      }
      const headrooms = group
        ? [
            {
              ...deMinimisHeadroom(request.taxCodes, aids, date, regime),
              group: { id: group.id, name: group.name },
            },
          ]
        : request.taxCodes.map((code) => ({
            ...deMinimisHeadroom([code], byCode.get(code) ?? [], date, regime),
            group: null,
          }));
      return {
        search: searchResult(request, source, found, now, archiveAsOf, group !== null),
        headrooms,
      };
    },
    (answer) => answer.search.rows.length,
    stamp,
  );
  return {
    result: remainingSearches === undefined ? result.search : { ...result.search, remainingSearches },
    headrooms: result.headrooms,
    branding,
    generatedAt: deps.clock(),
    verification,
    archive: await archiveExtent(deps),
  };
}

/**
 * Sends a file as it is produced. Past the first byte an error can no longer become an error
 * answer: the connection is cut, so that the client never takes a truncated file for a whole one.
 */
async function sendStreamed(
  ctx: Pick<RouteContext<unknown, unknown, unknown>, 'res' | 'deps'>,
  file: { contentType: string; fileName: string },
  write: (out: Writable) => Promise<void>,
): Promise<Reply> {
  const { res } = ctx;
  res.status(200);
  res.setHeader('Content-Type', file.contentType);
  res.attachment(file.fileName);
  try {
    await write(res);
  } catch (error) {
    // a client that went away is no failure of ours
    const clientGone = (error as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE';
    if (!clientGone) ctx.deps.logger.error({ err: error }, `${file.fileName} failed while streaming`);
    res.destroy();
  }
  return reply.handled();
}

export const reportsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/documents/sheet',
    access: 'signed-in',
    allowExpiredClient: true,
    tag: 'documents',
    summary: 'The search as an Excel file, aiuti-<codes>-<day>.xlsx (rows, totals, de minimis series)',
    query: reportQuerySchema,
    responses: { 200: { description: 'aiuti-<codes>-<day>.xlsx', contentType: XLSX } },
    async handler(ctx) {
      const input = await reportInput(ctx.deps, signedIn(ctx), ctx.query, 'sheet');
      const fileName = downloadFileName('aiuti', 'xlsx', input.generatedAt, input.result.taxCodes);
      return sendStreamed(ctx, { contentType: XLSX, fileName }, async (out) => {
        // through a pipe, so that a client going away also ends exceljs' wait for the end
        const zip = new PassThrough();
        await Promise.all([pipeline(zip, out), writeExcelReport(input, zip)]);
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/documents/pdf',
    access: 'signed-in',
    allowExpiredClient: true,
    tag: 'documents',
    summary:
      'The search as a PDF, aiuti-<codes>-<day>.pdf, branded with the client’s logo (pdfEnabled clients and ADMIN)',
    query: reportQuerySchema,
    responses: { 200: { description: 'aiuti-<codes>-<day>.pdf', contentType: 'application/pdf' } },
    async handler(ctx) {
      const input = await reportInput(ctx.deps, signedIn(ctx), ctx.query, 'pdf');
      const renderer = ctx.deps.pdfRenderer;
      if (!renderer) throw new DomainError('G001');
      const report = await renderingPdf(ctx.deps, 'PDF report', () => preparePdfReport(input, renderer));
      const fileName = downloadFileName('aiuti', 'pdf', input.generatedAt, input.result.taxCodes);
      return sendStreamed(ctx, { contentType: 'application/pdf', fileName }, (out) =>
        pipeline(Readable.from(report.chunks()), out),
      );
    },
  }),
];
