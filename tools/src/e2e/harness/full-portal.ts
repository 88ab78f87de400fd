/**
 * The standalone portal with every feature switched on, for the browser journeys and the demo.
 * startPortal wires accounts and sync; until the lead wires the search feature into it, the
 * search pieces (saved-search and alert projections, the variation-alert notifier, the PDF
 * renderer, the archive's last-update) are added here around it. Each addition is skipped as
 * soon as startPortal provides it, so this file shrinks to a plain call once search is wired.
 */
import type { Logger } from 'pino';
import pino from 'pino';
import type { Mailer } from '@rna/infra/mail';
import { ChromiumPdfRenderer } from '@rna/infra/pdf';
import { startProjections, type Projection } from '@rna/projector';
import { variationAlertsProjection } from '@rna/projector/alerts';
import { SYNC_HISTORY_COLLECTION, type SyncHistoryDoc } from '@rna/projector/archive';
import { savedSearchesProjection } from '@rna/projector/searches';
import { startVariationAlertNotifier } from '@rna/api/alerts';
import {
  allProjections,
  loadConfig,
  startPortal,
  type PortalConfig,
  type RunningPortal,
} from '@rna/standalone';

export interface FullPortalOptions {
  /** Environment as for `npm start` (DATA_DIR, PORT, RNA_BASE_URL, SMTP_URL, ADMIN_*…). */
  env: Record<string, string | undefined>;
  cwd?: string;
  logger?: Logger;
  mailer?: Mailer;
  /** The server's clock; tests move it to expire tokens. */
  clock?: () => Date;
  host?: string;
}

export interface FullPortal extends RunningPortal {
  config: PortalConfig;
  /** What this file had to add because startPortal did not provide it yet (for reports). */
  addedWiring: string[];
}

const SEARCH_PROJECTIONS: readonly Projection[] = [savedSearchesProjection, variationAlertsProjection];

/** Last successful sync end (ms), from the sync history read model. */
async function lastSuccessfulSync(portal: RunningPortal): Promise<number | null> {
  const runs = await portal.stores.documents
    .collection<SyncHistoryDoc>(SYNC_HISTORY_COLLECTION)
    .find({ status: 'SUCCESS' });
  const ends = runs.map((run) => run.end).filter((end): end is number => typeof end === 'number');
  return ends.length > 0 ? Math.max(...ends) : null;
}

export async function startFullPortal(options: FullPortalOptions): Promise<FullPortal> {
  const config = loadConfig(options.env, options.cwd ?? process.cwd());
  const logger = options.logger ?? pino({ level: 'silent' });
  const portal = await startPortal(config, {
    logger,
    mailer: options.mailer,
    clock: options.clock,
    host: options.host ?? '127.0.0.1',
  });
  const addedWiring: string[] = [];
  const deps = portal.deps;
  const wired = new Set(allProjections().map((projection) => projection.name));
  const missing = SEARCH_PROJECTIONS.filter((projection) => !wired.has(projection.name));
  const stops: (() => Promise<void>)[] = [];

  if (missing.length > 0) {
    const stores = { documents: portal.stores.documents, aidIndex: portal.stores.aidIndex };
    const extra = startProjections(missing, portal.stores.eventStore, stores);
    const portalCaughtUp = deps.awaitProjections;
    // The API reads `deps` at request time: read-your-writes must wait for these projections too.
    deps.awaitProjections = async () => {
      await portalCaughtUp?.();
      await extra.caughtUp();
    };
    const notifier = startVariationAlertNotifier({
      eventStore: portal.stores.eventStore,
      documents: portal.stores.documents,
      mailer: deps.mailer,
      clock: deps.clock,
      publicUrl: config.publicUrl,
      onError: (error, alertId) => logger.warn({ err: error, alertId }, 'variation alert mail failed'),
    });
    stops.push(
      () => notifier.stop(),
      () => extra.stop(),
    );
    addedWiring.push(`projections ${missing.map((p) => p.name).join(', ')}`, 'variation-alert notifier');
  }
  if (!deps.pdfRenderer) {
    const renderer = new ChromiumPdfRenderer({ executablePath: config.chromiumPath, poolSize: 1 });
    deps.pdfRenderer = renderer;
    stops.push(() => renderer.close());
    addedWiring.push('PDF renderer');
  }
  if (!deps.archiveLastUpdate) {
    deps.archiveLastUpdate = () => lastSuccessfulSync(portal);
    addedWiring.push('archive last update');
  }

  const stopPortal = portal.stop;
  let stopping: Promise<void> | null = null;
  return {
    ...portal,
    config,
    addedWiring,
    stop: () =>
      (stopping ??= (async () => {
        // the portal first: no request may reach a stopped projection
        await stopPortal();
        for (const stop of stops) await stop();
      })()),
  };
}
