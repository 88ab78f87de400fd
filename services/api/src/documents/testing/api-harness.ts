/**
 * Test harness of the search features over HTTP: the real API router on the embedded SQLite
 * stores, projections running, an administrator, and clients invited and signed in through the API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import type { AidRecord } from '@rna/domain';
import { openEmbeddedStores } from '@rna/infra/embedded';
import type { Mailer, MailMessage } from '@rna/infra/mail';
import { accountProjections } from '@rna/projector/accounts';
import { variationAlertsProjection } from '@rna/projector/alerts';
import { startProjections } from '@rna/projector';
import { savedSearchesProjection } from '@rna/projector/searches';
import { createApiRouter } from '../../app';
import { ensureFirstAdmin } from '../../auth/first-admin';
import type { ApiDeps } from '../../http/deps';
import { ensureDefaultLogo } from '../../logos/commands';

export interface ApiHarness {
  app: express.Express;
  deps: ApiDeps;
  mails: MailMessage[];
  adminToken: string;
  /** Invites a client (limits and flags set through the API) and signs it in. */
  client(options: {
    remainingSearches?: number;
    endDate?: number;
    pdfEnabled?: boolean;
    enableVariationAlerts?: boolean;
    fixedTaxCode?: string;
  }): Promise<{ id: string; email: string; token: string }>;
  indexAids(aids: AidRecord[]): Promise<void>;
  close(): Promise<void>;
}

let clientNumber = 0;

export async function startApiHarness(overrides: Partial<ApiDeps> = {}): Promise<ApiHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'search-api-'));
  const stores = openEmbeddedStores(join(dir, 'data'));
  const { eventStore, documents, aidIndex, messageLog, blobs } = stores;
  const mails: MailMessage[] = [];
  const mailer: Mailer = { send: async (mail) => void mails.push(mail), close: async () => undefined };
  const projections = startProjections(
    [...accountProjections, savedSearchesProjection, variationAlertsProjection],
    eventStore,
    { documents, aidIndex },
  );
  const deps: ApiDeps = {
    eventStore,
    documents,
    aidIndex,
    messageLog,
    blobs,
    mailer,
    config: {
      publicUrl: 'http://portale.test',
      jwtSecret: 'test-secret-of-enough-length',
      version: 'test',
      dataDir: dir,
    },
    clock: () => new Date(),
    logger: pino({ level: 'silent' }),
    awaitProjections: () => projections.caughtUp(),
    ...overrides,
  };
  await ensureDefaultLogo(deps);
  await ensureFirstAdmin(deps, { email: 'admin@portale.test', password: 'admin-password-1' });
  const app = express();
  app.use('/api', createApiRouter(deps));
  const login = async (email: string, password: string) => {
    const response = await request(app).post('/api/auth/login').send({ email, password }).expect(200);
    return (response.body as { accessToken: string }).accessToken;
  };
  const adminToken = await login('admin@portale.test', 'admin-password-1');
  const asAdmin = (test: request.Test) => test.set('Authorization', `Bearer ${adminToken}`);

  return {
    app,
    deps,
    mails,
    adminToken,
    async client(options) {
      clientNumber += 1;
      const email = `cliente${clientNumber}@example.com`;
      const invited = await asAdmin(request(app).post('/api/clients/invite'))
        .send({ email, ...(options.fixedTaxCode ? { fixedTaxCode: options.fixedTaxCode } : {}) })
        .expect(200);
      const { id, invitationCode } = invited.body as { id: string; invitationCode: string };
      if (options.remainingSearches !== undefined || options.endDate !== undefined) {
        await asAdmin(request(app).put(`/api/clients/${id}/limits`))
          .send({
            availableYearlySearches: Math.max(options.remainingSearches ?? 100, 100),
            remainingSearches: options.remainingSearches ?? 100,
            endDate: options.endDate ?? Date.now() + 365 * 86_400_000,
          })
          .expect(200);
      }
      if (options.pdfEnabled !== undefined)
        await asAdmin(request(app).put(`/api/clients/${id}/pdf-enabled`))
          .send({ enabled: options.pdfEnabled })
          .expect(200);
      if (options.enableVariationAlerts !== undefined)
        await asAdmin(request(app).put(`/api/clients/${id}/enable-variation-alerts`))
          .send({ enable: options.enableVariationAlerts })
          .expect(200);
      const token = await login(email, invitationCode);
      await projections.caughtUp();
      return { id, email, token };
    },
    async indexAids(aids) {
      for (let i = 0; i < aids.length; i += 1000) await aidIndex.upsert(aids.slice(i, i + 1000));
    },
    async close() {
      await projections.stop();
      await stores.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
