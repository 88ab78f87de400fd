/**
 * What docker-compose.yml promises an operator, checked on the file itself (no Docker on the
 * development machines): every service restarts and is health-checked, Kafka writes its log to its
 * volume and keeps the aids topic for good, and the API runs behind one address that spreads the
 * load over its replicas.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { startHeartbeat } from '@rna/infra/config';
import { until } from '../e2e/harness/ui';

const ROOT = path.resolve(__dirname, '..', '..', '..');

interface Service {
  image?: string;
  build?: string;
  restart?: string;
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
  environment?: Record<string, string | number>;
  stop_grace_period?: string;
}

const compose = yaml.load(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
};

describe('docker-compose.yml', () => {
  it('restarts every service by itself and checks its health', () => {
    const missing = Object.entries(compose.services)
      .filter(([, service]) => service.restart !== 'unless-stopped' || !service.healthcheck?.test.length)
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('has Kafka write its log where its volume is mounted, and delete nothing by age or size', () => {
    const kafka = compose.services.kafka!;
    const mounted = kafka.volumes?.map((volume) => volume.split(':')[1]);
    expect(mounted).toContain(String(kafka.environment?.KAFKA_LOG_DIRS));
    expect(Number(kafka.environment?.KAFKA_LOG_RETENTION_MS)).toBe(-1);
    expect(Number(kafka.environment?.KAFKA_LOG_RETENTION_BYTES)).toBe(-1);
  });

  it('lets each portal service stop cleanly before it is killed, and create its topics as the broker is set', () => {
    for (const name of ['api', 'sync', 'projector']) {
      const service = compose.services[name]!;
      // Docker kills 10 s after SIGTERM by default: a sync batch, a lease release and closing the stores need more
      expect(Number.parseInt(service.stop_grace_period ?? '10s', 10)).toBeGreaterThanOrEqual(30);
      const kafka = compose.services.kafka!.environment!;
      expect(service.environment?.KAFKA_PARTITIONS).toBe(kafka.KAFKA_NUM_PARTITIONS);
      expect(service.environment?.KAFKA_REPLICATION_FACTOR).toBe(kafka.KAFKA_DEFAULT_REPLICATION_FACTOR);
    }
  });

  it('publishes one address, nginx, in front of every API replica', () => {
    const published = Object.entries(compose.services)
      .filter(([, service]) => service.ports?.length)
      .map(([name]) => name);
    expect(published).toEqual(['proxy']);
    const conf = readFileSync(path.join(ROOT, 'infra', 'compose', 'nginx.conf'), 'utf8');
    expect(compose.services.proxy?.volumes?.[0]).toMatch(/nginx\.conf:\/etc\/nginx\/nginx\.conf/);
    expect(conf).toMatch(/resolver 127\.0\.0\.11/); // re-resolved: replicas added later are used
    expect(conf).toMatch(/proxy_pass \$api_upstream/);
    expect(conf).toMatch(/X-Forwarded-For/);
    expect(compose.services.api?.environment?.TRUST_PROXY).toBeDefined();
  });

  it('never retries a charged call on a second replica', () => {
    const conf = readFileSync(path.join(ROOT, 'infra', 'compose', 'nginx.conf'), 'utf8');
    const blocks = [...conf.matchAll(/location ~ (\S+) \{([^}]*)\}/g)].map((m) => ({
      pattern: new RegExp(m[1]!),
      body: m[2]!,
    }));
    const noRetry = blocks.filter((block) => /proxy_next_upstream off;/.test(block.body));
    const charged = [
      '/api/documents',
      '/api/documents/sheet',
      '/api/documents/pdf',
      '/api/de-minimis/headroom',
    ];
    for (const uri of [...charged, '/api/bulk-searches', '/api/bulk-searches/j1/sheet'])
      expect({ uri, retried: !noRetry.some((block) => block.pattern.test(uri)) }).toEqual({
        uri,
        retried: false,
      });
    // the rest may go to the next replica when one is down
    for (const uri of ['/api/health', '/api/auth/login', '/api/documents-like'])
      expect({ uri, retried: !noRetry.some((block) => block.pattern.test(uri)) }).toEqual({
        uri,
        retried: true,
      });
  });

  it('gives the services without a port a heartbeat their health check reads', async () => {
    for (const name of ['sync', 'projector']) {
      const service = compose.services[name]!;
      expect(service.environment?.HEARTBEAT_FILE).toBe('/tmp/heartbeat');
      expect(service.healthcheck?.test.join(' ')).toContain('/tmp/heartbeat');
    }
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rna-heartbeat-'));
    const file = path.join(dir, 'heartbeat');
    let storesAnswer = false;
    let probesWhileDown = 0;
    const heartbeat = startHeartbeat(
      file,
      async () => {
        if (!storesAnswer) {
          probesWhileDown += 1;
          throw new Error('store down');
        }
      },
      20,
    );
    try {
      // several beats were due while the stores did not answer (counted, not slept through): none written
      await until(async () => probesWhileDown >= 5, 'five probes while the stores are down');
      expect(() => statSync(file)).toThrow();
      storesAnswer = true;
      await until(async () => existsSync(file), 'the first beat');
      // and it goes on beating: the file is written again
      const firstBeat = statSync(file).mtimeMs;
      await until(async () => statSync(file).mtimeMs > firstBeat, 'a later beat');
    } finally {
      heartbeat.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
