/** GET /audit/{clients|users}/{id}/history[.xlsx] (ADMIN): the replay of a client's quota stream or an administrator's audit stream. */
import { z } from 'zod';
import { downloadFileName } from '@rna/domain';
import { defineRoute, reply, type AnyRoute } from '../http/route';
import {
  allHistoryEntries,
  clientAuditHistory,
  MAX_HISTORY_PAGE,
  subjectEmail,
  userAuditHistory,
  type ClientAuditHistory,
  type HistoryPage,
} from './history';
import { auditHistoryWorkbook } from './history-sheet';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

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

/** A range whose start is after its end lists nothing by mistake: refused (J001, as any bad input). */
const ordered = (q: { since: number | null; at: number | null }): boolean =>
  q.since === null || q.at === null || q.since <= q.at;
const REVERSED_RANGE = {
  message: 'la data iniziale (since) è successiva alla data finale (at)',
  path: ['since'],
};

/**
 * ?at=&since=&from=&limit=&order=: the state as of `at`, and `limit` entries from stream version
 * `from` made at or after `since` (a date range, `since` to `at`), oldest or newest first.
 */
const historyQuery = z
  .object({
    at: asOf,
    since: asOf,
    from: z.coerce.number().int().min(0).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_HISTORY_PAGE).optional(),
    /** newest first: `from` is then the newest version listed, and `nextFrom` goes back in time */
    order: z.enum(['asc', 'desc']).optional(),
  })
  .strict()
  .refine(ordered, REVERSED_RANGE);

const rangeQuery = z.object({ at: asOf, since: asOf }).strict().refine(ordered, REVERSED_RANGE);
const idParams = z.object({ id: z.string().min(1).max(64) }).strict();

type HistoryOf = (
  eventStore: Parameters<typeof clientAuditHistory>[0],
  id: string,
  at: number | null,
  page: HistoryPage,
) => Promise<ClientAuditHistory>;

/** The Excel export of a history in a date range: every entry, read a page at a time. */
function historySheetRoute(
  path: string,
  subject: { label: string; stream: 'client' | 'user' },
  historyOf: HistoryOf,
): AnyRoute {
  return defineRoute({
    method: 'get',
    path,
    access: 'ADMIN',
    tag: 'audit',
    summary: `The ${subject.label} history from \`since\` to \`at\` as an Excel file (registro-attivita-<day>.xlsx)`,
    params: idParams,
    query: rangeQuery,
    responses: { 200: { description: 'registro-attivita-<day>.xlsx', contentType: XLSX } },
    async handler(ctx) {
      const { at, since } = ctx.query;
      const history = await allHistoryEntries(
        (page) => historyOf(ctx.deps.eventStore, ctx.params.id, at, page),
        since,
      );
      // named by its address, as the screen's subject list does; the id only when none is known
      const email = await subjectEmail(ctx.deps.eventStore, subject.stream, ctx.params.id);
      const now = ctx.deps.clock();
      const bytes = await auditHistoryWorkbook(`${subject.label} ${email ?? ctx.params.id}`, history, now);
      return reply.file({
        contentType: XLSX,
        fileName: downloadFileName('registro-attivita', 'xlsx', now),
        bytes,
      });
    },
  });
}

export const auditRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/audit/clients/:id/history',
    access: 'ADMIN',
    tag: 'audit',
    summary:
      'Every search, download, refusal and allowance change of a client, and its remaining searches as of `at`, a page at a time (`from`, `limit`, `order`)',
    params: idParams,
    query: historyQuery,
    responses: { 200: { description: 'The history' } },
    async handler(ctx) {
      return reply.json(
        await clientAuditHistory(ctx.deps.eventStore, ctx.params.id, ctx.query.at, ctx.query),
      );
    },
  }),
  historySheetRoute(
    '/audit/clients/:id/history.xlsx',
    { label: 'Cliente', stream: 'client' },
    clientAuditHistory,
  ),
  historySheetRoute(
    '/audit/users/:id/history.xlsx',
    { label: 'Amministratore', stream: 'user' },
    userAuditHistory,
  ),
  defineRoute({
    method: 'get',
    path: '/audit/users/:id/history',
    access: 'ADMIN',
    tag: 'audit',
    summary: 'Every search and download of an administrator (never charged, always recorded) as of `at`',
    params: idParams,
    query: historyQuery,
    responses: { 200: { description: 'The history' } },
    async handler(ctx) {
      return reply.json(await userAuditHistory(ctx.deps.eventStore, ctx.params.id, ctx.query.at, ctx.query));
    },
  }),
];
