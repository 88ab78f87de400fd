/**
 * The portal attacked over HTTP as an attacker would: a real standalone portal (every feature wired
 * as `npm start` wires it) on a free port, probed with bursts of guesses, stolen sessions, every
 * route as every kind of caller against the spec's permission table, and hostile input on every
 * route. Each probe is one expectation; the suite prints how many distinct behaviours it probed (one
 * request that only repeats a path every route shares is not another behaviour) and how many held.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PINNED_TEST_INSTANT, runningClockFrom } from '@rna/infra/config';
import { apiRoutes } from '@rna/api';
import { startFullPortal, type FullPortal } from '../e2e/harness/full-portal';
import {
  CALLERS,
  PERMISSIONS,
  PRODUCT_DECISIONS,
  SPEC_CALLS,
  type Caller,
  type Outcome,
} from './permission-table';

jest.setTimeout(240_000);

const ADMIN = { email: 'admin@attacco.test', password: 'Admin-password-attacco-1' };
const OWN_CODE = '01234567897';
const OTHER_CODE = '98765432109';

let root: string;
let portal: FullPortal;
let base: string;
const tokens: Partial<Record<Caller, string>> = {};
const probes: { what: string; behaviour: string; held: boolean }[] = [];

/**
 * Records a probe; the expectation still fails the test when it does not hold. `behaviour` names
 * what is tested when many requests test the same thing (a path every route shares).
 */
function probe(what: string, held: boolean, behaviour = what): boolean {
  probes.push({ what, behaviour, held });
  return held;
}

interface Answer {
  status: number;
  code?: string;
  headers: Headers;
  text: string;
}

async function call(
  method: string,
  url: string,
  options: { token?: string; body?: string; contentType?: string; address?: string } = {},
): Promise<Answer> {
  const response = await fetch(`${base}${url}`, {
    method: method.toUpperCase(),
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': options.contentType ?? 'application/json' } : {}),
      ...(options.address ? { 'x-forwarded-for': options.address } : {}),
    },
    body: options.body,
  });
  const text = await response.text();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { code?: string }).code;
  } catch {
    code = undefined;
  }
  return { status: response.status, code, headers: response.headers, text };
}

const json = (value: unknown) => JSON.stringify(value);

async function signIn(email: string, password: string, address?: string): Promise<string> {
  const answer = await call('post', '/api/auth/login', { body: json({ email, password }), address });
  if (answer.status !== 200) throw new Error(`sign-in of ${email}: ${answer.status} ${answer.text}`);
  return (JSON.parse(answer.text) as { accessToken: string }).accessToken;
}

/** Invites a client and walks its first sign-in: the invitation code, then a password of its own. */
async function invite(email: string, fixedTaxCode?: string): Promise<{ id: string; password: string }> {
  const answer = await call('post', '/api/clients/invite', {
    token: tokens.admin,
    body: json(fixedTaxCode ? { email, fixedTaxCode } : { email }),
  });
  const { id, invitationCode } = JSON.parse(answer.text) as { id: string; invitationCode: string };
  for (const [url, body] of [
    [`/api/clients/${id}/pdf-enabled`, { enabled: true }],
    [`/api/clients/${id}/enable-variation-alerts`, { enable: true }],
  ] as const)
    await call('put', url, { token: tokens.admin, body: json(body) });
  const password = `scelta-${invitationCode}`;
  const chosen = await call('put', '/api/users/change-password', {
    token: await signIn(email, invitationCode),
    body: json({ password: invitationCode, newPassword: password }),
  });
  if (chosen.status !== 204) throw new Error(`password choice of ${email}: ${chosen.status} ${chosen.text}`);
  return { id, password };
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'rna-attack-'));
  portal = await startFullPortal({
    env: {
      DATA_DIR: path.join(root, 'data'),
      PORT: '0',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: 'attack-suite-secret-long-enough-for-hs256',
      RNA_BASE_URL: 'http://127.0.0.1:9', // nothing answers: the register is not under test here
      CHROMIUM_PATH: process.env.CHROMIUM_PATH,
    },
    clock: runningClockFrom(new Date(PINNED_TEST_INSTANT)),
    // the suite sends hundreds of hostile writes as one administrator within a minute; the budget
    // of writes is probed on its own portal below
    writeRequestsPerMinute: 100_000,
  });
  base = portal.url.replace('localhost', '127.0.0.1');
  tokens.admin = await signIn(ADMIN.email, ADMIN.password);
  const client = await invite('cliente@attacco.test');
  tokens.client = await signIn('cliente@attacco.test', client.password);
  const fixed = await invite('fisso@attacco.test', OWN_CODE);
  tokens.fixedCodeClient = await signIn('fisso@attacco.test', fixed.password);
  const expired = await invite('scaduto@attacco.test');
  tokens.expiredClient = await signIn('scaduto@attacco.test', expired.password);
  // its access ended yesterday; the token it holds is still a well-signed JWT
  const yesterday = Date.parse(PINNED_TEST_INSTANT) - 86_400_000;
  await call('put', `/api/clients/${expired.id}/limits`, {
    token: tokens.admin,
    body: json({ availableYearlySearches: 10, remainingSearches: 10, endDate: yesterday }),
  });
});

afterAll(async () => {
  await portal?.stop();
  await rm(root, { recursive: true, force: true });
  const behaviours = new Set(probes.map((p) => p.behaviour));
  const failed = new Set(probes.filter((p) => !p.held).map((p) => p.behaviour));
  process.stdout.write(
    `${behaviours.size} behaviours probed (${probes.length} requests), ${behaviours.size - failed.size} held\n`,
  );
  for (const failed of probes.filter((p) => !p.held))
    process.stdout.write(`  did not hold: ${failed.what}\n`);
});

const routes = apiRoutes();
const routeKey = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;

/** A request for the route that passes validation where it can, so that only access decides. */
function sampleRequest(route: { method: string; path: string }): { url: string; body?: string } {
  const url = `/api${route.path.replace(':code', OTHER_CODE).replace(/:[A-Za-z]+/g, 'nessuno-999')}`;
  const key = routeKey(route);
  if (key.startsWith('GET /documents') && !key.includes('data-source'))
    return { url: `${url}?taxCodes=${OTHER_CODE}` };
  if (key === 'POST /variation-alerts') return { url, body: json({ taxCodes: [OTHER_CODE] }) };
  if (key === 'POST /bulk-searches') return { url, body: json({ taxCodes: [OTHER_CODE], sourceName: '' }) };
  if (key === 'GET /de-minimis/headroom' || key === 'GET /de-minimis/declaration')
    return { url: `${url}?taxCodes=${OTHER_CODE}&date=2026-03-01` };
  if (key === 'POST /groups' || key === 'PUT /groups/:id')
    return { url, body: json({ name: 'Gruppo', members: [{ taxCode: OTHER_CODE }] }) };
  if (route.method === 'get' || route.method === 'delete') return { url };
  return { url, body: '{}' };
}

function outcomeOf(answer: Answer): Outcome | 'server error' {
  if (answer.status >= 500) return 'server error';
  if (answer.status === 401) return 'A001';
  if (answer.status === 403 && (answer.code === 'P001' || answer.code === 'A002')) return answer.code;
  return 'ok';
}

describe('every route × every caller, against the spec’s permission table', () => {
  it('has a row in the table for every route of the registry (a new route must be placed)', () => {
    // bookkeeping, not a probe of the portal: counted nowhere
    expect(routes.map(routeKey).filter((key: string) => !PERMISSIONS[key])).toEqual([]);
  });

  it('finds in the registry every route of the table: a call the spec names cannot disappear', () => {
    const registered = new Set(routes.map(routeKey));
    expect(Object.keys(PERMISSIONS).filter((key) => !registered.has(key))).toEqual([]);
    // a route is either one the spec names or a product decision, never both
    expect(Object.keys(SPEC_CALLS).filter((key) => key in PRODUCT_DECISIONS)).toEqual([]);
  });

  it.each(CALLERS)('as %s, every route answers as the table says, never with a 5xx', async (caller) => {
    const mismatches: string[] = [];
    for (const route of routes) {
      const expected = PERMISSIONS[routeKey(route)]?.[caller];
      if (!expected) continue;
      const { url, body } = sampleRequest(route);
      const answer = await call(route.method, url, { token: tokens[caller], body });
      // the walk must not change what it walks on: a data-source switch that went through is undone
      if (routeKey(route) === 'POST /documents/toggle-data-source' && answer.status === 200)
        await call(route.method, url, { token: tokens[caller], body });
      const got = outcomeOf(answer);
      if (!probe(`${caller} ${routeKey(route)} → ${expected}`, got === expected))
        mismatches.push(
          `${routeKey(route)}: expected ${expected}, got ${answer.status} ${answer.code ?? ''}`,
        );
    }
    expect(mismatches).toEqual([]);
  });
});

describe('ownership, probed with another user’s real ids', () => {
  it('a client can neither read nor change nor delete what another client owns, and the owner keeps it', async () => {
    const victim = await invite('proprietario@attacco.test');
    const owner = await signIn('proprietario@attacco.test', victim.password);
    const created = async (method: string, url: string, body: unknown) => {
      const answer = await call(method, url, { token: owner, body: json(body) });
      if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${answer.text}`);
      return JSON.parse(answer.text) as { id: string };
    };
    const group = await created('post', '/api/groups', {
      name: 'Gruppo del proprietario',
      members: [{ taxCode: OWN_CODE }],
    });
    const alert = await created('post', '/api/variation-alerts', { taxCodes: [OTHER_CODE] });
    const job = await created('post', '/api/bulk-searches', {
      taxCodes: [OWN_CODE],
      sourceName: 'elenco.csv',
    });
    const ownerState = async () => ({
      groups: (await call('get', '/api/groups', { token: owner })).text,
      alerts: (await call('get', '/api/variation-alerts', { token: owner })).text,
      job: (await call('get', `/api/bulk-searches/${job.id}`, { token: owner })).status,
      me: JSON.parse((await call('get', '/api/clients/me', { token: owner })).text) as Record<
        string,
        unknown
      >,
    });
    const before = await ownerState();
    expect(before.groups).toContain(group.id);
    expect(before.alerts).toContain(alert.id);

    const attempts: { what: string; method: string; url: string; body?: unknown }[] = [
      { what: 'reads the bulk search', method: 'get', url: `/api/bulk-searches/${job.id}` },
      { what: 'downloads its workbook', method: 'get', url: `/api/bulk-searches/${job.id}/sheet` },
      { what: 'downloads its PDF', method: 'get', url: `/api/bulk-searches/${job.id}/pdf` },
      { what: 'rewrites the group', method: 'put', url: `/api/groups/${group.id}`, body: { name: 'Preso', members: [{ taxCode: OTHER_CODE }] } },
      { what: 'deletes the group', method: 'delete', url: `/api/groups/${group.id}` },
      { what: 'deletes the alert', method: 'delete', url: `/api/variation-alerts/${alert.id}` },
      { what: 'watches through the group', method: 'post', url: '/api/variation-alerts', body: { group: group.id } },
      { what: 'reads the owner’s history', method: 'get', url: `/api/audit/clients/${victim.id}/history` },
      { what: 'sets the owner’s limits', method: 'put', url: `/api/clients/${victim.id}/limits`, body: { availableYearlySearches: 0, remainingSearches: 0, endDate: Date.parse(PINNED_TEST_INSTANT) } },
      { what: 'renews the owner', method: 'post', url: `/api/clients/${victim.id}/renew`, body: {} },
      { what: 'deletes the owner', method: 'delete', url: `/api/clients/${victim.id}` },
    ]; // prettier-ignore
    const failures: string[] = [];
    for (const attempt of attempts) {
      const answer = await call(attempt.method, attempt.url, {
        token: tokens.client,
        body: attempt.body === undefined ? undefined : json(attempt.body),
      });
      // refused (403, or 404 that says nothing of whether the id exists), and nothing of the owner's in it
      const held =
        (answer.status === 403 || answer.status === 404 || answer.status === 401) &&
        !answer.text.includes('Gruppo del proprietario') &&
        !answer.text.includes('proprietario@attacco.test');
      if (!probe(`another client ${attempt.what}`, held))
        failures.push(`${attempt.what}: ${answer.status} ${answer.text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    const after = await ownerState();
    expect(
      probe(
        'the owner’s group, alert, bulk search and allowance are untouched',
        JSON.stringify(after) === JSON.stringify(before),
      ),
    ).toBe(true);
  });
});

describe('hostile input on every route never gets a 5xx', () => {
  it('malformed JSON, wrong types, oversize bodies, bad percent-encoding and hostile tax codes', async () => {
    const failures: string[] = [];
    const hostileCodes = [
      '<script>1234567',
      "01234567897' OR '1'='1",
      '../../etc/passwd1',
      '%00%00%00%00%00%00',
    ];
    for (const route of routes) {
      const { url } = sampleRequest(route);
      // the same broken path in front of every route: one behaviour (refused before routing)
      const attempts: {
        what: string;
        url: string;
        body?: string;
        contentType?: string;
        behaviour?: string;
      }[] = [
        {
          what: 'bad percent-encoding in the path',
          url: url.replace('/api/', '/api/%E0%A4%A/'),
          behaviour: 'bad percent-encoding in front of any route',
        },
        { what: 'bad percent-encoding in the query', url: `${url.split('?')[0]}?taxCodes=%E0%A4%A&x=%ZZ` },
      ];
      if (route.method !== 'get' && route.method !== 'delete')
        attempts.push(
          { what: 'malformed JSON', url, body: '{"email": "a@b.it", ' },
          {
            what: 'wrong types',
            url,
            body: json({ email: 42, password: [], taxCodes: { a: 1 }, enabled: 'yes' }),
          },
          { what: 'an oversize body', url, body: json({ password: 'x'.repeat(300_000) }) },
          {
            what: 'another content type',
            url,
            body: 'a=1',
            contentType: 'application/x-www-form-urlencoded',
          },
        );
      // hostile codes where the route reads tax codes from the query (the others ignore it)
      if (url.includes('taxCodes='))
        for (const code of hostileCodes)
          attempts.push({
            what: `tax code ${code}`,
            url: `${url.split('?')[0]}?taxCodes=${encodeURIComponent(code)}`,
          });
      for (const attempt of attempts) {
        const answer = await call(route.method, attempt.url, {
          token: tokens.admin,
          body: attempt.body,
          contentType: attempt.contentType,
        });
        const held = answer.status < 500 && !/at .*\.(js|ts):\d+/.test(answer.text);
        if (!probe(`${routeKey(route)} with ${attempt.what}`, held, attempt.behaviour))
          failures.push(`${routeKey(route)} with ${attempt.what}: ${answer.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('hostile tax codes are refused with T002 before anything is charged', async () => {
    const remaining = async () =>
      (
        JSON.parse((await call('get', '/api/clients/me', { token: tokens.client })).text) as {
          remainingSearches: number;
        }
      ).remainingSearches;
    const before = await remaining();
    for (const code of ['<script>1234567', '000116594550001165945500011539822']) {
      const answer = await call('get', `/api/documents?taxCodes=${encodeURIComponent(code)}`, {
        token: tokens.client,
      });
      expect(
        probe(`search of ${code} refused with T002`, answer.status === 400 && answer.code === 'T002'),
      ).toBe(true);
    }
    expect(probe('nothing charged for refused codes', (await remaining()) === before)).toBe(true);
  });
});

describe('accounts under attack', () => {
  it('a burst of 30 parallel wrong passwords is counted whole, and the owner still signs in elsewhere', async () => {
    const { password: code } = await invite('vittima@attacco.test');
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call('post', '/api/auth/login', {
          body: json({ email: 'vittima@attacco.test', password: `sbagliata-${i}` }),
          address: '203.0.113.66',
        }),
      ),
    );
    const checked = burst.filter((a) => a.status === 401).length;
    const refused = burst.filter(
      (a) => a.status === 429 && a.code === 'A003' && Number(a.headers.get('retry-after')) > 0,
    );
    expect(probe('at most 5 of 30 parallel guesses checked', checked <= 5)).toBe(true);
    expect(probe('the rest refused with 429 A003 and Retry-After', refused.length === 30 - checked)).toBe(
      true,
    );
    const attacker = await call('post', '/api/auth/login', {
      body: json({ email: 'vittima@attacco.test', password: code }),
      address: '203.0.113.66',
    });
    expect(probe('the attacker’s address stays refused', attacker.status === 429)).toBe(true);
    const owner = await call('post', '/api/auth/login', {
      body: json({ email: 'vittima@attacco.test', password: code }),
      address: '198.51.100.7',
    });
    expect(probe('the owner signs in from another address', owner.status === 200)).toBe(true);
    const admin = await call('post', '/api/auth/login', { body: json(ADMIN), address: '203.0.113.66' });
    expect(probe('other accounts from the attacker’s address are not locked out', admin.status === 200)).toBe(
      true,
    );
  });

  it('a password change ends the other sessions: their access and refresh tokens stop working', async () => {
    const { password: code } = await invite('sessioni@attacco.test');
    const login = async () =>
      JSON.parse(
        (
          await call('post', '/api/auth/login', {
            body: json({ email: 'sessioni@attacco.test', password: code }),
          })
        ).text,
      ) as { accessToken: string; refreshToken: string };
    const stolen = await login();
    const mine = await login();
    await call('put', '/api/users/change-password', {
      token: mine.accessToken,
      body: json({ password: code, newPassword: 'nuova-password-sicura' }),
    });
    const access = await call('get', '/api/users/me', { token: stolen.accessToken });
    const refresh = await call('post', '/api/auth/refresh', {
      body: json({ refreshToken: stolen.refreshToken }),
    });
    const kept = await call('post', '/api/auth/refresh', { body: json({ refreshToken: mine.refreshToken }) });
    expect(probe('the other session’s access token is refused', access.status === 401)).toBe(true);
    expect(probe('the other session’s refresh token is refused', refresh.status === 401)).toBe(true);
    expect(probe('the session that changed the password carries on', kept.status === 200)).toBe(true);
  });
});

describe('security headers', () => {
  it.each(['/', '/documents', '/api/health', '/api/documents?taxCodes=01234567897'])(
    '%s carries a CSP without unsafe-eval, frame-ancestors none and X-Frame-Options DENY',
    async (url) => {
      const answer = await call('get', url, { token: tokens.admin });
      const csp = answer.headers.get('content-security-policy') ?? '';
      expect(probe(`${url}: script-src 'self'`, /script-src 'self'(;|$)/.test(csp))).toBe(true);
      expect(probe(`${url}: no unsafe-eval`, !csp.includes('unsafe-eval'))).toBe(true);
      expect(probe(`${url}: object-src 'none'`, csp.includes("object-src 'none'"))).toBe(true);
      expect(probe(`${url}: frame-ancestors 'none'`, csp.includes("frame-ancestors 'none'"))).toBe(true);
      expect(probe(`${url}: base-uri 'self'`, csp.includes("base-uri 'self'"))).toBe(true);
      expect(probe(`${url}: X-Frame-Options DENY`, answer.headers.get('x-frame-options') === 'DENY')).toBe(
        true,
      );
    },
  );
});
