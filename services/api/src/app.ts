/**
 * The API: every feature's routes in ONE list, built into an express router (mounted at /api by
 * the composition root) and described by /openapi.json from the same definitions.
 * To add a feature: export its `AnyRoute[]` from its folder and add it to FEATURE_ROUTES.
 */
import type { Router } from 'express';
import { alertsRoutes } from './alerts/routes';
import { deMinimisRoutes } from './de-minimis/routes';
import { declarationsRoutes } from './declarations/routes';
import { groupsRoutes } from './groups/routes';
import { auditRoutes } from './audit/routes';
import { authRoutes } from './auth/routes';
import { bulkSearchesRoutes } from './bulk-searches/routes';
import { clientsRoutes } from './clients/routes';
import { dataSourceRoutes } from './data-source/routes';
import { documentsRoutes } from './documents/routes';
import { healthRoutes } from './health/routes';
import type { ApiDeps } from './http/deps';
import { buildOpenApiDocument } from './http/openapi';
import { buildRouter } from './http/registry';
import { defineRoute, reply, type AnyRoute } from './http/route';
import { logosRoutes } from './logos/routes';
import { reportsRoutes } from './reports/routes';
import { verificationRoutes } from './reports/verification/routes';
import { savedSearchesRoutes } from './searches/routes';
import { syncRoutes } from './sync/routes';
import { usersRoutes } from './users/routes';

export const FEATURE_ROUTES: readonly (readonly AnyRoute[])[] = [
  healthRoutes,
  authRoutes,
  usersRoutes,
  clientsRoutes,
  logosRoutes,
  // search feature: data-source and reports before /documents (more specific paths first)
  dataSourceRoutes,
  reportsRoutes,
  verificationRoutes,
  documentsRoutes,
  savedSearchesRoutes,
  alertsRoutes,
  groupsRoutes,
  deMinimisRoutes,
  declarationsRoutes,
  bulkSearchesRoutes,
  auditRoutes,
  syncRoutes,
];

/** Every registered route, /openapi.json included. */
export function apiRoutes(): AnyRoute[] {
  const routes: AnyRoute[] = FEATURE_ROUTES.flat();
  const openApiRoute = defineRoute({
    method: 'get',
    path: '/openapi.json',
    access: 'anonymous',
    tag: 'meta',
    summary: 'This API as an OpenAPI 3.1 document',
    responses: { 200: { description: 'OpenAPI document' } },
    async handler({ deps }) {
      return reply.json(buildOpenApiDocument(routes, { version: deps.config.version }));
    },
  });
  routes.push(openApiRoute);
  return routes;
}

export function createApiRouter(deps: ApiDeps): Router {
  return buildRouter(apiRoutes(), deps);
}
