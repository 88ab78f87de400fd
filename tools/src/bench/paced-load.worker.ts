/**
 * The paced load generator's thread: sends GET requests at evenly spaced instants over a pool of
 * keep-alive connections and times each one from the instant it was DUE, not from when a free
 * connection took it. A server that falls behind therefore shows its queueing in the latencies
 * (no coordinated omission), unlike a closed loop where a slow answer delays the next request.
 */
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import type { PacedLoadOptions, PacedLoadSamples } from './paced-load';

function run(options: PacedLoadOptions): Promise<PacedLoadSamples> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const total = Math.round(options.ratePerSecond * options.durationSeconds);
  const intervalMs = 1000 / options.ratePerSecond;
  const latenciesMs: number[] = [];
  let failures = 0;
  let sent = 0;
  let settled = 0;
  const started = performance.now();
  return new Promise((resolve) => {
    const finish = () => {
      clearInterval(ticker);
      agent.destroy();
      resolve({ latenciesMs, failures, sent, elapsedMs: performance.now() - started });
    };
    const done = (dueAt: number, ok: boolean) => {
      if (ok) latenciesMs.push(performance.now() - dueAt);
      else failures += 1;
      settled += 1;
      if (settled === total) finish();
    };
    const send = (dueAt: number) => {
      const url = options.urls?.length ? options.urls[sent % options.urls.length]! : options.url;
      const own = options.headerSets?.length
        ? options.headerSets[sent % options.headerSets.length]
        : undefined;
      const headers = own ? { ...options.headers, ...own } : options.headers;
      const request = http.get(url, { agent, headers }, (response) => {
        response.resume();
        response.on('end', () => done(dueAt, response.statusCode === 200));
        response.on('error', () => done(dueAt, false));
      });
      request.setTimeout(30_000, () => request.destroy(new Error('timeout')));
      request.on('error', () => done(dueAt, false));
    };
    // A 1 ms tick sends every request that has fallen due since the last one.
    const ticker = setInterval(() => {
      const now = performance.now();
      while (sent < total && started + sent * intervalMs <= now) {
        send(started + sent * intervalMs);
        sent += 1;
      }
    }, 1);
  });
}

if (parentPort) {
  const port = parentPort;
  void run(workerData as PacedLoadOptions).then((samples) => port.postMessage(samples));
}
