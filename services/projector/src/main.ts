/**
 * `npm run start:projector` (node services/projector/dist/main.js): keeps the read models.
 * - the event-store projections (accounts, archive, saved searches, variation alerts), each on its own checkpointed $all subscription;
 * - the aid index, fed from the `aids` topic by the consumer group `projection:aid-index`.
 * Several projector processes may run at once: projections are idempotent (upserts by natural key)
 * and checkpointed, and a consumer group hands each `aids` message to one member only.
 */
import path from 'node:path';
import pino from 'pino';
import { enginesFromEnv, openStores } from '@rna/infra/engines';
import { accountProjections } from './accounts';
import { startAidIndexProjection } from './aids';
import { variationAlertsProjection } from './alerts';
import { archiveProjections } from './archive';
import { startProjections } from './projection';
import { savedSearchesProjection } from './searches';

/** Every event-store read model (keep in step with PROJECTION_SUBSCRIBERS in services/api/src/main.ts). */
export const PROJECTOR_PROJECTIONS = [
  ...accountProjections,
  ...archiveProjections,
  savedSearchesProjection,
  variationAlertsProjection,
];

async function main(): Promise<void> {
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' }).child({ service: 'projector' });
  const dataDir = path.resolve(process.env.DATA_DIR?.trim() || 'data');
  const stores = openStores({ dataDir, engines: enginesFromEnv() });
  const readModels = { documents: stores.documents, aidIndex: stores.aidIndex };
  const projections = startProjections(PROJECTOR_PROJECTIONS, stores.eventStore, readModels);
  const aidIndex = startAidIndexProjection({
    messageLog: stores.messageLog,
    aidIndex: stores.aidIndex,
    documents: stores.documents,
  });
  logger.info(
    { dataDir, engines: stores.engines, projections: PROJECTOR_PROJECTIONS.map((p) => p.name) },
    'projector started',
  );
  projections
    .caughtUp()
    .then(() => logger.info('projections caught up'))
    .catch(() => undefined);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Each consumer finishes (and commits) the batch in hand before the stores close.
    Promise.all([projections.stop(), aidIndex.stop()])
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
  process.stderr.write(
    `Projector failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
