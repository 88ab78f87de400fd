/**
 * `npm run rebuild-projections`: forgets every read model and rebuilds them by replaying the event
 * store, and the aid index from the register's files as they were imported (kept by the sync in
 * the blob store — also months the register no longer lists) and then whatever the `aids` topic
 * still holds that the index has not consumed. Projections are idempotent, so the result equals
 * the state before. The log is not replayed from its beginning: it keeps only what is unconsumed.
 *
 * - Embedded: the portal must be stopped (the data directory's lock is taken).
 * - Engines: the projector processes must be stopped; the rebuild takes every projection's lease, so
 *   it refuses to start while a projector holds one, and no projector starts them meanwhile. The API
 *   may keep running: Elasticsearch is rebuilt into a new index and the alias moves to it only when
 *   it is complete, so searches never see an empty or partial index.
 */
import type { AidIndex, BlobStore, DocumentStore, EventStore, MessageLog } from '@rna/infra';
import { RegisterArchive } from '@rna/infra/register';
import { loadConfig } from '@rna/infra/config';
import { acquireDataDirLock } from '@rna/infra/embedded';
import { engineSelection, openStores } from '@rna/infra/stores';
import { processHolderId, releaseLease, tryHoldLease } from '@rna/infra/leases';
import {
  AID_CHANGES_COLLECTION,
  resetProjections,
  startProjections,
  subscriberIdOf,
  type Projection,
} from '@rna/read-models';
import { replayArchivedFiles, resetIndexingProgress, startAidIndexProjection } from '@rna/projector/aids';
import { allProjections } from './portal';

export interface RebuildSummary {
  projections: number;
  aids: number;
  /** Register files replayed from the archive. */
  files: number;
  /** Files whose import was not kept: the next sync downloads them again. */
  notKept: string[];
}

export interface RebuildStores {
  eventStore: EventStore;
  messageLog: MessageLog;
  aidIndex: AidIndex;
  documents: DocumentStore;
  blobs: BlobStore;
}

export async function rebuildProjections(stores: RebuildStores): Promise<RebuildSummary> {
  const projections = allProjections();
  const rebuild = await stores.aidIndex.beginRebuild();
  let files = 0;
  let notKept: string[] = [];
  try {
    await resetProjections(projections, stores.eventStore, {
      documents: stores.documents,
      aidIndex: rebuild.target,
    });
    await stores.documents.collection(AID_CHANGES_COLLECTION).clear();
    await resetIndexingProgress(stores.documents);
    const replayed = await replayArchivedFiles({
      documents: stores.documents,
      archive: new RegisterArchive(stores.blobs),
      target: rebuild.target,
    });
    files = replayed.files;
    notKept = replayed.notKept;

    const running = startProjections(projections, stores.eventStore, {
      documents: stores.documents,
      aidIndex: rebuild.target,
    });
    try {
      await running.caughtUp();
    } finally {
      await running.stop();
    }
    await rebuild.complete();
  } catch (error) {
    await rebuild.abandon();
    throw error;
  }
  // Then what the log holds that the index had not consumed, into the index now in service: the
  // group's offset moves only with what that index holds, so a rebuild abandoned above loses nothing
  // (what is left here, the projector consumes when it starts).
  const aids = startAidIndexProjection({
    messageLog: stores.messageLog,
    aidIndex: stores.aidIndex,
    documents: stores.documents,
  });
  try {
    await aids.caughtUp();
  } finally {
    await aids.stop();
  }
  return { projections: projections.length, aids: await stores.aidIndex.count(), files, notKept };
}

/**
 * Holds the lease of every projection for as long as the rebuild runs (renewed a third of the lease
 * time apart), or refuses at once when a projector process holds one.
 */
export async function holdProjectionLeases(
  documents: DocumentStore,
  projections: readonly Pick<Projection, 'name'>[],
  options: { holder: string; ttlMs: number },
): Promise<() => Promise<void>> {
  const settings = projections.map((projection) => ({
    name: subscriberIdOf(projection),
    holder: options.holder,
    ttlMs: options.ttlMs,
  }));
  const release = () =>
    Promise.all(settings.map((lease) => releaseLease(documents, lease))).then(() => undefined);
  for (const lease of settings) {
    if (await tryHoldLease(documents, lease)) continue;
    await release();
    throw new Error(
      `a projector process holds the projection ${lease.name}: stop every projector before rebuilding`,
    );
  }
  const renew = setInterval(
    () => void Promise.all(settings.map((lease) => tryHoldLease(documents, lease))).catch(() => undefined),
    Math.max(100, Math.floor(options.ttlMs / 3)),
  );
  return async () => {
    clearInterval(renew);
    await release();
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const embedded = Object.values(engineSelection(config.engines)).every((engine) => engine === 'embedded');
  const releaseLock = embedded ? acquireDataDirLock(config.dataDir, 'rebuild-projections') : () => undefined;
  const stores = openStores({ dataDir: config.dataDir, engines: config.engines });
  try {
    const releaseLeases = await holdProjectionLeases(stores.documents, allProjections(), {
      holder: `rebuild-${processHolderId()}`,
      ttlMs: config.leaseTtlMs,
    });
    try {
      const summary = await rebuildProjections(stores);
      process.stdout.write(
        `Ricostruite ${summary.projections} proiezioni e l'indice di ${summary.aids} aiuti da ${
          summary.files
        } file del registro (${embedded ? config.dataDir : 'motori configurati'})\n`,
      );
      if (summary.notKept.length > 0)
        process.stdout.write(
          `File importati prima dell'archivio, da scaricare di nuovo alla prossima sincronizzazione: ${summary.notKept.join(', ')}\n`,
        );
    } finally {
      await releaseLeases();
    }
  } finally {
    await stores.close();
    releaseLock();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`Rebuild failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
