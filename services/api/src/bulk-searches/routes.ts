/** /bulk-searches: Ricerca massiva — preview a list, run it as a job, follow it, download its results. */
import { z } from 'zod';
import { BULK_MAX_CODES, BULK_MAX_FILE_BYTES } from '@rna/domain';
import { countPaidRequest } from '../http/paid-work-limit';
import { defineRoute, reply, signedIn, type AnyRoute } from '../http/route';
import {
  downloadBulkResult,
  getBulkJob,
  listBulkJobs,
  previewBulkSearch,
  requestBulkSearch,
} from './commands';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** A pasted list or 5,000 codes with their separators fit well within it. */
const BULK_JSON_LIMIT = '1mb';

const previewSchema = z.object({
  sourceName: z.string(),
  column: z.string().nullable(),
  columns: z.array(z.string()),
  taxCodes: z.array(z.string()),
  warnings: z.array(z.object({ taxCode: z.string(), reason: z.literal('CHECK_DIGIT') })),
  ignored: z.array(z.string()),
  ignoredCount: z.number(),
  duplicates: z.number(),
  groups: z.array(z.object({ taxCode: z.string(), group: z.string() })),
  newToday: z.number(),
  cost: z.number(),
  remainingSearches: z.number().nullable(),
  affordable: z.boolean(),
});

const jobSchema = z.object({
  jobId: z.string(),
  sourceName: z.string(),
  status: z.enum(['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'EXPIRED']),
  totalCodes: z.number(),
  doneCodes: z.number(),
  cost: z.number(),
  requestedAt: z.string(),
  completedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  companiesWithAids: z.number().nullable(),
  aids: z.number().nullable(),
  overCeiling: z.number().nullable(),
  failureCode: z.string().nullable(),
  downloaded: z.boolean(),
});

const jobParams = z.object({ jobId: z.string().min(1).max(100) });

export const bulkSearchesRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/bulk-searches/preview',
    access: 'signed-in',
    tag: 'bulk-searches',
    summary:
      'What a list of tax codes holds (an .xlsx or CSV file in `file`, or JSON { text, column? }) and what running it would cost; nothing is kept or charged',
    upload: { field: 'file', maxBytes: BULK_MAX_FILE_BYTES, errorCode: 'B004', orJson: true },
    jsonLimit: BULK_JSON_LIMIT,
    body: z.object({ text: z.string().optional(), column: z.string().max(200).optional() }),
    responses: { 200: { description: 'The preview', schema: previewSchema } },
    async handler(ctx) {
      // reading a 5 MB workbook is work like a search's: counted in the same per-user budget
      await countPaidRequest(ctx.deps, signedIn(ctx).userId);
      return reply.json(
        await previewBulkSearch(ctx.deps, signedIn(ctx), {
          file: ctx.file,
          text: ctx.body.text,
          column: ctx.body.column,
        }),
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/bulk-searches',
    access: 'signed-in',
    tag: 'bulk-searches',
    summary:
      'Runs a previewed list as a background job; a client is charged for the codes not looked up today',
    jsonLimit: BULK_JSON_LIMIT,
    body: z.object({
      taxCodes: z.array(z.string().max(100)).max(BULK_MAX_CODES * 2),
      sourceName: z.string().max(500).default(''),
      groups: z
        .array(z.object({ taxCode: z.string().max(100), group: z.string().max(200) }).strict())
        .max(BULK_MAX_CODES * 2)
        .optional(),
    }),
    responses: { 202: { description: 'The job, queued', schema: jobSchema } },
    async handler(ctx) {
      const principal = signedIn(ctx);
      await countPaidRequest(ctx.deps, principal.userId);
      return reply.json(await requestBulkSearch(ctx.deps, principal, ctx.body), 202);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/bulk-searches',
    access: 'signed-in',
    tag: 'bulk-searches',
    summary: 'The signed-in user’s bulk searches, newest first',
    responses: { 200: { description: 'The jobs', schema: z.array(jobSchema) } },
    async handler(ctx) {
      return reply.json(await listBulkJobs(ctx.deps, signedIn(ctx)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/bulk-searches/:jobId',
    access: 'signed-in',
    tag: 'bulk-searches',
    summary: 'One of the signed-in user’s bulk searches, with its progress',
    params: jobParams,
    responses: { 200: { description: 'The job', schema: jobSchema } },
    async handler(ctx) {
      return reply.json(await getBulkJob(ctx.deps, signedIn(ctx), ctx.params.jobId));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/bulk-searches/:jobId/sheet',
    access: 'signed-in',
    tag: 'bulk-searches',
    summary: 'The result workbook (one row per company, every aid); audited, never charged',
    params: jobParams,
    responses: { 200: { description: 'ricerca-massiva-YYYY-MM-DD.xlsx', contentType: XLSX } },
    async handler(ctx) {
      const principal = signedIn(ctx);
      await countPaidRequest(ctx.deps, principal.userId);
      return reply.file(await downloadBulkResult(ctx.deps, principal, ctx.params.jobId, 'sheet'));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/bulk-searches/:jobId/pdf',
    access: 'signed-in',
    tag: 'bulk-searches',
    summary: 'The branded PDF summary (pdfEnabled clients and ADMIN); audited, never charged',
    params: jobParams,
    responses: { 200: { description: 'ricerca-massiva-YYYY-MM-DD.pdf', contentType: 'application/pdf' } },
    async handler(ctx) {
      const principal = signedIn(ctx);
      await countPaidRequest(ctx.deps, principal.userId);
      return reply.file(await downloadBulkResult(ctx.deps, principal, ctx.params.jobId, 'pdf'));
    },
  }),
];
