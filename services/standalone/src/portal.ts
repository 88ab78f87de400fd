/**
 * Composition root of the embedded default: every store on files under DATA_DIR, the API, the
 * projections and the sync worker in one process, behind one web server.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import { acquireDataDirLock, openEmbeddedStores, type EmbeddedStores } from '@rna/infra/embedded';
import { createMailer, type Mailer } from '@rna/infra/mail';
import {
  createApiLogger,
  createApiRouter,
  ensureDefaultLogo,
  ensureFirstAdmin,
  archiveLastUpdateReader,
  startVariationAlertNotifier,
  startWebServer,
  type ApiDeps,
  type RunningWebServer,
} from '@rna/api';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import type { DeadLetterDoc } from '@rna/infra/dead-letters';
import { HttpLiveRegister } from '@rna/infra/register-live';
import { ALL_PROJECTIONS, startProjections, type Projection } from '@rna/read-models';
import { startAidIndexProjection } from '@rna/projector/aids';
import { HttpRegisterClient } from '@rna/infra/register';
import { requestSync } from '@rna/api';
import { startSyncWorker } from '@rna/sync';
import { systemClock, type PortalConfig } from '@rna/infra/config';

export interface PortalOptions {
  logger?: Logger;
  mailer?: Mailer;
  clock?: () => Date;
  /** Where the built front end is; defaults to frontend/dist of this repository. */
  frontendDir?: string;
  host?: string;
}

export interface RunningPortal {
  url: string;
  port: number;
  stores: EmbeddedStores;
  deps: ApiDeps;
  /** Set when this start created the first administrator with a generated password. */
  generatedAdminPassword: string | null;
  /** Stops accepting, drains requests, stops workers, closes stores, releases the lock. */
  stop(): Promise<void>;
}

const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..', '..');

export function allProjections(): Projection[] {
  return [...ALL_PROJECTIONS];
}

export async function startPortal(config: PortalConfig, options: PortalOptions = {}): Promise<RunningPortal> {
  const logger = options.logger ?? createApiLogger();
  const releaseLock = acquireDataDirLock(config.dataDir, 'standalone');
  let stores: EmbeddedStores | null = null;
  let server: RunningWebServer | null = null;
  try {
    stores = openEmbeddedStores(config.dataDir);
    const projectionStores = { documents: stores.documents, aidIndex: stores.aidIndex };
    const clock = options.clock ?? systemClock;
    // a record set aside is counted on the health check and the sync screen; the log says which
    const onDeadLetter = (letter: DeadLetterDoc) =>
      logger.error({ letter }, 'record set aside (dead letter)');
    const projections = startProjections(allProjections(), stores.eventStore, projectionStores, {
      onDeadLetter,
    });
    const aidIndexProjection = startAidIndexProjection({
      messageLog: stores.messageLog,
      aidIndex: stores.aidIndex,
      documents: stores.documents,
      now: () => clock().getTime(),
      onDeadLetter,
    });
    const eventStore = stores.eventStore;
    const syncWorker = startSyncWorker({
      eventStore,
      messageLog: stores.messageLog,
      documents: stores.documents,
      register: new HttpRegisterClient({ baseUrl: config.rnaBaseUrl }),
      logger: logger.child({ service: 'sync' }),
      clock: { now: clock },
      awaitIndexed: () => aidIndexProjection.caughtUp(),
    });
    const pdfRenderer = new ChromiumPdfRenderer({ executablePath: config.chromiumPath });
    const openedStores = stores;
    const deps: ApiDeps = {
      eventStore: stores.eventStore,
      documents: stores.documents,
      aidIndex: stores.aidIndex,
      messageLog: stores.messageLog,
      blobs: stores.blobs,
      mailer: options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir }),
      config: {
        publicUrl: config.publicUrl,
        jwtSecret: config.jwtSecret,
        version: config.version,
        dataDir: config.dataDir,
      },
      clock,
      logger,
      awaitProjections: () => projections.caughtUp(),
      requestSync: (input) => requestSync(eventStore, input),
      pdfRenderer,
      liveBudgetMs: config.liveBudgetMs,
      liveRegister: new HttpLiveRegister({
        baseUrl: config.rnaBaseUrl,
        onBackgroundFailure: (taxCode, err) => logger.warn({ err, taxCode }, 'queued live look-up failed'),
      }),
      archiveLastUpdate: archiveLastUpdateReader(openedStores.documents),
    };
    const alertNotifier = startVariationAlertNotifier({
      eventStore,
      documents: stores.documents,
      mailer: deps.mailer,
      clock: deps.clock,
      publicUrl: config.publicUrl,
      onError: (error, alertId) =>
        logger.warn({ err: error, alertId }, 'variation alert notification failed'),
    });
    await projections.caughtUp();
    const admin = await ensureFirstAdmin(deps, { email: config.adminEmail, password: config.adminPassword });
    await ensureDefaultLogo(deps);
    server = await startWebServer({
      apiRouter: createApiRouter(deps),
      frontendDir: options.frontendDir ?? path.join(REPOSITORY_ROOT, 'frontend', 'dist'),
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
      host: options.host,
    });
    const running = server;
    const openStores = stores;
    let stopping: Promise<void> | null = null;
    return {
      url: running.url,
      port: running.port,
      stores: openStores,
      deps,
      generatedAdminPassword: admin.created ? admin.generatedPassword : null,
      stop: () =>
        (stopping ??= (async () => {
          await running.close();
          await syncWorker.stop();
          await alertNotifier.stop();
          await pdfRenderer.close();
          await aidIndexProjection.stop();
          await projections.stop();
          await openStores.close();
          releaseLock();
        })()),
    };
  } catch (error) {
    await server?.close(0);
    await stores?.close();
    releaseLock();
    throw error;
  }
}
