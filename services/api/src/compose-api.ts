/**
 * The API's one composition: the ports it is given, the adapters it owns (mailer, Chromium, live
 * register), the first administrator and the default logo, the variation-alert notifier, and the web
 * server with the built front end. `npm run start:api` (main.ts) and the embedded portal
 * (services/standalone) both call it; they differ only in where the stores and projections run.
 */
import path from 'node:path';
import type { Logger } from 'pino';
import type { PortalConfig } from '@rna/infra/config';
import type { Stores } from '@rna/infra/stores';
import { fencedDocuments, fencedEventStore } from '@rna/infra';
import type { Fence } from '@rna/infra/fencing';
import { runWhileHoldingLease } from '@rna/infra/leases';
import { createMailer, type Mailer } from '@rna/infra/mail';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import { HttpLiveRegister } from '@rna/infra/register-live';
import { startVariationAlertNotifier } from './alerts/notifier';
import { BULK_RUNNER_LEASE, startBulkSearchRunner } from './bulk-searches/runner';
import { createApiRouter } from './app';
import { aidLookups } from './documents/aid-lookups';
import { ensureFirstAdmin } from './auth/first-admin';
import type { ApiDeps } from './http/deps';
import { startWebServer, type RunningWebServer } from './http/web-server';
import { ensureDefaultLogo, normaliseStoredLogos } from './logos/commands';
import { archiveLastUpdateReader } from './sync/handlers';
import { requestSync } from './sync/request-sync';

const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..', '..');

export interface ComposeApiOptions {
  config: PortalConfig;
  stores: Pick<Stores, 'eventStore' | 'documents' | 'aidIndex' | 'messageLog' | 'blobs'>;
  logger: Logger;
  clock: () => Date;
  /** Resolves when the projections have applied everything appended so far (read-your-writes). */
  awaitProjections: () => Promise<void>;
  /** Default: SMTP when SMTP_URL is set, else the outbox under the data directory. */
  mailer?: Mailer;
  /**
   * Variation alerts mail once per sync, so one process sends them: 'here' when this is the only
   * process on the data (the embedded portal holds the data directory's lock); 'lease' (default) when
   * several API processes run, the one holding the 'alert-notifier' lease; 'off' (ALERT_NOTIFIER=off).
   */
  alertNotifier?: 'here' | 'lease' | 'off';
  /**
   * Bulk search jobs run in one process at a time, chosen as the alert notifier is: 'here', 'lease'
   * (default: the holder of the 'bulk-search-runner' lease) or 'off' (BULK_SEARCH_RUNNER=off).
   */
  bulkSearchRunner?: 'here' | 'lease' | 'off';
  /** Where the built front end is; defaults to frontend/dist of this repository. */
  frontendDir?: string;
  host?: string;
  /** Writes per user and minute (http/paid-work-limit's default when absent). */
  writeRequestsPerMinute?: number;
  /** Count the per-user budgets in the shared store: several API processes run (http/paid-work-limit). */
  sharedRequestBudgets?: boolean;
}

export interface RunningApi {
  url: string;
  port: number;
  deps: ApiDeps;
  /** Set when this start created the first administrator with a generated password. */
  generatedAdminPassword: string | null;
  /** Stops accepting and drains requests, then stops the notifier and Chromium (not the stores). */
  stop(): Promise<void>;
}

export async function composeApi(options: ComposeApiOptions): Promise<RunningApi> {
  const { config, stores, logger } = options;
  const pdfRenderer = new ChromiumPdfRenderer({ executablePath: config.chromiumPath });
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
    clock: options.clock,
    logger,
    awaitProjections: options.awaitProjections,
    writeRequestsPerMinute: options.writeRequestsPerMinute,
    sharedRequestBudgets: options.sharedRequestBudgets,
    requestSync: (input) => requestSync(stores.eventStore, input),
    pdfRenderer,
    liveBudgetMs: config.liveBudgetMs,
    liveRegister: new HttpLiveRegister({
      baseUrl: config.rnaBaseUrl,
      onBackgroundFailure: (taxCode, err) => logger.warn({ err, taxCode }, 'queued live look-up failed'),
    }),
    archiveLastUpdate: archiveLastUpdateReader(stores.documents),
    aidLookups: aidLookups({ documents: stores.documents }),
  };
  let server: RunningWebServer | null = null;
  let notifier: { stop(): Promise<void> } | null = null;
  let bulkRunner: { stop(): Promise<void> } | null = null;
  try {
    // The admin check reads a read model: the projections catch up first.
    await options.awaitProjections();
    const admin = await ensureFirstAdmin(deps, { email: config.adminEmail, password: config.adminPassword });
    await ensureDefaultLogo(deps);
    await normaliseStoredLogos(deps);
    const alerts = options.alertNotifier ?? 'lease';
    notifier =
      alerts === 'off'
        ? null
        : alerts === 'here'
          ? startAlertNotifier(deps, config)
          : runWhileHoldingLease(
              deps.documents,
              {
                name: 'alert-notifier',
                ttlMs: config.leaseTtlMs,
                onChange: (holding) =>
                  logger.info(holding ? 'alert notifier lease taken' : 'alert notifier lease lost'),
              },
              (lease) => startAlertNotifier(asHolder(deps, lease.fence()), config),
            );
    const bulk = options.bulkSearchRunner ?? 'lease';
    bulkRunner =
      bulk === 'off'
        ? null
        : bulk === 'here'
          ? startBulkSearchRunner(deps)
          : runWhileHoldingLease(
              deps.documents,
              {
                name: BULK_RUNNER_LEASE,
                ttlMs: config.leaseTtlMs,
                onChange: (holding) =>
                  logger.info(holding ? 'bulk search runner lease taken' : 'bulk search runner lease lost'),
              },
              (lease) => startBulkSearchRunner(asHolder(deps, lease.fence())),
            );
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
    const runningNotifier = notifier;
    const runningBulkRunner = bulkRunner;
    let stopping: Promise<void> | null = null;
    return {
      url: running.url,
      port: running.port,
      deps,
      generatedAdminPassword: admin.created ? admin.generatedPassword : null,
      stop: () =>
        (stopping ??= (async () => {
          await running.close();
          await runningNotifier?.stop();
          await runningBulkRunner?.stop();
          await pdfRenderer.close();
        })()),
    };
  } catch (error) {
    await server?.close(0);
    await notifier?.stop();
    await bulkRunner?.stop();
    await pdfRenderer.close();
    throw error;
  }
}

/**
 * The dependencies as a lease holder uses them: its events, checkpoints and documents carry its fence,
 * so that nothing it still writes after a pause past its lease lands once the next holder has written.
 */
function asHolder(deps: ApiDeps, fence: Fence): ApiDeps {
  return {
    ...deps,
    eventStore: fencedEventStore(deps.eventStore, fence),
    documents: fencedDocuments(deps.documents, fence),
  };
}

function startAlertNotifier(deps: ApiDeps, config: PortalConfig): { stop(): Promise<void> } {
  return startVariationAlertNotifier({
    eventStore: deps.eventStore,
    documents: deps.documents,
    mailer: deps.mailer,
    clock: deps.clock,
    publicUrl: config.publicUrl,
    onError: (error, alertId) => deps.logger.warn({ alertId, err: error }, 'variation alert not notified'),
  });
}
