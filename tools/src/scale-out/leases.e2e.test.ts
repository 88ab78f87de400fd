/**
 * One owner at a time: two API, two projector and one sync process on one DATA_DIR (embedded
 * stores, or the engines `npm run test:engines` starts). 200 metered searches of four clients land on both APIs at once; then every read model
 * agrees on exactly what was charged. The process holding the clients projection's lease is killed
 * with SIGKILL: the other projector takes the lease within the lease time and the read model keeps
 * following the events.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { enginesFromEnv, openStores, type Stores } from '@rna/infra/stores';
import { LEASES_COLLECTION, type LeaseDoc } from '@rna/infra/leases';
import { startMirror, type RunningMirror } from '../rna-mirror/server';
import {
  buildMains,
  scenarioEngineEnv,
  startService,
  until as untilReady,
  type ServiceProcess,
} from './processes';

jest.setTimeout(240_000);

const ADMIN = { email: 'admin@leases.test', password: 'Leases-test-password-1' };
const LEASE_TTL_MS = 2_000; // processes.ts gives every service this lease time

let dataDir: string;
let mirrorDir: string;
let mirror: RunningMirror;
let stores: Stores | undefined;
const services: ServiceProcess[] = [];

const start = (name: string, service: 'api' | 'sync' | 'projector', env: Record<string, string> = {}) =>
  startService(services, name, service, {
    DATA_DIR: dataDir,
    RNA_BASE_URL: mirror.url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: 'l'.repeat(48),
    ...env,
  });

async function listeningPort(api: ServiceProcess): Promise<number> {
  return untilReady(
    `${api.name} to listen`,
    async () => {
      const match = /API_LISTENING (\d+)/.exec(api.output.join(''));
      return match?.[1] ? Number(match[1]) : null;
    },
    services,
    60_000,
  );
}

async function call<T>(port: number, method: string, url: string, token?: string, body?: unknown) {
  const response = await fetch(`http://127.0.0.1:${port}/api${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

async function ok<T>(port: number, method: string, url: string, token?: string, body?: unknown): Promise<T> {
  const answer = await call<T>(port, method, url, token, body);
  if (answer.status >= 300)
    throw new Error(`${method} ${url} → ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

const until = <T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000) =>
  untilReady(what, probe, services, timeoutMs, 100);

const leaseHolder = async (name: string) =>
  (await stores!.documents.collection<LeaseDoc>(LEASES_COLLECTION).get(name))?.holder ?? null;
const pidOf = (holder: string | null) => Number(holder?.split(':')[1]);

beforeAll(async () => {
  buildMains();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'rna-leases-data-'));
  mirrorDir = await mkdtemp(path.join(os.tmpdir(), 'rna-leases-mirror-'));
  mirror = await startMirror({ dir: mirrorDir });
});

afterAll(async () => {
  for (const service of services) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  await stores?.close();
  await mirror?.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(mirrorDir, { recursive: true, force: true });
});

it('api ×2, projector ×2, sync: 200 concurrent metered searches charged exactly; a killed lease holder’s work moves on', async () => {
  const projectors = [start('projector-1', 'projector'), start('projector-2', 'projector')];
  const sync = start('sync', 'sync');
  const portA = await listeningPort(start('api-a', 'api', { PORT: '0' }));
  const portB = await listeningPort(start('api-b', 'api', { PORT: '0' }));
  const ports = [portA, portB];
  // the stores the services use: embedded in DATA_DIR, or the engines of `npm run test:engines`
  stores = openStores({ dataDir, engines: enginesFromEnv(scenarioEngineEnv()) });

  const { accessToken: admin } = await until('admin sign-in', async () => {
    const answer = await call<{ accessToken: string }>(portA, 'POST', '/auth/login', undefined, ADMIN);
    return answer.status === 200 ? answer.body : null;
  });

  // four clients with 40 searches each, invited on A, signed in on B
  const clients: { id: string; token: string }[] = [];
  for (let k = 0; k < 4; k += 1) {
    const invited = await ok<{ id: string; invitationCode: string }>(
      portA,
      'POST',
      '/clients/invite',
      admin,
      {
        email: `cliente${k}@leases.test`,
      },
    );
    await ok(portA, 'PUT', `/clients/${invited.id}/limits`, admin, {
      availableYearlySearches: 100,
      remainingSearches: 40,
      endDate: Date.parse('2030-01-01T11:00:00Z'),
    });
    // the first sign-in, on B: the invitation code opens only the choice of a password
    const signInOnB = (password: string) =>
      until('client sign-in', async () => {
        const answer = await call<{ accessToken: string }>(portB, 'POST', '/auth/login', undefined, {
          email: `cliente${k}@leases.test`,
          password,
        });
        return answer.status === 200 ? answer.body : null;
      });
    const withCode = await signInOnB(invited.invitationCode);
    await ok(portB, 'PUT', '/users/change-password', withCode.accessToken, {
      password: invited.invitationCode,
      newPassword: `scelta-${invited.invitationCode}`,
    });
    const { accessToken } = await signInOnB(`scelta-${invited.invitationCode}`);
    clients.push({ id: invited.id, token: accessToken });
  }

  // 50 searches of new codes per client, all at once, spread over both API processes
  const searches = clients.flatMap((client, k) =>
    Array.from({ length: 50 }, (_, i) =>
      call<{ code?: string }>(
        ports[i % 2]!,
        'GET',
        `/documents?taxCodes=${20_000_000_000 + k * 1_000 + i}`,
        client.token,
      ),
    ),
  );
  const answers = await Promise.all(searches);
  const statuses = answers.map((a) => (a.status === 200 ? 'ok' : (a.body?.code ?? String(a.status))));
  expect(statuses.filter((s) => s === 'ok')).toHaveLength(160);
  expect(statuses.filter((s) => s === 'U004')).toHaveLength(40);

  // every read model and both API processes agree: nothing left, 40 charged searches each
  for (const port of ports) {
    const listed = await until('the clients read model to catch up', async () => {
      const list = await ok<{ id: string; remainingSearches: number }[]>(port, 'GET', '/clients', admin);
      const ours = list.filter((c) => clients.some((client) => client.id === c.id));
      return ours.length === 4 && ours.every((c) => c.remainingSearches === 0) ? ours : null;
    });
    expect(listed.map((c) => c.remainingSearches)).toEqual([0, 0, 0, 0]);
    for (const client of clients) {
      expect(
        (await ok<{ remainingSearches: number }>(port, 'GET', '/clients/me', client.token)).remainingSearches,
      ).toBe(0);
      const history = await ok<{ entries: { kind: string; cost: number }[]; remainingSearches: number }>(
        port,
        'GET',
        `/audit/clients/${client.id}/history`,
        admin,
      );
      expect(history.remainingSearches).toBe(0);
      expect(history.entries.filter((e) => e.kind === 'SEARCH' && e.cost === 1)).toHaveLength(40);
      expect(history.entries.filter((e) => e.kind === 'REFUSAL')).toHaveLength(10);
    }
  }

  // each single work has one owner: the sync worker in the sync process, each projection in one projector
  expect(pidOf(await leaseHolder('sync-worker'))).toBe(sync.child.pid);
  const holder = await leaseHolder('projection:clients');
  const owner = projectors.find((p) => p.child.pid === pidOf(holder));
  const other = projectors.find((p) => p !== owner)!;
  expect(owner).toBeDefined();

  // kill -9 the owner of the clients projection: the other projector takes its lease and goes on
  owner!.child.kill('SIGKILL');
  await owner!.exited;
  const killedAt = Date.now();
  await ok(portA, 'PUT', `/clients/${clients[0]!.id}/limits`, admin, {
    availableYearlySearches: 100,
    remainingSearches: 7,
    endDate: Date.parse('2030-01-01T11:00:00Z'),
  });
  await until(
    'the clients projection to move to the other projector',
    async () => (pidOf(await leaseHolder('projection:clients')) === other.child.pid ? true : null),
    LEASE_TTL_MS * 5,
  );
  const tookOverInMs = Date.now() - killedAt;
  await until('the read model to follow the events again', async () => {
    const list = await ok<{ id: string; remainingSearches: number }[]>(portB, 'GET', '/clients', admin);
    return list.find((c) => c.id === clients[0]!.id)?.remainingSearches === 7 ? true : null;
  });
  // within the lease time and a renewal period (plus the poll of this test)
  expect(tookOverInMs).toBeLessThan(LEASE_TTL_MS + LEASE_TTL_MS / 3 + 1_500);
});
