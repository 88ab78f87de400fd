/**
 * Walks EVERY registered route as anonymous, CLIENT, expired CLIENT, a CLIENT signed in with its
 * invitation code (not yet its own password) and ADMIN, and checks the refusals match each route's
 * declaration, a 5xx never counting as allowed. (The routes against the
 * spec's own permission table, written apart from the declarations: tools/src/security.) It checks the
 * refusals SPEC §6 asks for: 401 A001 without sign-in, 403 P001 for the wrong role, 403 A002 for an
 * expired client (except the reads that show it its own status), 403 A004 for a client that has not
 * chosen its password (except that choice). A route without a valid access
 * declaration fails here.
 */
import request from 'supertest';
import { apiRoutes } from '../app';
import { startTestApi, type TestApi } from '../testing/harness';
import { ACCESS_LEVELS, type Access, type AnyRoute } from './route';

type Who = 'anonymous' | 'client' | 'expiredClient' | 'newClient' | 'admin';
type Expected = 'A001' | 'P001' | 'A002' | 'A004' | 'allowed';

export function expectedOutcome(route: AnyRoute, who: Who): Expected {
  if (route.access === 'anonymous') return 'allowed';
  if (who === 'anonymous') return 'A001';
  const role = who === 'admin' ? 'ADMIN' : 'CLIENT';
  if (route.access !== 'signed-in' && route.access !== role) return 'P001';
  if (who === 'newClient' && !route.allowBeforeFirstPassword) return 'A004';
  if (who === 'expiredClient' && !route.allowExpiredClient) return 'A002';
  return 'allowed';
}

/** Access levels SPEC §6 fixes, for the routes registered so far. */
const SPEC_ACCESS: Record<string, Access> = {
  'GET /health': 'anonymous',
  'GET /openapi.json': 'anonymous',
  'POST /auth/login': 'anonymous',
  'GET /users/me': 'signed-in',
  'GET /clients/me': 'CLIENT',
  'GET /clients': 'ADMIN',
  'GET /clients/export': 'ADMIN',
  'POST /clients/invite': 'ADMIN',
  'DELETE /clients/:id': 'ADMIN',
  'PUT /clients/:id/limits': 'ADMIN',
  'POST /clients/:id/renew': 'ADMIN',
  'GET /logos': 'ADMIN',
  'POST /logos': 'ADMIN',
  'DELETE /logos/:id': 'ADMIN',
  'POST /logos/:id/pdf-config': 'ADMIN',
  'GET /documents': 'signed-in',
  'GET /documents/data-source-status': 'ADMIN',
  'POST /documents/toggle-data-source': 'ADMIN',
  'POST /sync': 'ADMIN',
  'GET /sync/status': 'ADMIN',
  'GET /sync/results': 'ADMIN',
  'GET /sync/last-rna-sync': 'signed-in',
};

const key = (route: AnyRoute) => `${route.method.toUpperCase()} ${route.path}`;

jest.setTimeout(60_000);

describe('authorization of every route', () => {
  let api: TestApi;
  const tokens: Partial<Record<Who, string>> = {};
  const routes = apiRoutes();

  beforeAll(async () => {
    api = await startTestApi();
    tokens.admin = await api.adminToken();
    const active = await api.inviteClient('attivo@example.it');
    tokens.client = (await api.firstSignIn('attivo@example.it', active.code)).accessToken;
    const expiring = await api.inviteClient('scaduto@example.it');
    tokens.expiredClient = (await api.firstSignIn('scaduto@example.it', expiring.code)).accessToken;
    const invited = await api.inviteClient('invitato@example.it');
    tokens.newClient = (await api.signIn('invitato@example.it', invited.code)).accessToken;
    // Its access ends in the past; the token it already holds is still a valid JWT.
    const res = await request(api.app)
      .put(`/api/clients/${expiring.id}/limits`)
      .set('Authorization', `Bearer ${tokens.admin}`)
      .send({ availableYearlySearches: 10, remainingSearches: 10, endDate: '2026-03-01' });
    expect(res.status).toBe(200);
    await request(api.app)
      .put(`/api/clients/${active.id}`)
      .set('Authorization', `Bearer ${tokens.admin}`)
      .send({ pdfEnabled: true, enableVariationAlerts: true })
      .expect(200);
  });
  afterAll(() => api.close());

  it('every route declares who may call it and has a summary', () => {
    for (const route of routes) {
      expect({ route: key(route), access: ACCESS_LEVELS.includes(route.access) }).toEqual({
        route: key(route),
        access: true,
      });
      expect(route.summary.length).toBeGreaterThan(0);
    }
  });

  it('routes the spec fixes are declared with the spec’s access', () => {
    for (const route of routes) {
      const expected = SPEC_ACCESS[key(route)];
      if (expected)
        expect({ route: key(route), access: route.access }).toEqual({ route: key(route), access: expected });
    }
  });

  it.each(['anonymous', 'client', 'expiredClient', 'newClient', 'admin'] as Who[])(
    'as %s, refusals match the declarations',
    async (who) => {
      const mismatches: string[] = [];
      for (const route of routes) {
        // Placeholder ids that match nothing: the walk must not change the data it walks on.
        const path = route.path.replace(/:[A-Za-z0-9_]+/g, '999999');
        let call = request(api.app)[route.method](`/api${path}`);
        const token = tokens[who];
        if (token) call = call.set('Authorization', `Bearer ${token}`);
        const res = route.method === 'get' || route.method === 'delete' ? await call : await call.send({});
        const code = (res.body as { code?: string } | null)?.code;
        const outcome =
          res.status >= 500
            ? `server error ${res.status}`
            : res.status === 401
              ? 'A001'
              : res.status === 403 && (code === 'P001' || code === 'A002' || code === 'A004')
                ? code
                : 'allowed';
        const expected = expectedOutcome(route, who);
        if (outcome !== expected)
          mismatches.push(`${key(route)}: expected ${expected}, got ${res.status} ${code}`);
        if (expected !== 'allowed') expect(code).toBe(expected);
      }
      expect(mismatches).toEqual([]);
    },
  );
});
