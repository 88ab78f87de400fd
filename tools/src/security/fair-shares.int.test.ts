/**
 * One account against everyone else, on a standalone portal as `npm start` wires it (its default
 * budgets): a loop of writes is told to retry later while another account writes as usual, a loop of
 * free bulk repeats is capped, a fourth open job is refused, and a preview never echoes a whole file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BULK_MAX_FREE_JOBS_PER_DAY, BULK_MAX_OPEN_JOBS, BULK_IGNORED_CHARS } from '@rna/domain';
import { PINNED_TEST_INSTANT, runningClockFrom } from '@rna/infra/config';
import { DEFAULT_WRITE_REQUESTS_PER_MINUTE } from '@rna/api';
import { startFullPortal, type FullPortal } from '../e2e/harness/full-portal';

jest.setTimeout(120_000);

const ADMIN = { email: 'admin@quote.test', password: 'Admin-password-quote-1' };
const CODE = '01234567897';

let root: string;
let portal: FullPortal;
let base: string;

async function call(method: string, url: string, token: string, body?: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: { code?: string } & Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    parsed = {};
  }
  return { status: response.status, body: parsed, retryAfter: response.headers.get('retry-after') };
}

async function signIn(email: string, password: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return ((await response.json()) as { accessToken: string }).accessToken;
}

async function client(admin: string, email: string): Promise<string> {
  const invited = await call('POST', '/api/clients/invite', admin, { email });
  const { id, invitationCode } = invited.body as { id: string; invitationCode: string };
  await call('PUT', `/api/clients/${id}/limits`, admin, {
    availableYearlySearches: 100,
    remainingSearches: 100,
    endDate: Date.parse(PINNED_TEST_INSTANT) + 365 * 86_400_000,
  });
  // the invitation code opens only the choice of a password: choose one, then sign in with it
  await call('PUT', '/api/users/change-password', await signIn(email, invitationCode), {
    password: invitationCode,
    newPassword: `scelta-${invitationCode}`,
  });
  return signIn(email, `scelta-${invitationCode}`);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'rna-fair-'));
  portal = await startFullPortal({
    env: {
      DATA_DIR: path.join(root, 'data'),
      PORT: '0',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      RNA_BASE_URL: 'http://127.0.0.1:9',
    },
    clock: runningClockFrom(new Date(PINNED_TEST_INSTANT)),
  });
  base = portal.url.replace('localhost', '127.0.0.1');
});

afterAll(async () => {
  await portal?.stop();
  await rm(root, { recursive: true, force: true });
});

it('tells a loop of saves to retry later, while another account writes as usual', async () => {
  const admin = await signIn(ADMIN.email, ADMIN.password);
  const greedy = await client(admin, 'avido@quote.test');
  const other = await client(admin, 'altro@quote.test');
  const statuses: number[] = [];
  for (let i = 0; i <= DEFAULT_WRITE_REQUESTS_PER_MINUTE; i++)
    statuses.push(
      (
        await call('PUT', '/api/users/saved-searches', greedy, [
          { taxCodes: [CODE], deMinimis: i % 2 === 0, last3Years: false },
        ])
      ).status,
    );
  // choosing its password at the first sign-in was the first of its writes this minute
  expect(statuses.filter((status) => status === 200)).toHaveLength(DEFAULT_WRITE_REQUESTS_PER_MINUTE - 1);
  const refused = await call('PUT', '/api/users/saved-searches', greedy, []);
  expect([refused.status, refused.body.code]).toEqual([429, 'Q001']);
  expect(Number(refused.retryAfter)).toBeGreaterThan(0);
  expect((await call('PUT', '/api/users/saved-searches', other, [])).status).toBe(200);
});

it('caps open bulk jobs and free repeats, and never echoes a whole file', async () => {
  const admin = await signIn(ADMIN.email, ADMIN.password);
  const user = await client(admin, 'ripete@quote.test');
  const answers: { status: number; code?: string }[] = [];
  // the runner finds no register here, so jobs stay open or end: either way the caps answer first
  for (let i = 0; i < BULK_MAX_OPEN_JOBS + BULK_MAX_FREE_JOBS_PER_DAY + 2; i++) {
    const answer = await call('POST', '/api/bulk-searches', user, {
      taxCodes: [CODE],
      sourceName: `lista ${i}`,
    });
    answers.push({ status: answer.status, code: answer.body.code });
  }
  const accepted = answers.filter((answer) => answer.status === 202).length;
  expect(accepted).toBeLessThanOrEqual(1 + BULK_MAX_FREE_JOBS_PER_DAY);
  expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.code)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^B01[01]$/)]),
  );
  const preview = await call('POST', '/api/bulk-searches/preview', user, {
    text: `${CODE}\n${'x'.repeat(500_000)}`,
  });
  expect(preview.status).toBe(200);
  const ignored = preview.body.ignored as string[];
  expect(ignored).toHaveLength(1);
  expect(ignored[0]!.length).toBeLessThanOrEqual(BULK_IGNORED_CHARS);
});
