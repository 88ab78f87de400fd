/**
 * /sync routes (ADMIN; the last-update banner value is for any signed-in user).
 * Starting a run needs the sync command of @rna/sync, which the composition root passes as
 * `requestSync` on the API deps (the API package does not depend on the worker's package).
 */
import { z } from 'zod';
import { DomainError } from '@rna/domain';
import type { ApiDeps } from '../http/deps';
import { actorOf, defineRoute, reply, signedIn, type AnyRoute } from '../http/route';
import {
  getArchiveStats,
  getDocumentsUpdate,
  getLastRnaSync,
  getSyncResults,
  getSyncStatus,
  startSync,
  startSyncBody,
  type SyncHandlerDeps,
} from './handlers';

/** What the composition root adds to ApiDeps for this feature. */
export type SyncApiDeps = Pick<ApiDeps, 'requestSync'>;

function handlerDeps(deps: ApiDeps): SyncHandlerDeps {
  const requestSync = deps.requestSync;
  return {
    eventStore: deps.eventStore,
    documents: deps.documents,
    aidIndex: deps.aidIndex,
    requestSync:
      requestSync ??
      (async () => {
        throw new DomainError('G001', 'Sincronizzazione non configurata');
      }),
  };
}

export const syncRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/sync',
    access: 'ADMIN',
    tag: 'sync',
    summary: 'Start a sync of the archive (S001 when one is already running)',
    body: startSyncBody,
    responses: { 200: { description: 'The requested run' } },
    async handler(ctx) {
      return reply.json(await startSync(handlerDeps(ctx.deps), actorOf(signedIn(ctx)), ctx.body));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/sync/status',
    access: 'ADMIN',
    tag: 'sync',
    summary: 'Whether a sync runs, and the progress of its files',
    responses: { 200: { description: 'Sync status' } },
    async handler({ deps }) {
      return reply.json(await getSyncStatus(handlerDeps(deps)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/sync/results',
    access: 'ADMIN',
    tag: 'sync',
    summary: 'Sync history, newest first',
    responses: { 200: { description: 'Sync runs' } },
    async handler({ deps }) {
      return reply.json(await getSyncResults(handlerDeps(deps)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/sync/documents-update',
    access: 'ADMIN',
    tag: 'sync',
    summary: 'Register archive files with their last update, newest first',
    responses: { 200: { description: 'Archive files' } },
    async handler({ deps }) {
      return reply.json(await getDocumentsUpdate(handlerDeps(deps)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/sync/archive-stats',
    access: 'ADMIN',
    tag: 'sync',
    summary: 'Documents in the archive and the last successful sync',
    responses: { 200: { description: 'Archive stats' } },
    async handler({ deps }) {
      return reply.json(await getArchiveStats(handlerDeps(deps)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/sync/last-rna-sync',
    access: 'signed-in',
    tag: 'sync',
    summary: 'When the archive last changed (ms), null if never, -1 in live data mode',
    responses: {
      200: {
        description: 'Last update (ms), null if never, -1 in live data mode',
        schema: z.number().nullable(),
      },
    },
    async handler({ deps }) {
      return reply.json(await getLastRnaSync(handlerDeps(deps)));
    },
  }),
];
