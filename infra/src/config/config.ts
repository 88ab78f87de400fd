/**
 * Configuration from environment variables (all optional), with the defaults README lists.
 * The JWT secret, when not given, is generated once and kept in the data directory so that
 * tokens survive a restart.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface EngineUrls {
  eventStoreUrl: string | null;
  kafkaBrokers: string[] | null;
  /** KAFKA_MAX_REQUEST_BYTES: at most this many bytes of messages per Produce request. */
  kafkaMaxRequestBytes: number | null;
  /** KAFKA_PARTITIONS / KAFKA_REPLICATION_FACTOR: how the topics are created (defaults 1 / the broker's). */
  kafkaPartitions: number | null;
  kafkaReplicationFactor: number | null;
  /**
   * KAFKA_IDEMPOTENT (default true): the producer's idempotence, off only for a cluster that cannot
   * serve InitProducerId (librdkafka's mock cluster, which the fault tests run the services on).
   */
  kafkaIdempotent: boolean;
  elasticsearchUrl: string | null;
  mongodbUri: string | null;
}

export interface PortalConfig {
  port: number;
  dataDir: string;
  rnaBaseUrl: string;
  /** How long a live search waits for the register before answering from the archive (ms). */
  liveBudgetMs: number;
  /** Scale-out: how long single work (a projection, the sync worker) stays undone after its process died. */
  leaseTtlMs: number;
  /** How many register files the sync worker parses at once, each on a thread of its own (1 = one after another). */
  syncParserThreads: number;
  adminEmail: string;
  adminPassword: string | null;
  publicUrl: string;
  /**
   * Which proxies' X-Forwarded-For to believe (Express's 'trust proxy'): the client address counts
   * sign-in attempts, so it must be the user's, not the proxy's. Default: loopback only.
   */
  trustProxy: boolean | number | string;
  smtpUrl: string | null;
  jwtSecret: string;
  chromiumPath: string;
  version: string;
  /** shown in the footer: the operator's VAT number and contact address */
  vatNumber: string | null;
  contactEmail: string | null;
  engines: EngineUrls;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function optional(env: Env, name: string): string | null {
  const value = env[name]?.trim();
  return value ? value : null;
}

function parsePort(raw: string | null): number {
  if (raw === null) return 8080;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`PORT must be a port number, got "${raw}"`);
  return port;
}

/** A positive whole number of bytes, or null when unset. */
function parseByteBudget(raw: string | null): number | null {
  if (raw === null) return null;
  const bytes = Number(raw);
  if (!Number.isInteger(bytes) || bytes < 1_024)
    throw new ConfigError(
      `KAFKA_MAX_REQUEST_BYTES must be a whole number of bytes (at least 1024), got "${raw}"`,
    );
  return bytes;
}

/** A whole number from 1 to `max`, or null when unset. */
function parseSwitch(name: string, raw: string | null, byDefault: boolean): boolean {
  if (raw === null) return byDefault;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ConfigError(`${name} must be true or false, not "${raw}"`);
}

function parseCount(name: string, raw: string | null, max: number): number | null {
  if (raw === null) return null;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > max)
    throw new ConfigError(`${name} must be a whole number from 1 to ${max}, got "${raw}"`);
  return count;
}

/** Below the 30 s request budget: 1 to 28 seconds, default 20. */
function parseLiveBudget(raw: string | null): number {
  if (raw === null) return 20_000;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 1_000 || ms > 28_000)
    throw new ConfigError(`LIVE_BUDGET_MS must be between 1000 and 28000 milliseconds, got "${raw}"`);
  return ms;
}

/** At least a second (renewed every third of it), default 15 s. */
function parseLeaseTtl(raw: string | null): number {
  if (raw === null) return 15_000;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 1_000)
    throw new ConfigError(
      `LEASE_TTL_MS must be a whole number of milliseconds (at least 1000), got "${raw}"`,
    );
  return ms;
}

/** 'false' → no proxy; 'true' → every hop; a number → that many hops; else addresses/subnets. */
export function parseTrustProxy(raw: string | null): boolean | number | string {
  if (raw === null) return 'loopback';
  if (/^(false|0|none|off)$/i.test(raw)) return false;
  if (/^true$/i.test(raw)) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

function parseUrl(name: string, raw: string): string {
  try {
    return new URL(raw).toString().replace(/\/$/, '');
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
}

/**
 * Reads the secret kept in the data directory, creating it the first time. The secret is written
 * whole to a file of this process's own, then linked to its name, which fails if another process
 * linked first: processes starting together on one DATA_DIR agree on the same secret, and none ever
 * reads a file another is still writing (an exclusive create alone left a moment where it was empty).
 */
export function persistedSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, 'secrets', name);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const own = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(own, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    try {
      linkSync(own, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(own, { force: true });
    }
  }
  return readFileSync(file, 'utf8').trim();
}

export function readVersion(): string {
  const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    version?: string;
  };
  return pkg.version ?? '0.0.0';
}

/**
 * Files parsed at once when SYNC_PARSER_THREADS is not set. One core is left to the writer: each
 * parser thread's aids keep the publishing main thread and the index writer about 0.7 of a core busy,
 * so on 2 cores a second parser gains nothing (measured 0.99–1.08×) and costs ~50 MB of peak RSS.
 */
export function defaultParserThreads(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): PortalConfig {
  const port = parsePort(optional(env, 'PORT'));
  const dataDir = path.resolve(cwd, optional(env, 'DATA_DIR') ?? 'data');
  const jwtSecret = optional(env, 'JWT_SECRET') ?? persistedSecret(dataDir, 'jwt-secret');
  if (jwtSecret.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters long');
  const brokers = optional(env, 'KAFKA_BROKERS');
  return {
    port,
    dataDir,
    rnaBaseUrl: parseUrl('RNA_BASE_URL', optional(env, 'RNA_BASE_URL') ?? 'https://www.rna.gov.it'),
    liveBudgetMs: parseLiveBudget(optional(env, 'LIVE_BUDGET_MS')),
    leaseTtlMs: parseLeaseTtl(optional(env, 'LEASE_TTL_MS')),
    syncParserThreads:
      parseCount('SYNC_PARSER_THREADS', optional(env, 'SYNC_PARSER_THREADS'), 64) ?? defaultParserThreads(),
    adminEmail: (optional(env, 'ADMIN_EMAIL') ?? 'admin@portale.local').toLowerCase(),
    adminPassword: optional(env, 'ADMIN_PASSWORD'),
    publicUrl: parseUrl('PUBLIC_URL', optional(env, 'PUBLIC_URL') ?? `http://localhost:${port}`),
    smtpUrl: optional(env, 'SMTP_URL'),
    trustProxy: parseTrustProxy(optional(env, 'TRUST_PROXY')),
    jwtSecret,
    chromiumPath: optional(env, 'CHROMIUM_PATH') ?? '/usr/bin/chromium',
    version: readVersion(),
    vatNumber: optional(env, 'VAT_NUMBER'),
    contactEmail: optional(env, 'CONTACT_EMAIL'),
    engines: {
      eventStoreUrl: optional(env, 'EVENTSTORE_URL'),
      kafkaBrokers: brokers
        ? brokers
            .split(',')
            .map((b) => b.trim())
            .filter(Boolean)
        : null,
      kafkaMaxRequestBytes: parseByteBudget(optional(env, 'KAFKA_MAX_REQUEST_BYTES')),
      kafkaPartitions: parseCount('KAFKA_PARTITIONS', optional(env, 'KAFKA_PARTITIONS'), 1_000),
      kafkaReplicationFactor: parseCount(
        'KAFKA_REPLICATION_FACTOR',
        optional(env, 'KAFKA_REPLICATION_FACTOR'),
        16,
      ),
      kafkaIdempotent: parseSwitch('KAFKA_IDEMPOTENT', optional(env, 'KAFKA_IDEMPOTENT'), true),
      elasticsearchUrl: optional(env, 'ELASTICSEARCH_URL'),
      mongodbUri: optional(env, 'MONGODB_URI'),
    },
  };
}
