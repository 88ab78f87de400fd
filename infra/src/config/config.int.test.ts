import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnTsChild, waitForExit, waitForLine } from '../embedded/test-children/spawn-ts-child';
import { ConfigError, loadConfig } from './config';

describe('configuration', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({}, dir);
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe(path.join(dir, 'data'));
    expect(config.rnaBaseUrl).toBe('https://www.rna.gov.it');
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.smtpUrl).toBeNull();
    expect(config.engines).toEqual({
      eventStoreUrl: null,
      kafkaBrokers: null,
      kafkaMaxRequestBytes: null,
      kafkaPartitions: null,
      kafkaReplicationFactor: null,
      kafkaIdempotent: true,
      elasticsearchUrl: null,
      mongodbUri: null,
    });
  });

  it('generates the JWT secret once and keeps it private in the data directory', () => {
    const first = loadConfig({ DATA_DIR: 'd' }, dir);
    const second = loadConfig({ DATA_DIR: 'd' }, dir);
    expect(first.jwtSecret).toHaveLength(64);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(statSync(path.join(dir, 'd', 'secrets', 'jwt-secret')).mode & 0o077).toBe(0);
  });

  it('gives processes starting together on a fresh data directory one and the same whole secret', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'config-race-'));
    try {
      const children = Array.from({ length: 8 }, () => spawnTsChild('persisted-secret.child.ts', [dataDir]));
      const lines = await Promise.all(
        children.map((child) => waitForLine(child, (l) => l.startsWith('secret '))),
      );
      await Promise.all(children.map(waitForExit));
      const secrets = new Set(lines.map((line) => line.slice('secret '.length).trim()));
      expect(secrets.size).toBe(1);
      expect([...secrets][0]!.length).toBeGreaterThanOrEqual(32);
      expect(readdirSync(path.join(dataDir, 'secrets'))).toEqual(['jwt-secret']);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a bad port, a bad URL and a short secret with a clear message', () => {
    expect(() => loadConfig({ PORT: 'eighty' }, dir)).toThrow(ConfigError);
    expect(() => loadConfig({ RNA_BASE_URL: 'not a url' }, dir)).toThrow(/RNA_BASE_URL/);
    expect(() => loadConfig({ JWT_SECRET: 'short' }, dir)).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ KAFKA_IDEMPOTENT: 'no' }, dir)).toThrow(/KAFKA_IDEMPOTENT/);
    expect(loadConfig({ KAFKA_IDEMPOTENT: 'false' }, dir).engines.kafkaIdempotent).toBe(false);
  });

  it('splits Kafka brokers and trims the register URL', () => {
    const config = loadConfig(
      { KAFKA_BROKERS: 'a:9092, b:9092', RNA_BASE_URL: 'http://127.0.0.1:9000/' },
      dir,
    );
    expect(config.engines.kafkaBrokers).toEqual(['a:9092', 'b:9092']);
    expect(config.rnaBaseUrl).toBe('http://127.0.0.1:9000');
  });

  it('bounds the live look-up budget below the request budget', () => {
    expect(loadConfig({}, dir).liveBudgetMs).toBe(20_000);
    expect(loadConfig({ LIVE_BUDGET_MS: '5000' }, dir).liveBudgetMs).toBe(5_000);
    expect(() => loadConfig({ LIVE_BUDGET_MS: '60000' }, dir)).toThrow('LIVE_BUDGET_MS');
    expect(() => loadConfig({ LIVE_BUDGET_MS: 'soon' }, dir)).toThrow('LIVE_BUDGET_MS');
  });

  it('parses register files on one thread per core but one (left to the writer) unless SYNC_PARSER_THREADS says otherwise', () => {
    expect(loadConfig({}, dir).syncParserThreads).toBe(Math.max(1, os.availableParallelism() - 1));
    expect(loadConfig({ SYNC_PARSER_THREADS: '1' }, dir).syncParserThreads).toBe(1);
    expect(loadConfig({ SYNC_PARSER_THREADS: '3' }, dir).syncParserThreads).toBe(3);
    expect(() => loadConfig({ SYNC_PARSER_THREADS: '0' }, dir)).toThrow('SYNC_PARSER_THREADS');
    expect(() => loadConfig({ SYNC_PARSER_THREADS: 'all' }, dir)).toThrow('SYNC_PARSER_THREADS');
  });
});
