/** GET /documents: the look-up by tax code (SearchResultDto). */
import { searchAnswer } from '@rna/domain';
import { z } from 'zod';
import { defineRoute, reply, signedIn, type AnyRoute } from '../http/route';
import { searchProfile } from './profile';
import { searchQuerySchema } from './query-schema';
import { countPaidRequest } from '../http/paid-work-limit';
import { findOwnGroup } from '../groups/commands';
import { performSearch, searchRequestFrom } from './search';

const searchResultSchema = z.object({
  taxCodes: z.array(z.string()),
  deMinimis: z.boolean(),
  last3Years: z.boolean(),
  dataSource: z.enum(['ARCHIVE', 'LIVE']),
  lastUpdate: z.number().nullable(),
  rows: z.array(
    z.object({
      idComponenteAiuto: z.string(),
      dataConcessione: z.string(),
      desProcedimento: z.string(),
      isDeMinimis: z.boolean(),
      elementoDiAiuto: z.string(),
      measure: z.number().int(),
      beneficiary: z.number().int(),
    }),
  ),
  measures: z.array(z.string()),
  beneficiaries: z.array(z.object({ taxCode: z.string(), name: z.string() })),
  details: z
    .object({
      cor: z.array(z.string()),
      car: z.array(z.string()),
      cup: z.array(z.string()),
      importoNominale: z.array(z.string()),
      titoloProgetto: z.array(z.string()),
      grantor: z.array(z.number().int()),
      regulation: z.array(z.number().int()),
      grantors: z.array(z.string()),
      regulations: z.array(z.object({ code: z.string(), text: z.string() })),
    })
    .optional(),
  stats: z.object({
    totalDocuments: z.number(),
    totalImport: z.number(),
    totalImportDeMinimis: z.number(),
    remainingDeMinimis: z.number(),
  }),
  deMinimisSeries: z.array(z.object({ month: z.string(), total: z.number(), remaining: z.number() })),
  deMinimisOf: z.object({ taxCode: z.string(), name: z.string() }).nullable().optional(),
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
    summary:
      'State aid of one or more tax codes, with totals and the 36-month de minimis series (details=true: each aid’s references)',
    query: searchQuerySchema,
    responses: { 200: { description: 'The search result', schema: searchResultSchema } },
    async handler(ctx) {
      const principal = signedIn(ctx);
      // a group's members are searched as one undertaking: its allowance is one (I003: not the user's)
      const group = ctx.query.group
        ? await findOwnGroup(ctx.deps.documents, principal.userId, ctx.query.group)
        : null;
      const request = searchRequestFrom(
        group ? { ...ctx.query, taxCodes: group.members.map((member) => member.taxCode) } : ctx.query,
      );
      await countPaidRequest(ctx.deps, principal.userId);
      const profile = await searchProfile(ctx.deps, principal);
      const result = await performSearch(ctx.deps, profile, request, 'search', group !== null);
      return reply.json(searchAnswer(result, { details: ctx.query.details }));
    },
  }),
];
