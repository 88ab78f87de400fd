/**
 * Composition root of the embedded default: every store on files under DATA_DIR, the API, the
 * projections and the sync worker in one process, behind one web server.
 */
import type { Logger } from 'pino';
import { acquireDataDirLock } from '@rna/infra/embedded';
import { openStores, type Stores } from '@rna/infra/stores';
import type { Mailer } from '@rna/infra/mail';
import { composeApi, createApiLogger, type ApiDeps, type RunningApi } from '@rna/api';
import type { DeadLetterDoc } from '@rna/infra/dead-letters';
import { startProjections } from '@rna/read-models';
import { allProjections } from './projections';
import { startAidIndexProjection } from '@rna/projector/aids';
import { HttpRegisterClient, RegisterArchive } from '@rna/infra/register';
import { startSyncWorker } from '@rna/sync';
import { systemClock, type PortalConfig } from '@rna/infra/config';

export interface PortalOptions {
  logger?: Logger;
  mailer?: Mailer;
  clock?: () => Date;
  /** Where the built front end is; defaults to frontend/dist of this repository. */
  frontendDir?: string;
  host?: string;
  /** Writes per user and minute (the API's default when absent). */
  writeRequestsPerMinute?: number;
}

export interface RunningPortal {
  url: string;
  port: number;
  stores: Stores;
  deps: ApiDeps;
  /** Set when this start created the first administrator with a generated password. */
  generatedAdminPassword: string | null;
  /** Stops accepting, drains requests, stops workers, closes stores, releases the lock. */
  stop(): Promise<void>;
}

export async function startPortal(config: PortalConfig, options: PortalOptions = {}): Promise<RunningPortal> {
  const logger = options.logger ?? createApiLogger();
  const releaseLock = acquireDataDirLock(config.dataDir, 'standalone');
  let stores: Stores | null = null;
  let api: RunningApi | null = null;
  try {
    // The embedded default: no engine configured, every port on a file under DATA_DIR.
    stores = openStores({ dataDir: config.dataDir });
    const openedStores = stores;
    const clock = options.clock ?? systemClock;
    // a record set aside is counted on the health check and the sync screen; the log says which
    const onDeadLetter = (letter: DeadLetterDoc) =>
      logger.error({ letter }, 'record set aside (dead letter)');
    const projections = startProjections(
      allProjections(),
      stores.eventStore,
      { documents: stores.documents, aidIndex: stores.aidIndex },
      { onDeadLetter },
    );
    const aidIndexProjection = startAidIndexProjection({
      messageLog: stores.messageLog,
      aidIndex: stores.aidIndex,
      documents: stores.documents,
      now: () => clock().getTime(),
      onDeadLetter,
    });
    const syncWorker = startSyncWorker({
      eventStore: stores.eventStore,
      messageLog: stores.messageLog,
      documents: stores.documents,
      register: new HttpRegisterClient({ baseUrl: config.rnaBaseUrl }),
      archive: new RegisterArchive(stores.blobs),
      logger: logger.child({ service: 'sync' }),
      clock: { now: clock },
      awaitIndexed: () => aidIndexProjection.caughtUp(),
      parserThreads: config.syncParserThreads,
    });
    api = await composeApi({
      config,
      stores,
      logger,
      clock,
      mailer: options.mailer,
      awaitProjections: () => projections.caughtUp(),
      // this process holds the data directory's lock: nobody else could send the alerts
      alertNotifier: 'here',
      bulkSearchRunner: 'here',
      frontendDir: options.frontendDir,
      host: options.host,
      writeRequestsPerMinute: options.writeRequestsPerMinute,
    });
    const runningApi = api;
    let stopping: Promise<void> | null = null;
    return {
      url: runningApi.url,
      port: runningApi.port,
      stores: openedStores,
      deps: runningApi.deps,
      generatedAdminPassword: runningApi.generatedAdminPassword,
      stop: () =>
        (stopping ??= (async () => {
          await runningApi.stop();
          await syncWorker.stop();
          await aidIndexProjection.stop();
          await projections.stop();
          await openedStores.close();
          releaseLock();
        })()),
    };
  } catch (error) {
    await api?.stop();
    await stores?.close();
    releaseLock();
    throw error;
  }
}
