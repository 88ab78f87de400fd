/**
 * `npm run start:api` (node services/api/dist/main.js): the HTTP API and the built front end, without
 * projections or the sync worker — those run in their own processes (services/projector, services/sync).
 * Several API processes may run side by side: they share the stores (engines from EVENTSTORE_URL,
 * KAFKA_BROKERS, ELASTICSEARCH_URL, MONGODB_URI; embedded files under DATA_DIR for the absent ones) and
 * the JWT secret (JWT_SECRET, or the one kept in DATA_DIR/secrets).
 */
import { loadConfig, processClock, stopOnSignals } from '@rna/infra/config';
import { openStores, type Stores, engineProbes, waitForEngines } from '@rna/infra/engines';
import { ALL_PROJECTION_SUBSCRIBERS } from '@rna/read-models';
import { composeApi } from './compose-api';
import { createApiLogger } from './http/logger';

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
  const api = await composeApi({
    config,
    stores,
    logger,
    clock: processClock(),
    // The projector is another process, maybe not up yet: read-your-writes waits a bounded time.
    awaitProjections: awaitProjectorCheckpoints(stores, Number(process.env.PROJECTION_WAIT_MS ?? 5000)),
    alertNotifier: process.env.ALERT_NOTIFIER === 'off' ? 'off' : 'lease',
    bulkSearchRunner: process.env.BULK_SEARCH_RUNNER === 'off' ? 'off' : 'lease',
    // replicas of this process share each user's budgets
    sharedRequestBudgets: true,
  });
  // Stoppable before it says it listens: a supervisor (or a test) signals as soon as it reads that.
  stopOnSignals(logger, async () => {
    await api.stop();
    await stores.close();
  });
  if (api.generatedAdminPassword) {
    // Printed once, on the terminal only: never logged as a JSON line.
    process.stdout.write(
      `\nPrimo amministratore creato: ${config.adminEmail}\nPassword generata (mostrata una sola volta): ${api.generatedAdminPassword}\n\n`,
    );
  }
  logger.info(
    { port: api.port, dataDir: config.dataDir, engines: stores.engines, version: config.version },
    'api started',
  );
  // A parent process (tests, supervisors) can read the bound port from this line when PORT=0.
  process.stdout.write(`API_LISTENING ${api.port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`API failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
