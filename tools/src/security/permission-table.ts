/**
 * Who may call which route, written from SPEC §6 (roles and permissions), §2 (screens and their
 * access) and §7 (the calls), not read from the routes' own declarations: a route that declares the
 * wrong access fails against this table, and a route without a row here fails too.
 */
export type Caller = 'anonymous' | 'client' | 'expiredClient' | 'fixedCodeClient' | 'admin';
export const CALLERS: readonly Caller[] = [
  'anonymous',
  'client',
  'expiredClient',
  'fixedCodeClient',
  'admin',
];

/** 'ok' = let through (any answer but 401/403, and never a 5xx); otherwise the refusal's code. */
export type Outcome = 'ok' | 'A001' | 'P001' | 'A002';
export type PermissionRow = Record<Caller, Outcome>;

/** Public: sign-in, password reset, health, the API description and the logo images. */
const ANYONE: PermissionRow = {
  anonymous: 'ok',
  client: 'ok',
  expiredClient: 'ok',
  fixedCodeClient: 'ok',
  admin: 'ok',
};
/** ADMIN only (§6: clients, logos, PDF config, data source, sync, audit). */
const ADMIN_ONLY: PermissionRow = {
  anonymous: 'A001',
  client: 'P001',
  expiredClient: 'P001',
  fixedCodeClient: 'P001',
  admin: 'ok',
};
/** Any signed-in user; a client whose access ended is refused with A002 (§8). */
const SIGNED_IN: PermissionRow = {
  anonymous: 'A001',
  client: 'ok',
  expiredClient: 'A002',
  fixedCodeClient: 'ok',
  admin: 'ok',
};
/** Any signed-in user, an expired client included: it must see who it is and why it is refused. */
const SIGNED_IN_EVEN_EXPIRED: PermissionRow = { ...SIGNED_IN, expiredClient: 'ok' };
/**
 * Looking a tax code up (search, reports, alerts on it): signed in, access not ended, and a client
 * with a fixed tax code only that code (§6) — the probes ask for another one.
 */
const LOOK_UP: PermissionRow = { ...SIGNED_IN, fixedCodeClient: 'P001' };
/** A client's own profile with its remaining searches (§7 /clients/me): clients only. */
const CLIENT_SELF: PermissionRow = {
  anonymous: 'A001',
  client: 'ok',
  expiredClient: 'ok',
  fixedCodeClient: 'ok',
  admin: 'P001',
};

/**
 * The calls SPEC §7 names, with the access §6 and §2 give them. A route the spec names cannot
 * disappear from the portal: every row must be a route of the registry (attack.int.test.ts checks
 * both ways). Where §7 leaves the method out, the method is the one the screens use.
 */
export const SPEC_CALLS: Record<string, PermissionRow> = {
  // §7 Authentication
  'POST /auth/login': ANYONE,
  'POST /auth/refresh': ANYONE,
  'POST /auth/forgot': ANYONE,
  'POST /auth/reset-password': ANYONE,
  'PUT /users/change-password': SIGNED_IN,
  'GET /users/me': SIGNED_IN_EVEN_EXPIRED,
  'GET /clients/me': CLIENT_SELF,
  // §7 Clients (§6: ADMIN only)
  'GET /clients': ADMIN_ONLY,
  'GET /clients/export': ADMIN_ONLY,
  'POST /clients/invite': ADMIN_ONLY,
  'PUT /clients/:id': ADMIN_ONLY,
  'DELETE /clients/:id': ADMIN_ONLY,
  'POST /clients/:id/change-logo': ADMIN_ONLY,
  'PUT /clients/:id/fixed-tax-code/:code': ADMIN_ONLY,
  'DELETE /clients/:id/fixed-tax-code': ADMIN_ONLY,
  'PUT /clients/:id/limits': ADMIN_ONLY,
  'PUT /clients/:id/pdf-enabled': ADMIN_ONLY,
  'PUT /clients/:id/enable-variation-alerts': ADMIN_ONLY,
  // §7 Logos (§6: ADMIN only)
  'GET /logos': ADMIN_ONLY,
  'POST /logos': ADMIN_ONLY,
  'DELETE /logos/:id': ADMIN_ONLY,
  'POST /logos/:id/pdf-config': ADMIN_ONLY,
  // §7 Search and reports
  'GET /documents': LOOK_UP,
  'GET /documents/sheet': LOOK_UP,
  'GET /documents/pdf': LOOK_UP,
  'POST /documents/data-source': ADMIN_ONLY,
  'POST /documents/toggle-data-source': ADMIN_ONLY,
  'GET /documents/data-source-status': ADMIN_ONLY,
  'GET /sync/last-rna-sync': SIGNED_IN,
  // §7 Saved searches and alerts
  'PUT /users/saved-searches': SIGNED_IN,
  'POST /variation-alerts': LOOK_UP,
  'DELETE /variation-alerts/:id': SIGNED_IN,
  // §7 Synchronisation (§6: ADMIN only)
  'POST /sync': ADMIN_ONLY,
  'GET /sync/status': ADMIN_ONLY,
  'GET /sync/results': ADMIN_ONLY,
  'GET /sync/documents-update': ADMIN_ONLY,
};

/**
 * Routes the spec does not name: product decisions taken in later issues, each with its reason. Their
 * access is ours to decide, so a change here is a product change, not a fix to match the spec.
 */
export const PRODUCT_DECISIONS: Record<string, PermissionRow> = {
  // operations: the load balancer's probe and the API description
  'GET /health': ANYONE,
  'GET /openapi.json': ANYONE,
  // logo images embedded in pages and e-mails, which carry no token
  'GET /images/:fileName': ANYONE,
  // signing out revokes the refresh token it is given, whoever holds it
  'POST /auth/logout': ANYONE,
  // whoever holds a report may check that the portal issued it (reports a third party can verify)
  'GET /reports/verify/:code': ANYONE,
  // reading back what §7's saved-search and alert calls wrote; an expired client still sees its own
  'GET /users/saved-searches': SIGNED_IN_EVEN_EXPIRED,
  'GET /variation-alerts': SIGNED_IN,
  // groups (impresa unica) and the de minimis headroom and declaration: look-ups of the codes named
  'GET /groups': SIGNED_IN,
  'POST /groups': LOOK_UP,
  'PUT /groups/:id': LOOK_UP,
  'DELETE /groups/:id': SIGNED_IN,
  'GET /de-minimis/headroom': LOOK_UP,
  'GET /de-minimis/declaration': LOOK_UP,
  // Ricerca massiva: a preview charges nothing; running a list is a look-up (the probe runs another
  // company's code); every user reads and downloads only their own jobs
  'POST /bulk-searches/preview': SIGNED_IN,
  'POST /bulk-searches': LOOK_UP,
  'GET /bulk-searches': SIGNED_IN,
  'GET /bulk-searches/:jobId': SIGNED_IN,
  'GET /bulk-searches/:jobId/sheet': SIGNED_IN,
  'GET /bulk-searches/:jobId/pdf': SIGNED_IN,
  // renewing a client's year, the audit screens and the archive's figures: administration (§6)
  'POST /clients/:id/renew': ADMIN_ONLY,
  'GET /audit/clients/:id/history': ADMIN_ONLY,
  'GET /audit/users/:id/history': ADMIN_ONLY,
  'GET /audit/clients/:id/history.xlsx': ADMIN_ONLY,
  'GET /audit/users/:id/history.xlsx': ADMIN_ONLY,
  'GET /sync/archive-stats': ADMIN_ONLY,
};

export const PERMISSIONS: Record<string, PermissionRow> = { ...SPEC_CALLS, ...PRODUCT_DECISIONS };
