/**
 * A service started before its engine is up (compose starts every container at once; a cluster
 * restarts) waits for it with back-off and starts when it answers, instead of crashing. Here the
 * projector's Elasticsearch is a closed port at first, then a stand-in that answers the start-up
 * probe the way Elasticsearch does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildMains, startService, until, type ServiceProcess } from './processes';

jest.setTimeout(120_000);

const running: ServiceProcess[] = [];
let dir: string;
let elasticsearch: http.Server | null = null;

beforeAll(() => {
  buildMains();
  dir = mkdtempSync(path.join(tmpdir(), 'engine-start-up-'));
});
afterAll(async () => {
  for (const service of running) service.child.kill('SIGKILL');
  await Promise.all(running.map((service) => service.exited));
  await new Promise((resolve) => (elasticsearch ? elasticsearch.close(resolve) : resolve(undefined)));
  rmSync(dir, { recursive: true, force: true });
});

/** A port nobody listens on (yet). */
async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Just enough of Elasticsearch for the aid index's start-up probe: the alias exists, no such aid. */
function standInElasticsearch(port: number): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    res.setHeader('x-elastic-product', 'Elasticsearch');
    res.setHeader('content-type', 'application/json');
    if (req.method === 'HEAD') return res.end();
    if (req.url?.includes('_mget'))
      return res.end(
        JSON.stringify({ docs: [{ _index: 'rna-aids-1', _id: 'start-up-probe', found: false }] }),
      );
    res.statusCode = 404;
    res.end('{}');
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

const printed = (service: ServiceProcess) => service.output.join('');

it('a projector whose Elasticsearch is down waits for it with growing pauses, then starts', async () => {
  const port = await freePort();
  const projector = startService(running, 'projector', 'projector', {
    DATA_DIR: dir,
    ELASTICSEARCH_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'info',
  });
  await until(
    'two waits for Elasticsearch',
    async () => ((printed(projector).match(/engine not reachable/g)?.length ?? 0) >= 2 ? true : null),
    running,
    60_000,
  );
  const waits = printed(projector)
    .split('\n')
    .filter((line) => line.includes('engine not reachable'))
    .map((line) => JSON.parse(line) as { engine: string; retryInMs: number });
  expect(waits[0]!.engine).toBe('aidIndex');
  expect(waits[1]!.retryInMs).toBeGreaterThan(waits[0]!.retryInMs);
  expect(projector.child.exitCode).toBeNull(); // still there, not crashed into a restart loop

  elasticsearch = await standInElasticsearch(port);
  await until(
    'the projector to start',
    async () => (printed(projector).includes('projector started') ? true : null),
    running,
    60_000,
  );
  expect(printed(projector)).toContain('engines reachable: starting');
});
