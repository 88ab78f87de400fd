/** GET /health: version and whether each store answers (no auth; for load balancers and ops). */
import type { HealthDto } from '@rna/domain';
import type { ApiDeps } from '../http/deps';
import { defineRoute, reply, type AnyRoute } from '../http/route';
import { healthSchema } from '../http/schemas';

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'error'> {
  try {
    await check();
    return 'ok';
  } catch {
    return 'error';
  }
}

export async function checkHealth(deps: ApiDeps): Promise<HealthDto> {
  const stores: Record<string, 'ok' | 'error'> = {
    eventStore: await probe(() => deps.eventStore.readAll({ after: 0, maxCount: 1 })),
    documents: await probe(() => deps.documents.collection('users').count()),
    aidIndex: await probe(() => deps.aidIndex.count()),
    blobs: await probe(() => deps.blobs.exists('health-probe')),
  };
  const healthy = Object.values(stores).every((s) => s === 'ok');
  return { status: healthy ? 'ok' : 'degraded', version: deps.config.version, stores };
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
      const health = await checkHealth(deps);
      return reply.json(health, health.status === 'ok' ? 200 : 503);
    },
  }),
];
