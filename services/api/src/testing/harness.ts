/**
 * An API over HTTP (supertest) on the embedded stores (openEmbeddedStores) in a temporary directory, with the account
 * projections running, a real local SMTP server, and a clock the test can move.
 */
import express from 'express';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import type { AuthTokensDto } from '@rna/domain';
import { openEmbeddedStores } from '@rna/infra/embedded';
import { createSmtpMailer } from '@rna/infra/mail';
import { startTestSmtpServer, type TestSmtpServer } from '@rna/infra/mail/testing';
import { startProjections, type RunningProjections } from '@rna/projector';
import { accountProjections } from '@rna/projector/accounts';
import { createApiRouter } from '../app';
import { ensureFirstAdmin } from '../auth/first-admin';
import type { ApiDeps, AuthLimits } from '../http/deps';
import { ensureDefaultLogo } from '../logos/commands';

export const ADMIN_EMAIL = 'admin@portale.test';
export const ADMIN_PASSWORD = 'admin-password-1';

export interface TestApi {
  app: express.Express;
  deps: ApiDeps;
  smtp: TestSmtpServer;
  dir: string;
  /** Moves the clock by ms. */
  advance(ms: number): void;
  setNow(date: Date): void;
  signIn(email: string, password: string): Promise<AuthTokensDto>;
  adminToken(): Promise<string>;
  /** Invites a client as the admin and reads the code from its mail. */
  inviteClient(email: string, fixedTaxCode?: string): Promise<{ id: string; code: string }>;
  close(): Promise<void>;
}

export function invitationCodeIn(text: string): string {
  const match = /^Codice di invito: (\S+)$/m.exec(text);
  if (!match?.[1]) throw new Error(`no invitation code in mail:\n${text}`);
  return match[1];
}

export async function startTestApi(
  options: { limits?: Partial<AuthLimits>; logs?: string[] } = {},
): Promise<TestApi> {
  const dir = mkdtempSync(path.join(tmpdir(), 'api-'));
  const smtp = await startTestSmtpServer();
  let now = new Date('2026-03-10T09:00:00.000Z');
  const stores = openEmbeddedStores(path.join(dir, 'data'));
  const { eventStore, aidIndex, messageLog, documents, blobs } = stores;
  const logs = options.logs;
  const logger = logs
    ? pino({ level: 'info' }, { write: (line: string) => void logs.push(line) })
    : pino({ level: 'silent' });
  let projections: RunningProjections | null = null;
  const deps: ApiDeps = {
    eventStore,
    aidIndex,
    messageLog,
    documents,
    blobs,
    mailer: createSmtpMailer({ url: smtp.url, from: 'portale@test' }),
    config: {
      publicUrl: 'http://portale.test',
      jwtSecret: 'x'.repeat(48),
      version: '9.9.9-test',
      dataDir: dir,
    },
    clock: () => now,
    logger,
    awaitProjections: () => projections?.caughtUp() ?? Promise.resolve(),
    limits: options.limits,
  };
  projections = startProjections(accountProjections, eventStore, { documents, aidIndex });
  await ensureFirstAdmin(deps, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  await ensureDefaultLogo(deps);
  await projections.caughtUp();
  const app = express();
  app.use('/api', createApiRouter(deps));

  const signIn = async (email: string, password: string) => {
    const res = await request(app).post('/api/auth/login').send({ email, password });
    if (res.status !== 200)
      throw new Error(`sign-in of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as AuthTokensDto;
  };
  let adminAccess: string | null = null;
  const adminToken = async () => (adminAccess ??= (await signIn(ADMIN_EMAIL, ADMIN_PASSWORD)).accessToken);

  return {
    app,
    deps,
    smtp,
    dir,
    advance(ms) {
      now = new Date(now.getTime() + ms);
      adminAccess = null;
    },
    setNow(date) {
      now = date;
      adminAccess = null;
    },
    signIn,
    adminToken,
    async inviteClient(email, fixedTaxCode) {
      const res = await request(app)
        .post('/api/clients/invite')
        .set('Authorization', `Bearer ${await adminToken()}`)
        .send(fixedTaxCode ? { email, fixedTaxCode } : { email });
      if (res.status !== 200) throw new Error(`invite failed: ${res.status} ${JSON.stringify(res.body)}`);
      const mail = await smtp.waitFor(email);
      return { id: (res.body as { id: string }).id, code: invitationCodeIn(mail.text) };
    },
    async close() {
      await projections?.stop();
      await deps.mailer.close();
      await smtp.close();
      await stores.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
