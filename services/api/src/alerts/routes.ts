/** /variation-alerts: be told by mail when a sync changes the aids of some tax codes. */
import { z } from 'zod';
import { searchProfile } from '../documents/profile';
import { findOwnGroup } from '../groups/commands';
import type { ApiDeps } from '../http/deps';
import { projectionsCaughtUp } from '../http/deps';
import { defineRoute, reply, signedIn, type AnyRoute, type Principal } from '../http/route';
import {
  addAlert,
  assertMayUseAlerts,
  listAlerts,
  removeAlert,
  withCompanies,
  type AlertOwner,
} from './variation-alerts';

const alertSchema = z.object({
  id: z.string(),
  taxCodes: z.array(z.string()),
  group: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.number(),
  lastNotification: z.object({ at: z.number(), changes: z.number() }).nullable(),
  /** each watched code with its company's name in the archive (null: no aid of it indexed) */
  companies: z.array(z.object({ taxCode: z.string(), name: z.string().nullable() })),
});

async function alertOwner(deps: ApiDeps, principal: Principal): Promise<AlertOwner> {
  const profile = await searchProfile(deps, principal);
  return {
    userId: principal.userId,
    role: principal.role,
    enableVariationAlerts: profile.enableVariationAlerts,
    fixedTaxCode: profile.fixedTaxCode,
  };
}

export const alertsRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/variation-alerts',
    access: 'signed-in',
    tag: 'alerts',
    summary:
      'The signed-in user’s variation alerts, with their last notification and the companies they watch',
    responses: { 200: { description: 'The alerts', schema: z.array(alertSchema) } },
    async handler(ctx) {
      const owner = await alertOwner(ctx.deps, signedIn(ctx));
      assertMayUseAlerts(owner);
      const alerts = await listAlerts(ctx.deps.documents, owner.userId);
      return reply.json(await withCompanies(ctx.deps.aidIndex, alerts));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/variation-alerts',
    access: 'signed-in',
    tag: 'alerts',
    summary:
      'Add a variation alert for some tax codes or one of the user’s groups (ADMIN, or clients with alerts enabled)',
    body: z
      .object({
        taxCodes: z.union([z.string().max(2_000), z.array(z.string().max(100)).max(50)]).optional(),
        /** one of the user's groups (impresa unica): a change to any member's aids is one alert */
        group: z.string().min(1).max(100).optional(),
      })
      .strict(),
    responses: { 201: { description: 'The new alert', schema: alertSchema } },
    async handler(ctx) {
      const principal = signedIn(ctx);
      const owner = await alertOwner(ctx.deps, principal);
      assertMayUseAlerts(owner);
      const group = ctx.body.group
        ? await findOwnGroup(ctx.deps.documents, principal.userId, ctx.body.group)
        : undefined;
      const alert = await addAlert(ctx.deps, owner, ctx.body.taxCodes ?? [], group);
      await projectionsCaughtUp(ctx.deps);
      const [named] = await withCompanies(ctx.deps.aidIndex, [alert]);
      return reply.json(named, 201);
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/variation-alerts/:id',
    access: 'signed-in',
    tag: 'alerts',
    summary: 'Remove one of the user’s variation alerts',
    params: z.object({ id: z.string().min(1).max(64) }).strict(),
    responses: { 204: { description: 'Removed' } },
    async handler(ctx) {
      const owner = await alertOwner(ctx.deps, signedIn(ctx));
      assertMayUseAlerts(owner);
      await removeAlert(ctx.deps, owner, ctx.params.id);
      await projectionsCaughtUp(ctx.deps);
      return reply.noContent();
    },
  }),
];
