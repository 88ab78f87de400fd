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
 *
 * The rebuilt index is put in service only when it holds, for every register file, at least as many
 * aids as the index in service: a kept file that is missing or shorter (files imported before files
 * were kept, a damaged copy) leaves the old index in place, unless the operator accepts it
 * (`-- --allow-fewer-aids`; those files are imported again by the next sync).
 */
import {
  withShadowCollections,
  type AidIndex,
  type BlobStore,
  type DocumentStore,
  type EventStore,
  type MessageLog,
} from '@rna/infra';
import { RegisterArchive } from '@rna/infra/register';
import { loadConfig } from '@rna/infra/config';
import { acquireDataDirLock } from '@rna/infra/embedded';
import { engineSelection, openStores } from '@rna/infra/stores';
import { attemptLease, processHolderId, releaseLease, tryHoldLease } from '@rna/infra/leases';
import {
  FILE_STATE_COLLECTION,
  noteEveryAidChanged,
  type FileState,
  resetProjections,
  startProjections,
  subscriberIdOf,
  type Projection,
} from '@rna/read-models';
import { replayArchivedFiles, resetIndexingProgress, startAidIndexProjection } from '@rna/projector/aids';
import { allProjections } from './projections';

export interface RebuildSummary {
  projections: number;
  aids: number;
  /** Register files replayed from the archive. */
  files: number;
  /** Files whose import was not kept: the next sync downloads them again. */
  notKept: string[];
}

/** A register file of which the rebuilt index would hold fewer aids than the index in service. */
export interface ShortFile {
  sourceFile: string;
  inService: number;
  rebuilt: number;
}

/** The rebuild was left unfinished: the index in service holds more aids of these files. */
export class RebuildShortError extends Error {
  constructor(readonly files: ShortFile[]) {
    const shown = files
      .slice(0, 10)
      .map((f) => `${f.sourceFile} (${f.rebuilt} invece di ${f.inService})`)
      .join(', ');
    super(
      `l'indice ricostruito avrebbe meno aiuti di quello in servizio per ${files.length} file: ${shown}${
        files.length > 10 ? ', …' : ''
      }. L'indice in servizio resta com'era. Per accettarlo (quei file si importano di nuovo alla prossima sincronizzazione): npm run rebuild-projections -- --allow-fewer-aids`,
    );
    this.name = 'RebuildShortError';
  }
}

/**
 * Files of which `rebuilt` holds fewer aids than it must (a file it lacks counts 0): as many as the
 * index in service, or as the file's last import published (its marker) when that is fewer — aids of
 * an older import left in service are not owed.
 */
export function shortFiles(
  inService: readonly { sourceFile: string; count: number }[],
  rebuilt: readonly { sourceFile: string; count: number }[],
  published: ReadonlyMap<string, number>,
): ShortFile[] {
  const counts = new Map(rebuilt.map((f) => [f.sourceFile, f.count]));
  return inService
    .map((f) => ({
      sourceFile: f.sourceFile,
      inService: Math.min(f.count, published.get(f.sourceFile) ?? Infinity),
      rebuilt: counts.get(f.sourceFile) ?? 0,
    }))
    .filter((f) => f.rebuilt < f.inService);
}

export interface RebuildStores {
  eventStore: EventStore;
  messageLog: MessageLog;
  aidIndex: AidIndex;
  documents: DocumentStore;
  blobs: BlobStore;
}

export async function rebuildProjections(
  stores: RebuildStores,
  options: { allowFewerAids?: boolean; parallelFiles?: number } = {},
): Promise<RebuildSummary> {
  const projections = allProjections();
  const rebuild = await stores.aidIndex.beginRebuild();
  // the read models are rebuilt beside the ones in service, which the API goes on reading, and take
  // their place (each in one step) only once the rebuild is complete: never served empty
  const readModels = withShadowCollections(
    stores.documents,
    projections.flatMap((projection) => projection.collections),
  );
  let files = 0;
  let notKept: string[] = [];
  try {
    await resetProjections(projections, stores.eventStore, {
      documents: readModels,
      aidIndex: rebuild.target,
    });
    await resetIndexingProgress(stores.documents);
    // what each file's last import published, read before the replay forgets the files not kept
    const published = new Map(
      (await stores.documents.collection<FileState>(FILE_STATE_COLLECTION).find()).map((f) => [
        f.id,
        f.records,
      ]),
    );
    const replayed = await replayArchivedFiles({
      documents: stores.documents,
      archive: new RegisterArchive(stores.blobs),
      target: rebuild.target,
      parallelFiles: options.parallelFiles,
    });
    files = replayed.files;
    notKept = replayed.notKept;

    const running = startProjections(projections, stores.eventStore, {
      documents: readModels,
      aidIndex: rebuild.target,
    });
    try {
      await running.caughtUp();
    } finally {
      await running.stop();
    }
    // on any doubt the good copy stays: never an index with fewer aids of a file than the one it replaces
    const short = shortFiles(
      await stores.aidIndex.statsBySourceFile(),
      await rebuild.target.statsBySourceFile(),
      published,
    );
    if (short.length > 0 && !options.allowFewerAids) throw new RebuildShortError(short);
    await rebuild.complete();
    await readModels.promoteShadows();
    // not a change of any aid (the noted changes stay for the alerts), but every look-up an API
    // process cached was answered by the index just replaced
    await noteEveryAidChanged(stores.documents, Date.now());
  } catch (error) {
    await rebuild.abandon();
    await readModels.dropShadows();
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
 * time apart), or refuses when a projector process holds one. A lease held by someone else is watched
 * (a third of the lease time apart): it is taken once its revision stayed unchanged for the lease time
 * (a projector that died: no host can tell that sooner, as no host's clock is compared with another's);
 * the rebuild refuses as soon as the revision changes (a live projector renewing it), and in any case
 * after one and a half lease times.
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
  const pollMs = Math.max(50, Math.floor(options.ttlMs / 3));
  const giveUpAt = performance.now() + options.ttlMs * 1.5;
  const held = new Set<(typeof settings)[number]>();
  let refused: string | null = null;
  // the leases taken so far are renewed while the others are still watched
  const renew = setInterval(
    () => void Promise.all([...held].map((lease) => tryHoldLease(documents, lease))).catch(() => undefined),
    pollMs,
  );
  const release = async () => {
    clearInterval(renew);
    await Promise.all(settings.map((lease) => releaseLease(documents, lease)));
  };
  const take = async (lease: (typeof settings)[number]) => {
    let attempt = await attemptLease(documents, lease);
    const firstSeen = attempt.revision;
    while (!attempt.held) {
      if (refused !== null) return;
      if (attempt.revision !== firstSeen || performance.now() >= giveUpAt) {
        refused ??= lease.name;
        return;
      }
      const waitMs = Math.min(pollMs, Math.max(1, Math.ceil(attempt.ripeInMs)));
      await new Promise((resolve) => setTimeout(resolve, waitMs));
      attempt = await attemptLease(documents, lease);
    }
    held.add(lease);
  };
  try {
    await Promise.all(settings.map(take));
  } catch (error) {
    await release().catch(() => undefined);
    throw error;
  }
  if (refused !== null) {
    await release();
    throw new Error(
      `a projector process holds the projection ${refused}: stop every projector before rebuilding`,
    );
  }
  return release;
}

export interface RebuildArguments {
  allowFewerAids: boolean;
  /** Kept files parsed at once (`--parallel-files=N`); the replay's default when absent. */
  parallelFiles?: number;
}

/** The command's arguments: `--allow-fewer-aids`, `--parallel-files=N` (a whole number from 1). */
export function rebuildArguments(argv: readonly string[]): RebuildArguments {
  const parsed: RebuildArguments = { allowFewerAids: false };
  for (const arg of argv) {
    if (arg === '--allow-fewer-aids') parsed.allowFewerAids = true;
    else if (arg.startsWith('--parallel-files=')) {
      const value = arg.slice('--parallel-files='.length);
      if (!/^[1-9]\d{0,2}$/.test(value))
        throw new Error(`--parallel-files vuole un numero intero da 1 a 999, non "${value}"`);
      parsed.parallelFiles = Number(value);
    } else throw new Error(`argomento sconosciuto: ${arg} (ammessi: --allow-fewer-aids, --parallel-files=N)`);
  }
  return parsed;
}

async function main(): Promise<void> {
  const options = rebuildArguments(process.argv.slice(2));
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
      const summary = await rebuildProjections(stores, options);
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
