/** GET /audit/clients/{id}/history (ADMIN): the replay of a client's quota stream. */
import { z } from 'zod';
import { defineRoute, reply, type AnyRoute } from '../http/route';
import { clientAuditHistory, MAX_HISTORY_PAGE, userAuditHistory } from './history';

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

/** ?at=&from=&limit=: the state as of `at`, and `limit` entries from stream version `from`. */
const historyQuery = z
  .object({
    at: asOf,
    from: z.coerce.number().int().min(0).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_HISTORY_PAGE).optional(),
  })
  .strict();

export const auditRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/audit/clients/:id/history',
    access: 'ADMIN',
    tag: 'audit',
    summary:
      'Every search, download, refusal and allowance change of a client, and its remaining searches as of `at`, a page at a time (`from`, `limit`)',
    params: z.object({ id: z.string().min(1).max(64) }).strict(),
    query: historyQuery,
    responses: { 200: { description: 'The history' } },
    async handler(ctx) {
      return reply.json(
        await clientAuditHistory(ctx.deps.eventStore, ctx.params.id, ctx.query.at, ctx.query),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/audit/users/:id/history',
    access: 'ADMIN',
    tag: 'audit',
    summary: 'Every search and download of an administrator (never charged, always recorded) as of `at`',
    params: z.object({ id: z.string().min(1).max(64) }).strict(),
    query: historyQuery,
    responses: { 200: { description: 'The history' } },
    async handler(ctx) {
      return reply.json(await userAuditHistory(ctx.deps.eventStore, ctx.params.id, ctx.query.at, ctx.query));
    },
  }),
];
