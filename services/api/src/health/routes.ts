/** GET /health: version and whether each store answers (no auth; for load balancers and ops). */
import type { HealthDto } from '@rna/domain';
import { countDeadLetters } from '@rna/infra/dead-letters';
import { USERS_COLLECTION } from '@rna/read-models/accounts';
import type { ApiDeps } from '../http/deps';
import { indexingOfRun, latestSyncRun, missingAids } from '../sync/indexing';
import { defineRoute, reply, type AnyRoute } from '../http/route';
import { recentValue, type RecentValue } from '../http/recent-value';
import { healthSchema } from '../http/schemas';

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'error'> {
  try {
    await check();
    return 'ok';
  } catch {
    return 'error';
  }
}

/** How long one health figure answers every caller: anonymous calls must not drive the stores. */
export const HEALTH_REUSE_MS = 2_000;

/** One look-up per store, each bounded by an index (no count of a whole collection or index). */
export async function checkHealth(deps: ApiDeps): Promise<HealthDto> {
  const stores: Record<string, 'ok' | 'error'> = {
    eventStore: await probe(() => deps.eventStore.readAll({ after: 0, maxCount: 1 })),
    documents: await probe(() => deps.documents.collection(USERS_COLLECTION).get('health-probe')),
    aidIndex: await probe(() => deps.aidIndex.get('health-probe')),
    blobs: await probe(() => deps.blobs.exists('health-probe')),
  };
  const healthy = Object.values(stores).every((s) => s === 'ok');
  const deadLetters = await countDeadLetters(deps.documents).catch(() => 0);
  return {
    status: healthy ? 'ok' : 'degraded',
    version: deps.config.version,
    stores,
    deadLetters,
    indexing: await indexingHealth(deps).catch(() => ({ complete: false, missingAids: 0, pendingAids: 0 })),
  };
}

/** Whether every aid published is searchable: none lost on the way, the latest sync's all applied. */
async function indexingHealth(deps: ApiDeps): Promise<HealthDto['indexing']> {
  const latest = await latestSyncRun(deps.documents);
  const { published, indexed } = latest
    ? await indexingOfRun(deps.documents, latest)
    : { published: 0, indexed: 0 };
  const missing = await missingAids(deps.documents);
  return {
    complete: missing === 0 && indexed >= published,
    missingAids: missing,
    pendingAids: published - indexed,
  };
}

const recentHealth = new WeakMap<ApiDeps, RecentValue<HealthDto>>();

function cachedHealth(deps: ApiDeps): Promise<HealthDto> {
  let recent = recentHealth.get(deps);
  if (!recent) {
    recent = recentValue(
      HEALTH_REUSE_MS,
      () => checkHealth(deps),
      () => deps.clock().getTime(),
    );
    recentHealth.set(deps, recent);
  }
  return recent.get();
}

export const healthRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/health',
    access: 'anonymous',
    tag: 'health',
    summary: 'Service health (503 when a store does not answer)',
    responses: {
      200: { description: 'Healthy', schema: healthSchema },
      503: { description: 'Degraded', schema: healthSchema },
    },
    async handler({ deps }) {
      const health = await cachedHealth(deps);
      return reply.json(health, health.status === 'ok' ? 200 : 503);
    },
  }),
];
