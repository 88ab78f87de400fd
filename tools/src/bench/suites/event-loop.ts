/**
 * Event-loop suite: the worst input of every upload and paste route (security/hostile-inputs.ts) sent
 * to an embedded portal in this process, one at a time, with the event loop's delay recorded
 * (perf_hooks, 10 ms resolution) while each is answered. Figure: the worst delay per input over
 * SAMPLES runs — how long every other client of the process waited at most. Baseline, in the same
 * run and alternating with it: an honest request of the same route (100 codes, a small logo).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import sharp from 'sharp';
import { startFullPortal } from '../../e2e/harness/full-portal';
import { hostileRequests, sendHostile, type HostileRequest } from '../../security/hostile-inputs';
import { SAMPLES, type BenchRow, type BenchSuite } from '../bench-suite';

const ADMIN = { email: 'admin@bench.test', password: 'Admin-password-bench-1' };

const codes = (count: number) => Array.from({ length: count }, (_, i) => String(10_000_000_000 + i));

/** The honest request of a hostile one's route. */
async function honestOf(request: HostileRequest): Promise<HostileRequest> {
  const base = { route: request.route, path: request.path, method: request.method, what: 'honest' };
  if (request.route === 'POST /logos') {
    const logo = await sharp({ create: { width: 400, height: 120, channels: 3, background: '#036' } })
      .png()
      .toBuffer();
    return {
      ...base,
      file: { name: 'logo.png', bytes: logo, type: 'image/png', fields: { name: 'onesto' } },
    };
  }
  if (request.route === 'POST /bulk-searches')
    return { ...base, json: { taxCodes: codes(100), sourceName: 'x' } };
  if (request.route === 'GET /documents')
    return { ...base, path: `/api/documents?taxCodes=${codes(3).join(',')}` };
  if (request.file)
    return {
      ...base,
      file: { name: 'elenco.csv', bytes: Buffer.from(codes(100).join('\n')), type: 'text/csv' },
    };
  return { ...base, json: { text: codes(100).join('\n') } };
}

/** The event loop's worst delay, in ms, while `request` is answered. */
async function worstDelay(base: string, token: string, request: HostileRequest): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  await sendHostile(base, token, request);
  // one more turn of the loop, so a delay at the very end is recorded
  await new Promise((resolve) => setTimeout(resolve, 20));
  histogram.disable();
  return histogram.max / 1e6;
}

export const eventLoopSuite: BenchSuite = {
  name: 'event-loop',
  description: 'worst event-loop delay while each upload and paste route reads its worst input',
  async run(ctx) {
    const dir = mkdtempSync(path.join(ctx.tmpDir, 'portal-'));
    const portal = await startFullPortal({
      env: {
        DATA_DIR: dir,
        PORT: '0',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        RNA_BASE_URL: 'http://127.0.0.1:9',
      },
    });
    try {
      const base = portal.url.replace(/\/$/, '');
      const signIn = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      });
      const { accessToken } = (await signIn.json()) as { accessToken: string };
      const rows: BenchRow[] = [];
      for (const request of await hostileRequests()) {
        const honest = await honestOf(request);
        const hostile: number[] = [];
        const baseline: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          // alternating, the baseline first one time in two: neither warms the other's way
          if (i % 2 === 0) {
            baseline.push(await worstDelay(base, accessToken, honest));
            hostile.push(await worstDelay(base, accessToken, request));
          } else {
            hostile.push(await worstDelay(base, accessToken, request));
            baseline.push(await worstDelay(base, accessToken, honest));
          }
        }
        ctx.log(`${request.route}: ${request.what}: ${hostile.map((ms) => ms.toFixed(0)).join(', ')} ms`);
        rows.push({
          metric: `${request.route} ${request.what}`,
          value: Math.max(...hostile),
          unit: 'ms worst loop delay',
          baseline: Math.max(...baseline),
          note: `${SAMPLES} samples each, worst shown; baseline = an honest request of the route`,
        });
      }
      return rows;
    } finally {
      await portal.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
