/**
 * GET /de-minimis/headroom: how much de minimis aid of a regime an undertaking (some tax codes, or
 * one of the user's groups) may still receive if granted on a planned date, as the law counts it
 * (domain/src/de-minimis-regimes.ts). Charged like a search of those codes, refused like one, audited.
 */
import { z } from 'zod';
import { deMinimisHeadroom, type HeadroomDto } from '@rna/domain';
import { searchProfile } from '../documents/profile';
import { headroomAidOf } from './headroom-aids';
import { performLookUp } from '../documents/search';
import { countPaidRequest } from '../http/paid-work-limit';
import { defineRoute, reply, signedIn, type AnyRoute } from '../http/route';
import { undertakingAsked, undertakingQuerySchema } from './undertaking';

const amounts = z.object({
  GENERAL: z.string(),
  AGRICULTURE: z.string(),
  FISHERIES: z.string(),
  SIEG: z.string(),
});
const regime = z.enum(['GENERAL', 'AGRICULTURE', 'FISHERIES', 'SIEG']);
const headroomSchema = z.object({
  taxCodes: z.array(z.string()),
  date: z.string(),
  regime,
  windowStart: z.string(),
  usedByRegime: amounts,
  limits: z.array(
    z.object({ ceiling: z.string(), regimes: z.array(regime), used: z.string(), remaining: z.string() }),
  ),
  headroom: z.string(),
  releases: z.array(z.object({ date: z.string(), amount: z.string() })),
  perCompany: z.array(z.object({ taxCode: z.string(), name: z.string().nullable(), usedByRegime: amounts })),
  unknownRegulationAids: z.number(),
  group: z.object({ id: z.string(), name: z.string() }).nullable(),
  remainingSearches: z.number().optional(),
});

export const deMinimisRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/de-minimis/headroom',
    access: 'signed-in',
    allowExpiredClient: true,
    tag: 'documents',
    summary:
      'De minimis headroom of an undertaking (taxCodes or group) for a planned grant date and regime; charged like a search',
    query: undertakingQuerySchema,
    responses: { 200: { description: 'The headroom', schema: headroomSchema } },
    async handler(ctx) {
      const principal = signedIn(ctx);
      // D001 / D002 / J001 / I003 / T00x before anything is charged
      const {
        date,
        regime: regimeAsked,
        group,
        taxCodes,
      } = await undertakingAsked(ctx.deps, principal, ctx.query);
      await countPaidRequest(ctx.deps, principal.userId);
      const profile = await searchProfile(ctx.deps, principal);
      const { result, remainingSearches } = await performLookUp(
        ctx.deps,
        profile,
        { taxCodes, deMinimis: true, last3Years: false },
        'search',
        (found): HeadroomDto => ({
          ...deMinimisHeadroom(taxCodes, found.aids.map(headroomAidOf), date, regimeAsked),
          group: group ? { id: group.id, name: group.name } : null,
        }),
        // the audit records how many companies the answer covers
        (answer) => answer.perCompany.length,
      );
      return reply.json(remainingSearches === undefined ? result : { ...result, remainingSearches });
    },
  }),
];
