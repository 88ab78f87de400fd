/**
 * `npm run rebuild-projections`: forgets every read model and the aid index, then replays the
 * event store and the `aids` topic from the beginning. Projections are idempotent, so the result
 * equals the state before. The portal must be stopped (the data directory lock is taken).
 */
import { AIDS_TOPIC } from '@rna/domain';
import { acquireDataDirLock, openEmbeddedStores, type EmbeddedStores } from '@rna/infra/embedded';
import { resetProjections, startProjections } from '@rna/projector';
import {
  AID_CHANGES_COLLECTION,
  AID_INDEX_GROUP,
  resetIndexingProgress,
  startAidIndexProjection,
} from '@rna/projector/aids';
import { loadConfig } from '@rna/infra/config';
import { allProjections } from './portal';

export interface RebuildSummary {
  projections: number;
  aids: number;
}

export async function rebuildProjections(stores: EmbeddedStores): Promise<RebuildSummary> {
  const projectionStores = { documents: stores.documents, aidIndex: stores.aidIndex };
  const projections = allProjections();
  await resetProjections(projections, stores.eventStore, projectionStores);
  await stores.aidIndex.clear();
  await stores.documents.collection(AID_CHANGES_COLLECTION).clear();
  await resetIndexingProgress(stores.documents);
  await stores.messageLog.resetGroup(AIDS_TOPIC, AID_INDEX_GROUP);

  const running = startProjections(projections, stores.eventStore, projectionStores);
  const aids = startAidIndexProjection({
    messageLog: stores.messageLog,
    aidIndex: stores.aidIndex,
    documents: stores.documents,
  });
  await Promise.all([running.caughtUp(), aids.caughtUp()]);
  await Promise.all([running.stop(), aids.stop()]);
  return { projections: projections.length, aids: await stores.aidIndex.count() };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const release = acquireDataDirLock(config.dataDir, 'rebuild-projections');
  const stores = openEmbeddedStores(config.dataDir);
  try {
    const summary = await rebuildProjections(stores);
    process.stdout.write(
      `Ricostruite ${summary.projections} proiezioni e l'indice di ${summary.aids} aiuti in ${config.dataDir}\n`,
    );
  } finally {
    await stores.close();
    release();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`Rebuild failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
