/**
 * `npm run start:api` (node services/api/dist/main.js): the HTTP API and the built front end, without
 * projections or the sync worker — those run in their own processes (services/projector, services/sync).
 * Several API processes may run side by side: they share the stores (engines from EVENTSTORE_URL,
 * KAFKA_BROKERS, ELASTICSEARCH_URL, MONGODB_URI; embedded files under DATA_DIR for the absent ones) and
 * the JWT secret (JWT_SECRET, or the one kept in DATA_DIR/secrets).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import express from 'express';
import { enginesFromEnv, openStores, type Stores } from '@rna/infra/engines';
import { createMailer } from '@rna/infra/mail';
import { accountProjections } from '@rna/projector/accounts';
import { variationAlertsProjection } from '@rna/projector/alerts';
import { archiveProjections } from '@rna/projector/archive';
import { savedSearchesProjection } from '@rna/projector/searches';
import type { SyncScope, Actor } from '@rna/domain';
import {
  apiRoutes,
  buildRouter,
  createApiLogger,
  ensureDefaultLogo,
  ensureFirstAdmin,
  type ApiDeps,
} from './index';
import { startVariationAlertNotifier } from './alerts/notifier';
import { syncRoutes } from './sync';

const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..', '..');
/** Subscriber ids of the projections the projector process runs (read-your-writes waits on them). */
const PROJECTION_SUBSCRIBERS = [
  ...accountProjections,
  ...archiveProjections,
  savedSearchesProjection,
  variationAlertsProjection,
].map((p) => `projection:${p.name}`);

function env(name: string): string | null {
  return process.env[name]?.trim() || null;
}

/** JWT_SECRET, or one generated once under DATA_DIR (created exclusively: concurrent starts agree on it). */
function jwtSecret(dataDir: string): string {
  const given = env('JWT_SECRET');
  if (given) {
    if (given.length < 32) throw new Error('JWT_SECRET must be at least 32 characters long');
    return given;
  }
  const file = path.join(dataDir, 'secrets', 'jwt-secret');
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return readFileSync(file, 'utf8').trim();
}

/**
 * Read-your-writes across processes: waits until every projection's checkpoint (stored by the
 * projector process) has reached the newest event at the time of the call, at most `maxWaitMs`.
 */
export function awaitProjectorCheckpoints(stores: Stores, maxWaitMs: number): () => Promise<void> {
  return async () => {
    const deadline = Date.now() + maxWaitMs;
    const checkpoints = async () =>
      Promise.all(PROJECTION_SUBSCRIBERS.map((id) => stores.eventStore.getCheckpoint(id)));
    let head = Math.min(...(await checkpoints()));
    for (;;) {
      const newer = await stores.eventStore.readAll({ after: head, maxCount: 1000 });
      if (newer.length === 0) break;
      head = newer[newer.length - 1]!.globalPosition;
    }
    while (Math.min(...(await checkpoints())) < head) {
      if (Date.now() > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
}

/** The sync command lives in @rna/sync, which this package does not reference: loaded at run time. */
async function loadRequestSync(stores: Stores) {
  const moduleName = '@rna/sync';
  const sync = (await import(moduleName)) as {
    requestSync(
      eventStore: Stores['eventStore'],
      input: { scope: SyncScope; onlyDocuments?: string[]; by: Actor },
    ): Promise<{ runId: string; at: string }>;
  };
  return (input: { scope: SyncScope; onlyDocuments: string[]; by: Actor }) =>
    sync.requestSync(stores.eventStore, input);
}

async function main(): Promise<void> {
  const logger = createApiLogger().child({ service: 'api' });
  const port = Number(env('PORT') ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got "${env('PORT')}"`);
  const dataDir = path.resolve(env('DATA_DIR') ?? 'data');
  const stores = openStores({ dataDir, engines: enginesFromEnv() });
  const version =
    (JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as { version?: string })
      .version ?? '0.0.0';
  const deps: ApiDeps & { requestSync: Awaited<ReturnType<typeof loadRequestSync>> } = {
    eventStore: stores.eventStore,
    documents: stores.documents,
    aidIndex: stores.aidIndex,
    messageLog: stores.messageLog,
    blobs: stores.blobs,
    mailer: createMailer({ smtpUrl: env('SMTP_URL'), dataDir }),
    config: {
      publicUrl: env('PUBLIC_URL') ?? `http://localhost:${port}`,
      jwtSecret: jwtSecret(dataDir),
      version,
      dataDir,
    },
    clock: () => new Date(),
    logger,
    awaitProjections: awaitProjectorCheckpoints(stores, Number(env('PROJECTION_WAIT_MS') ?? 5000)),
    requestSync: await loadRequestSync(stores),
  };

  // The admin check reads a read model: let the projector catch up first (bounded, it may not be up yet).
  await deps.awaitProjections!();
  const admin = await ensureFirstAdmin(deps, {
    email: env('ADMIN_EMAIL') ?? 'admin@portale.local',
    password: env('ADMIN_PASSWORD'),
  });
  if (admin.created && admin.generatedPassword) {
    // Printed once, on the terminal only: never logged as a JSON line.
    process.stdout.write(
      `\nPrimo amministratore creato. Password generata (mostrata una sola volta): ${admin.generatedPassword}\n\n`,
    );
  }
  await ensureDefaultLogo(deps);
  // Variation alerts mail once per sync: run the notifier in ONE API process (ALERT_NOTIFIER=off on the others).
  const notifier =
    env('ALERT_NOTIFIER') === 'off'
      ? null
      : startVariationAlertNotifier({
          eventStore: stores.eventStore,
          documents: stores.documents,
          mailer: deps.mailer,
          clock: deps.clock,
          publicUrl: deps.config.publicUrl,
          onError: (error, alertId) => logger.warn({ alertId, err: error }, 'variation alert not notified'),
        });

  // /sync is added here until the feature list registers it (then this adds nothing).
  const routes = apiRoutes();
  const missingSync = syncRoutes.filter(
    (r) => !routes.some((known) => known.method === r.method && known.path === r.path),
  );
  const app = express();
  app.disable('x-powered-by');
  app.use('/api', buildRouter([...routes, ...missingSync], deps));
  app.get('/config.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ version, apiBaseUrl: '/api', forcedLastUpdate: null });
  });
  const frontendDir = path.join(REPOSITORY_ROOT, 'frontend', 'dist');
  if (existsSync(path.join(frontendDir, 'index.html'))) {
    app.use(express.static(frontendDir, { index: false, maxAge: '1h' }));
    app.get(/.*/, (_req, res) =>
      res.setHeader('Cache-Control', 'no-cache').sendFile(path.join(frontendDir, 'index.html')),
    );
  }
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(port, () => resolve(listening));
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  logger.info({ port: boundPort, dataDir, engines: stores.engines, version }, 'api started');
  // A parent process (tests, supervisors) can read the bound port from this line when PORT=0.
  process.stdout.write(`API_LISTENING ${boundPort}\n`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close();
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 10_000).unref();
    Promise.resolve(notifier?.stop())
      .then(() => stores.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`API failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
