/**
 * The API as tests meet it: the real router on the embedded stores in a temporary directory, every
 * projection running, the default logo and the first administrator. The feature harnesses
 * (accounts: ./harness; search: ../documents/testing) add their own mailer, clock and helpers.
 */
import express from 'express';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { openStores, type Stores } from '@rna/infra/stores';
import type { Mailer } from '@rna/infra/mail';
import { ALL_PROJECTIONS, startProjections, type RunningProjections } from '@rna/read-models';
import { createApiRouter } from '../app';
import { aidLookups } from '../documents/aid-lookups';
import { ensureFirstAdmin } from '../auth/first-admin';
import type { ApiDeps } from '../http/deps';
import { ensureDefaultLogo } from '../logos/commands';
import { archiveLastUpdateReader } from '../sync/handlers';

export const ADMIN_EMAIL = 'admin@portale.test';
export const ADMIN_PASSWORD = 'admin-password-1';

export interface ComposedTestApi {
  app: express.Express;
  deps: ApiDeps;
  stores: Stores;
  projections: RunningProjections;
  dir: string;
  /** Stops projections, closes the mailer and the stores, removes the directory. */
  close(): Promise<void>;
}

export async function composeTestApi(options: {
  dirPrefix: string;
  mailer: Mailer;
  clock: () => Date;
  logger?: Logger;
  overrides?: Partial<ApiDeps>;
  /** As TRUST_PROXY: true lets tests name client addresses with X-Forwarded-For. */
  trustProxy?: boolean;
}): Promise<ComposedTestApi> {
  const dir = mkdtempSync(path.join(tmpdir(), options.dirPrefix));
  const stores = openStores({ dataDir: path.join(dir, 'data') });
  const { eventStore, documents, aidIndex, messageLog, blobs } = stores;
  const projections = startProjections(ALL_PROJECTIONS, eventStore, { documents, aidIndex });
  const deps: ApiDeps = {
    eventStore,
    documents,
    aidIndex,
    messageLog,
    blobs,
    mailer: options.mailer,
    config: {
      publicUrl: 'http://portale.test',
      jwtSecret: 'x'.repeat(48),
      version: '9.9.9-test',
      dataDir: dir,
    },
    clock: options.clock,
    logger: options.logger ?? pino({ level: 'silent' }),
    awaitProjections: () => projections.caughtUp(),
    archiveLastUpdate: archiveLastUpdateReader(documents),
    // as composeApi: every API test searches through the cache the portal runs with
    aidLookups: aidLookups({ documents }),
    ...options.overrides,
  };
  await ensureFirstAdmin(deps, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  await ensureDefaultLogo(deps);
  await projections.caughtUp();
  const app = express();
  app.set('etag', false); // as the web server does
  app.set('trust proxy', options.trustProxy ?? 'loopback');
  app.use('/api', createApiRouter(deps));
  return {
    app,
    deps,
    stores,
    projections,
    dir,
    async close() {
      await projections.stop();
      await deps.mailer.close();
      await stores.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
