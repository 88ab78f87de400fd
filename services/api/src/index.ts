export { apiRoutes, createApiRouter, FEATURE_ROUTES } from './app';
export type { ApiConfig, ApiDeps, AuthLimits } from './http/deps';
export { DEFAULT_AUTH_LIMITS } from './http/deps';
export { DEFAULT_PAID_REQUESTS_PER_MINUTE, DEFAULT_WRITE_REQUESTS_PER_MINUTE } from './http/paid-work-limit';
export { createApiLogger, REDACTED_PATHS } from './http/logger';
export { buildOpenApiDocument } from './http/openapi';
export { buildRouter } from './http/registry';
export { sendError } from './http/errors';
export { defineRoute, reply, signedIn, actorOf } from './http/route';
export type { Access, AnyRoute, Principal, Reply, RouteContext, RouteDefinition } from './http/route';
export { ensureFirstAdmin, type FirstAdminResult } from './auth/first-admin';
export { ensureDefaultLogo } from './logos/commands';
export { accountProjections } from '@rna/read-models/accounts';
export { startVariationAlertNotifier } from './alerts/notifier';
export { archiveLastUpdateReader, lastArchiveChange } from './sync/handlers';
export {
  startWebServer,
  createWebApp,
  type RunningWebServer,
  type WebServerOptions,
} from './http/web-server';
export { requestSync, type RequestSyncInput } from './sync/request-sync';
export { composeApi, type ComposeApiOptions, type RunningApi } from './compose-api';
