/** The data source switch (ADMIN): archive or the register's live look-up. */
import { z } from 'zod';
import type { DataSourceStatusDto } from '@rna/domain';
import type { ApiDeps } from '../http/deps';
import { actorOf, defineRoute, reply, signedIn, type AnyRoute } from '../http/route';
import { readDataSource, setDataSource, toggleDataSource, type DataSourceSetting } from './settings';

const statusSchema = z.object({ useLiveData: z.boolean(), lastUpdate: z.number().nullable() });

/** lastUpdate: -1 while live (SPEC §4), else when the archive was last synchronised. */
async function statusOf(deps: ApiDeps, setting: DataSourceSetting): Promise<DataSourceStatusDto> {
  if (setting.useLiveData) return { useLiveData: true, lastUpdate: -1 };
  return { useLiveData: false, lastUpdate: deps.archiveLastUpdate ? await deps.archiveLastUpdate() : null };
}

export const dataSourceRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/documents/data-source-status',
    access: 'ADMIN',
    tag: 'documents',
    summary: 'Whether searches use the archive or the register’s live data',
    responses: { 200: { description: 'The data source', schema: statusSchema } },
    async handler({ deps }) {
      return reply.json(await statusOf(deps, await readDataSource(deps.eventStore)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/documents/data-source',
    access: 'ADMIN',
    tag: 'documents',
    summary: 'Set searches to the archive or to the register’s live data (idempotent)',
    body: z.object({ useLiveData: z.boolean() }).strict(),
    responses: { 200: { description: 'The data source now', schema: statusSchema } },
    async handler(ctx) {
      const setting = await setDataSource(
        ctx.deps.eventStore,
        actorOf(signedIn(ctx)),
        ctx.deps.clock(),
        ctx.body.useLiveData,
      );
      return reply.json(await statusOf(ctx.deps, setting));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/documents/toggle-data-source',
    access: 'ADMIN',
    tag: 'documents',
    summary: 'Switch searches between the archive and the register’s live data',
    responses: { 200: { description: 'The data source after the switch', schema: statusSchema } },
    async handler(ctx) {
      const setting = await toggleDataSource(ctx.deps.eventStore, actorOf(signedIn(ctx)), ctx.deps.clock());
      return reply.json(await statusOf(ctx.deps, setting));
    },
  }),
];
