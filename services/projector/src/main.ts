/**
 * `npm run start:projector` (node services/projector/dist/main.js): keeps the read models.
 * - the event-store projections (accounts, archive, saved searches, variation alerts), each on its own checkpointed $all subscription;
 * - the aid index, fed from the `aids` topic by the consumer group `projection:aid-index`.
 * Several projector processes may run at once: projections are idempotent (upserts by natural key)
 * and checkpointed, and a consumer group hands each `aids` message to one member only.
 */
import pino from 'pino';
import { loadConfig, processClock, startHeartbeat, stopOnSignals } from '@rna/infra/config';
import type { DeadLetterDoc } from '@rna/infra/dead-letters';
import { openStores, engineProbes, waitForEngines } from '@rna/infra/engines';
import { processHolderId } from '@rna/infra/leases';
import { startAidIndexProjection } from './aids';
import { ALL_PROJECTIONS } from '@rna/read-models';
import { startProjections } from '@rna/read-models';

async function main(): Promise<void> {
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }).child({ service: 'projector' });
  const { dataDir, engines, leaseTtlMs } = loadConfig();
  const clock = processClock();
  // the aids consumer moves to another projector within the lease time, like the projections
  const stores = openStores({ dataDir, engines, groupLeaseMs: leaseTtlMs });
  // Engines may still be starting (a cluster restart, compose): wait for them, do not crash.
  await waitForEngines(engineProbes(stores), { log: logger });
  const readModels = { documents: stores.documents, aidIndex: stores.aidIndex };
  // a record set aside is counted on the health check and the sync screen; the log says which
  const onDeadLetter = (letter: DeadLetterDoc) => logger.error({ letter }, 'record set aside (dead letter)');
  const holder = processHolderId();
  const onChange = (work: string, holding: boolean) =>
    logger.info({ work, holder }, holding ? 'lease taken: running' : 'lease lost: stopped');
  // Several projector processes divide the projections: each runs where its lease is held.
  const projections = startProjections(ALL_PROJECTIONS, stores.eventStore, readModels, {
    onDeadLetter,
    leases: { ttlMs: leaseTtlMs, holder, onChange },
  });
  // The aids topic's consumer group divides it: Kafka hands each partition to one member, the
  // embedded log lets one member of the group fetch at a time.
  const aidIndex = startAidIndexProjection({
    messageLog: stores.messageLog,
    aidIndex: stores.aidIndex,
    documents: stores.documents,
    now: () => clock().getTime(),
    onDeadLetter,
    onGap: (gap) => logger.error({ gap }, 'aids lost before they were indexed: the index is incomplete'),
  });
  // healthy while the event store answers and the aids consumer runs (not while it keeps trying to
  // reach a Kafka that is down: the orchestrator then sees it and can restart or alert)
  const heartbeat = startHeartbeat(process.env.HEARTBEAT_FILE ?? null, async () => {
    if (!aidIndex.running()) throw new Error('the aids consumer is not running');
    await stores.eventStore.readAll({ after: 0, maxCount: 1 });
  });
  // Each consumer finishes (and commits) the batch in hand before the stores close. Stoppable before
  // it says it has started: a supervisor (or a test) signals as soon as it reads that.
  stopOnSignals(logger, async () => {
    heartbeat.stop();
    await Promise.all([projections.stop(), aidIndex.stop()]);
    await stores.close();
  });
  logger.info(
    { dataDir, engines: stores.engines, projections: ALL_PROJECTIONS.map((p) => p.name) },
    'projector started',
  );
  projections
    .caughtUp()
    .then(() => logger.info('projections caught up'))
    .catch(() => undefined);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Projector failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
