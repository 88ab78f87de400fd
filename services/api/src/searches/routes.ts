/** GET/PUT /users/saved-searches: the user's favourite searches, replaced as a whole. */
import { z } from 'zod';
import { projectionsCaughtUp } from '../http/deps';
import { defineRoute, reply, signedIn, type AnyRoute } from '../http/route';
import { listSavedSearches, replaceSavedSearches } from './saved-searches';

const savedSearchSchema = z.object({
  id: z.string(),
  taxCodes: z.array(z.string()),
  deMinimis: z.boolean(),
  last3Years: z.boolean(),
});
const savedList = { 200: { description: 'The saved searches', schema: z.array(savedSearchSchema) } };
const wantedSearch = z
  .object({
    taxCodes: z.union([z.string().max(2_000), z.array(z.string().max(100)).max(50)]),
    deMinimis: z.boolean(),
    last3Years: z.boolean(),
  })
  .strict();

export const savedSearchesRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/users/saved-searches',
    access: 'signed-in',
    allowExpiredClient: true,
    tag: 'searches',
    summary: 'The signed-in user’s saved searches',
    responses: savedList,
    async handler(ctx) {
      return reply.json(await listSavedSearches(ctx.deps.documents, signedIn(ctx).userId));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/users/saved-searches',
    access: 'signed-in',
    tag: 'searches',
    summary: 'Replace the saved searches ([] clears them)',
    body: z.array(wantedSearch).max(10),
    responses: savedList,
    async handler(ctx) {
      const saved = await replaceSavedSearches(ctx.deps, signedIn(ctx).userId, ctx.body);
      await projectionsCaughtUp(ctx.deps);
      return reply.json(saved);
    },
  }),
];
