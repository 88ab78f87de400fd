/**
 * `npm run start:sync` (node services/sync/dist/main.js): the archive sync worker. It waits for
 * SyncRequested events (appended by the API), downloads the register files from RNA_BASE_URL and
 * publishes their aids on the `aids` topic; the projector feeds the index from there.
 * Any number of sync processes may run: the one holding the `sync-worker` lease imports.
 */
import pino from 'pino';
import { loadConfig, processClock, startHeartbeat, stopOnSignals } from '@rna/infra/config';
import { openStores, engineProbes, waitForEngines } from '@rna/infra/engines';
import { processHolderId, runWhileHoldingLease } from '@rna/infra/leases';
import { HttpRegisterClient, RegisterArchive } from '@rna/infra/register';
import { startSyncWorker } from './worker';

async function main(): Promise<void> {
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }).child({ service: 'sync' });
  const { dataDir, rnaBaseUrl: baseUrl, engines, leaseTtlMs, syncParserThreads } = loadConfig();
  const stores = openStores({ dataDir, engines });
  // Engines may still be starting (a cluster restart, compose): wait for them, do not crash.
  await waitForEngines(engineProbes(stores), { log: logger });
  const holder = processHolderId();
  // One worker imports at a time, whatever the number of sync processes: the one holding the lease.
  // When it dies, another takes the lease within LEASE_TTL_MS and resumes the run.
  const worker = runWhileHoldingLease(
    stores.documents,
    {
      name: 'sync-worker',
      holder,
      ttlMs: leaseTtlMs,
      onChange: (holding) =>
        logger.info({ holder }, holding ? 'sync lease taken: running' : 'sync lease lost: stopped'),
    },
    (lease) =>
      startSyncWorker({
        leaseValid: lease.valid,
        fence: lease.fence(),
        eventStore: stores.eventStore,
        messageLog: stores.messageLog,
        documents: stores.documents,
        register: new HttpRegisterClient({ baseUrl }),
        archive: new RegisterArchive(stores.blobs),
        logger,
        clock: { now: processClock() },
        parserThreads: syncParserThreads,
      }),
  );
  const heartbeat = startHeartbeat(process.env.HEARTBEAT_FILE ?? null, () =>
    stores.documents.collection('leases').get('sync-worker'),
  );
  // The file in progress is left unfinished, as in a crash: the next start resumes the run. Stoppable
  // before it says it has started: a supervisor (or a test) signals as soon as it reads that.
  stopOnSignals(logger, async () => {
    heartbeat.stop();
    await worker.stop();
    await stores.close();
  });
  logger.info({ dataDir, engines: stores.engines, register: baseUrl }, 'sync worker started');
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Sync worker failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
