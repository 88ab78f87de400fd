/**
 * Test harness of the search features over HTTP: the composed test API (../../testing/compose) with
 * mail collected in memory, and clients invited and signed in through the API.
 */
import type express from 'express';
import request from 'supertest';
import type { AidRecord } from '@rna/domain';
import { PINNED_TEST_INSTANT } from '@rna/infra/config';
import { noteAidChanges } from '@rna/read-models';
import type { Mailer, MailMessage } from '@rna/infra/mail';
import { credentials } from '../../accounts/credentials';
import { recordFirstPassword } from '../../accounts/first-password';
import type { ApiDeps } from '../../http/deps';
import { ADMIN_EMAIL, ADMIN_PASSWORD, composeTestApi } from '../../testing/compose';

export interface ApiHarness {
  app: express.Express;
  deps: ApiDeps;
  mails: MailMessage[];
  adminToken: string;
  /** The API's clock: pinned (PINNED_TEST_INSTANT unless `now` is given), moved only by the test. */
  now(): Date;
  setNow(date: Date): void;
  /** Invites a client (limits and flags set through the API) and signs it in. */
  client(options: {
    remainingSearches?: number;
    endDate?: number;
    pdfEnabled?: boolean;
    enableVariationAlerts?: boolean;
    fixedTaxCode?: string;
  }): Promise<{ id: string; email: string; token: string }>;
  /** Indexes aids and notes their codes as changed, as the projector's aid-index projection does. */
  indexAids(aids: AidRecord[]): Promise<void>;
  close(): Promise<void>;
}

let clientNumber = 0;

export async function startApiHarness(
  overrides: Partial<ApiDeps> = {},
  options: { now?: Date } = {},
): Promise<ApiHarness> {
  let now = options.now ?? new Date(PINNED_TEST_INSTANT);
  const mails: MailMessage[] = [];
  const mailer: Mailer = { send: async (mail) => void mails.push(mail), close: async () => undefined };
  const composed = await composeTestApi({
    dirPrefix: 'search-api-',
    mailer,
    clock: () => now,
    // Races and benches send hundreds of searches (and writes) a minute per user: the per-minute
    // limits are tested on their own (paidRequestsPerMinute, writeRequestsPerMinute in the overrides).
    overrides: { paidRequestsPerMinute: 1_000_000, writeRequestsPerMinute: 1_000_000, ...overrides },
  });
  const { app, deps, projections } = composed;
  const { aidIndex, documents } = composed.stores;
  const login = async (email: string, password: string) => {
    const response = await request(app).post('/api/auth/login').send({ email, password }).expect(200);
    return (response.body as { accessToken: string }).accessToken;
  };
  const adminToken = await login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const asAdmin = (test: request.Test) => test.set('Authorization', `Bearer ${adminToken}`);

  return {
    app,
    deps,
    mails,
    adminToken,
    now: () => now,
    setNow(date) {
      now = date;
    },
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
            endDate: options.endDate ?? now.getTime() + 365 * 86_400_000,
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
      // The invitation code opens only the choice of a password (the accounts tests walk it): here
      // the client is left as if it had chosen the code as its password, without hashing it twice more.
      await recordFirstPassword(deps, id, { signedIn: false });
      const credential = await credentials(deps).getWithRevision(email);
      await credentials(deps).put(
        { ...credential!.doc, activated: true, invitationCode: null },
        { expectedRevision: credential!.revision },
      );
      const token = await login(email, invitationCode);
      await projections.caughtUp();
      return { id, email, token };
    },
    async indexAids(aids) {
      for (let i = 0; i < aids.length; i += 1000) {
        const { changedTaxCodes } = await aidIndex.upsert(aids.slice(i, i + 1000));
        await noteAidChanges(documents, changedTaxCodes, now.getTime());
      }
    },
    close: () => composed.close(),
  };
}
