/** /groups: the signed-in user's groups of companies counted as one undertaking (impresa unica). */
import { z } from 'zod';
import { searchProfile } from '../documents/profile';
import { projectionsCaughtUp, type ApiDeps } from '../http/deps';
import { defineRoute, reply, signedIn, type AnyRoute, type Principal } from '../http/route';
import { deleteGroup, findOwnGroup, listGroups, saveGroup, type GroupOwner } from './commands';

const groupSchema = z.object({
  id: z.string(),
  name: z.string(),
  members: z.array(z.object({ taxCode: z.string(), note: z.string() })),
  createdAt: z.number(),
  updatedAt: z.number(),
});

const groupBody = z
  .object({
    name: z.string({ error: 'I002' }).max(1_000, 'I002'),
    members: z
      .array(z.object({ taxCode: z.string().max(100), note: z.string().max(1_000).optional() }).strict(), {
        error: 'I002',
      })
      .max(1_000, 'I002'),
  })
  .strict();

const groupParams = z.object({ id: z.string().min(1).max(100) }).strict();

async function groupOwner(deps: ApiDeps, principal: Principal): Promise<GroupOwner> {
  const profile = await searchProfile(deps, principal);
  return { userId: principal.userId, fixedTaxCode: profile.fixedTaxCode };
}

export const groupsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/groups',
    access: 'signed-in',
    tag: 'groups',
    summary: 'The signed-in user’s groups of companies counted as one undertaking (impresa unica)',
    responses: { 200: { description: 'The groups', schema: z.array(groupSchema) } },
    async handler(ctx) {
      return reply.json(await listGroups(ctx.deps.documents, signedIn(ctx).userId));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/groups',
    access: 'signed-in',
    tag: 'groups',
    summary: 'Create a group (at most 50 a user, 1 to 100 companies each; I001, I002, T002)',
    body: groupBody,
    responses: { 201: { description: 'The new group', schema: groupSchema } },
    async handler(ctx) {
      const principal = signedIn(ctx);
      const { groupId } = await saveGroup(ctx.deps, await groupOwner(ctx.deps, principal), null, ctx.body);
      await projectionsCaughtUp(ctx.deps);
      return reply.json(await findOwnGroup(ctx.deps.documents, principal.userId, groupId), 201);
    },
  }),
  defineRoute({
    method: 'put',
    path: '/groups/:id',
    access: 'signed-in',
    tag: 'groups',
    summary: 'Replace one of the user’s groups (I003 for any other)',
    params: groupParams,
    body: groupBody,
    responses: { 200: { description: 'The group', schema: groupSchema } },
    async handler(ctx) {
      const principal = signedIn(ctx);
      await saveGroup(ctx.deps, await groupOwner(ctx.deps, principal), ctx.params.id, ctx.body);
      await projectionsCaughtUp(ctx.deps);
      return reply.json(await findOwnGroup(ctx.deps.documents, principal.userId, ctx.params.id));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/groups/:id',
    access: 'signed-in',
    tag: 'groups',
    summary: 'Delete one of the user’s groups (I003 for any other)',
    params: groupParams,
    responses: { 204: { description: 'Deleted' } },
    async handler(ctx) {
      const principal = signedIn(ctx);
      await deleteGroup(ctx.deps, await groupOwner(ctx.deps, principal), ctx.params.id);
      await projectionsCaughtUp(ctx.deps);
      return reply.noContent();
    },
  }),
];
