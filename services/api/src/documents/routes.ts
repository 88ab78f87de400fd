/** GET /documents: the look-up by tax code (SearchResultDto). */
import { searchAnswer } from '@rna/domain';
import { z } from 'zod';
import { defineRoute, reply, signedIn, type AnyRoute } from '../http/route';
import { searchProfile } from './profile';
import { searchQuerySchema } from './query-schema';
import { countPaidRequest } from '../http/paid-work-limit';
import { performSearch, searchRequestFrom } from './search';

const searchResultSchema = z.object({
  taxCodes: z.array(z.string()),
  deMinimis: z.boolean(),
  last3Years: z.boolean(),
  dataSource: z.enum(['ARCHIVE', 'LIVE']),
  lastUpdate: z.number().nullable(),
  rows: z.array(
    z.object({
      id: z.string(),
      dataConcessione: z.string(),
      elementoDiAiuto: z.string(),
      isDeMinimis: z.boolean(),
      measure: z.number().int(),
      procedure: z.number().int(),
      beneficiary: z.number().int(),
    }),
  ),
  measures: z.array(z.string()),
  procedures: z.array(z.string()),
  beneficiaries: z.array(z.object({ taxCode: z.string(), name: z.string() })),
  stats: z.object({
    totalDocuments: z.number(),
    totalImport: z.number(),
    totalImportDeMinimis: z.number(),
    remainingDeMinimis: z.number(),
  }),
  deMinimisSeries: z.array(z.object({ month: z.string(), total: z.number(), remaining: z.number() })),
  remainingSearches: z.number().optional(),
});

export const documentsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/documents',
    access: 'signed-in',
    // Expiry is decided on the quota stream itself, so that the refusal is recorded for the audit.
    allowExpiredClient: true,
    tag: 'documents',
    summary: 'State aid of one or more tax codes, with totals and the 36-month de minimis series',
    query: searchQuerySchema,
    responses: { 200: { description: 'The search result', schema: searchResultSchema } },
    async handler(ctx) {
      const request = searchRequestFrom(ctx.query);
      await countPaidRequest(ctx.deps, signedIn(ctx).userId);
      const profile = await searchProfile(ctx.deps, signedIn(ctx));
      return reply.json(searchAnswer(await performSearch(ctx.deps, profile, request)));
    },
  }),
];
