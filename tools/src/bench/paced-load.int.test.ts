import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pacedLoad } from './paced-load';

jest.setTimeout(30_000);

/** A server that answers each request after `delayMs`, one at a time, with `status`. */
async function slowServer(delayMs: number, status = 200) {
  let queue = Promise.resolve();
  const server = http.createServer((_req, res) => {
    queue = queue.then(
      () =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            res.writeHead(status).end('{}');
            resolve();
          }, delayMs),
        ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('paced load generator (bench)', () => {
  it('times each request from its due instant, so a server that falls behind shows its queue', async () => {
    // 40 requests/s offered to a server that can do 20/s: the later requests wait ever longer
    const server = await slowServer(50);
    try {
      const result = await pacedLoad({
        url: server.url,
        headers: {},
        connections: 4,
        ratePerSecond: 40,
        durationSeconds: 1,
      });
      expect(result.failures).toBe(0);
      expect(result.p50).toBeGreaterThanOrEqual(50);
      // the 40th request is due at 975 ms but served only after ~40 × 50 ms
      expect(result.max).toBeGreaterThan(800);
    } finally {
      await server.close();
    }
  });

  it('sends each request to the next of several addresses when given a list', async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      res.writeHead(200).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const result = await pacedLoad({
        url: `${base}/unused`,
        urls: [`${base}/a`, `${base}/b`, `${base}/c`],
        headers: {},
        connections: 2,
        ratePerSecond: 30,
        durationSeconds: 0.3,
      });
      expect(result.failures).toBe(0);
      expect([...seen].sort()).toEqual(['/a', '/a', '/a', '/b', '/b', '/b', '/c', '/c', '/c']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('sends request i with the i-th header set, e.g. as one of several users', async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      seen.push(`${req.url} ${req.headers.authorization} ${req.headers.accept}`);
      res.writeHead(200).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await pacedLoad({
        url: `${base}/unused`,
        urls: [`${base}/a`, `${base}/b`, `${base}/c`, `${base}/d`],
        headerSets: [{ authorization: 'one' }, { authorization: 'two' }],
        headers: { accept: 'json' },
        connections: 2,
        ratePerSecond: 40,
        durationSeconds: 0.1,
      });
      expect([...seen].sort()).toEqual(['/a one json', '/b two json', '/c one json', '/d two json']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('counts answers other than 200 as failures, not as latencies', async () => {
    const server = await slowServer(1, 503);
    try {
      const result = await pacedLoad({
        url: server.url,
        headers: {},
        connections: 2,
        ratePerSecond: 20,
        durationSeconds: 1,
      });
      expect(result.failures).toBe(20);
      expect(Number.isNaN(result.p50)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
