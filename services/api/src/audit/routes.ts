/** GET /audit/clients/{id}/history (ADMIN): the replay of a client's quota stream. */
import { z } from 'zod';
import { defineRoute, reply, type AnyRoute } from '../http/route';
import { clientAuditHistory, userAuditHistory } from './history';

const asOf = z
  .string()
  .max(40)
  .optional()
  .transform((text, ctx) => {
    if (text === undefined) return null;
    const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
    if (!Number.isFinite(ms)) {
      ctx.addIssue({ code: 'custom', message: 'data non valida' });
      return z.NEVER;
    }
    return ms;
  });

export const auditRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/audit/clients/:id/history',
    access: 'ADMIN',
    tag: 'audit',
    summary:
      'Every search, download, refusal and allowance change of a client, and its remaining searches as of `at`',
    params: z.object({ id: z.string().min(1).max(64) }).strict(),
    query: z.object({ at: asOf }).strict(),
    responses: { 200: { description: 'The history' } },
    async handler(ctx) {
      return reply.json(await clientAuditHistory(ctx.deps.eventStore, ctx.params.id, ctx.query.at));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/audit/users/:id/history',
    access: 'ADMIN',
    tag: 'audit',
    summary: 'Every search and download of an administrator (never charged, always recorded) as of `at`',
    params: z.object({ id: z.string().min(1).max(64) }).strict(),
    query: z.object({ at: asOf }).strict(),
    responses: { 200: { description: 'The history' } },
    async handler(ctx) {
      return reply.json(await userAuditHistory(ctx.deps.eventStore, ctx.params.id, ctx.query.at));
    },
  }),
];
