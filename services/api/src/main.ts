/**
 * `npm run start:api` (node services/api/dist/main.js): the HTTP API and the built front end, without
 * projections or the sync worker — those run in their own processes (services/projector, services/sync).
 * Several API processes may run side by side: they share the stores (engines from EVENTSTORE_URL,
 * KAFKA_BROKERS, ELASTICSEARCH_URL, MONGODB_URI; embedded files under DATA_DIR for the absent ones) and
 * the JWT secret (JWT_SECRET, or the one kept in DATA_DIR/secrets).
 */
import path from 'node:path';
import { loadConfig, processClock, stopOnSignals } from '@rna/infra/config';
import { openStores, type Stores, engineProbes, waitForEngines } from '@rna/infra/engines';
import { createMailer } from '@rna/infra/mail';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import { runWhileHoldingLease } from '@rna/infra/leases';
import { HttpLiveRegister } from '@rna/infra/register-live';
import { ALL_PROJECTION_SUBSCRIBERS } from '@rna/read-models';
import { requestSync } from './sync/request-sync';
import { createApiRouter } from './app';
import { ensureFirstAdmin } from './auth/first-admin';
import { startVariationAlertNotifier } from './alerts/notifier';
import type { ApiDeps } from './http/deps';
import { createApiLogger } from './http/logger';
import { startWebServer } from './http/web-server';
import { ensureDefaultLogo } from './logos/commands';
import { archiveLastUpdateReader } from './sync/handlers';

const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * Read-your-writes across processes: waits until every projection's checkpoint (stored by the
 * projector process) has reached the newest event at the time of the call, at most `maxWaitMs`.
 */
export function awaitProjectorCheckpoints(
  stores: Pick<Stores, 'eventStore'>,
  maxWaitMs: number,
): () => Promise<void> {
  return async () => {
    const deadline = Date.now() + maxWaitMs;
    const checkpoints = async () =>
      Promise.all(ALL_PROJECTION_SUBSCRIBERS.map((id) => stores.eventStore.getCheckpoint(id)));
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

async function main(): Promise<void> {
  const logger = createApiLogger().child({ service: 'api' });
  const config = loadConfig();
  const stores = openStores({ dataDir: config.dataDir, engines: config.engines });
  // Engines may still be starting (a cluster restart, compose): wait for them, do not crash.
  await waitForEngines(engineProbes(stores), { log: logger });
  const pdfRenderer = new ChromiumPdfRenderer({ executablePath: config.chromiumPath });
  const deps: ApiDeps = {
    eventStore: stores.eventStore,
    documents: stores.documents,
    aidIndex: stores.aidIndex,
    messageLog: stores.messageLog,
    blobs: stores.blobs,
    mailer: createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir }),
    config: {
      publicUrl: config.publicUrl,
      jwtSecret: config.jwtSecret,
      version: config.version,
      dataDir: config.dataDir,
    },
    clock: processClock(),
    logger,
    awaitProjections: awaitProjectorCheckpoints(stores, Number(process.env.PROJECTION_WAIT_MS ?? 5000)),
    requestSync: (input) => requestSync(stores.eventStore, input),
    pdfRenderer,
    liveBudgetMs: config.liveBudgetMs,
    liveRegister: new HttpLiveRegister({
      baseUrl: config.rnaBaseUrl,
      onBackgroundFailure: (taxCode, err) => logger.warn({ err, taxCode }, 'queued live look-up failed'),
    }),
    archiveLastUpdate: archiveLastUpdateReader(stores.documents),
  };

  // The admin check reads a read model: let the projector catch up first (bounded, it may not be up yet).
  await deps.awaitProjections!();
  const admin = await ensureFirstAdmin(deps, { email: config.adminEmail, password: config.adminPassword });
  if (admin.created && admin.generatedPassword) {
    // Printed once, on the terminal only: never logged as a JSON line.
    process.stdout.write(
      `\nPrimo amministratore creato: ${config.adminEmail}\nPassword generata (mostrata una sola volta): ${admin.generatedPassword}\n\n`,
    );
  }
  await ensureDefaultLogo(deps);
  // Variation alerts mail once per sync: the notifier runs in the one API process holding its lease
  // (ALERT_NOTIFIER=off keeps a process out of it altogether).
  const notifier =
    process.env.ALERT_NOTIFIER === 'off'
      ? null
      : runWhileHoldingLease(
          stores.documents,
          {
            name: 'alert-notifier',
            ttlMs: config.leaseTtlMs,
            onChange: (holding) =>
              logger.info(holding ? 'alert notifier lease taken' : 'alert notifier lease lost'),
          },
          () =>
            startVariationAlertNotifier({
              eventStore: stores.eventStore,
              documents: stores.documents,
              mailer: deps.mailer,
              clock: deps.clock,
              publicUrl: config.publicUrl,
              onError: (error, alertId) =>
                logger.warn({ alertId, err: error }, 'variation alert not notified'),
            }),
        );

  const server = await startWebServer({
    apiRouter: createApiRouter(deps),
    frontendDir: path.join(REPOSITORY_ROOT, 'frontend', 'dist'),
    runtimeConfig: () => ({
      version: config.version,
      apiBaseUrl: '/api',
      forcedLastUpdate: null,
      vatNumber: config.vatNumber,
      contactEmail: config.contactEmail,
    }),
    port: config.port,
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy,
  });
  logger.info(
    { port: server.port, dataDir: config.dataDir, engines: stores.engines, version: config.version },
    'api started',
  );
  // A parent process (tests, supervisors) can read the bound port from this line when PORT=0.
  process.stdout.write(`API_LISTENING ${server.port}\n`);

  stopOnSignals(logger, async () => {
    await server.close();
    await notifier?.stop();
    await pdfRenderer.close();
    await stores.close();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`API failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
