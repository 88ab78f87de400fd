/**
 * The accounts features' harness: the composed test API (./compose) with a real local SMTP server
 * and a clock the test can move.
 */
import type express from 'express';
import pino from 'pino';
import request from 'supertest';
import type { AuthTokensDto } from '@rna/domain';
import { createSmtpMailer } from '@rna/infra/mail';
import { startTestSmtpServer, type TestSmtpServer } from '@rna/infra/mail/testing';
import type { ApiDeps, AuthLimits } from '../http/deps';
import { ADMIN_EMAIL, ADMIN_PASSWORD, composeTestApi } from './compose';

export { ADMIN_EMAIL, ADMIN_PASSWORD };

/** The password an invited client chooses at its first sign-in, unless a test chooses another. */
export const CHOSEN_PASSWORD = 'password-scelta-1';

export interface TestApi {
  app: express.Express;
  deps: ApiDeps;
  smtp: TestSmtpServer;
  dir: string;
  /** Moves the clock by ms. */
  advance(ms: number): void;
  setNow(date: Date): void;
  signIn(email: string, password: string): Promise<AuthTokensDto>;
  /**
   * A client's first sign-in: with the invitation code, then the choice of its own password, and
   * the session's tokens refreshed so they open every route. Answers those tokens.
   */
  firstSignIn(email: string, code: string, newPassword?: string): Promise<AuthTokensDto>;
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
  options: {
    limits?: Partial<AuthLimits>;
    logs?: string[];
    trustProxy?: boolean;
    writeRequestsPerMinute?: number;
  } = {},
): Promise<TestApi> {
  const smtp = await startTestSmtpServer();
  let now = new Date('2026-03-10T09:00:00.000Z');
  const logs = options.logs;
  const composed = await composeTestApi({
    dirPrefix: 'api-',
    mailer: createSmtpMailer({ url: smtp.url, from: 'portale@test' }),
    clock: () => now,
    logger: logs ? pino({ level: 'info' }, { write: (line: string) => void logs.push(line) }) : undefined,
    overrides: { limits: options.limits, writeRequestsPerMinute: options.writeRequestsPerMinute },
    trustProxy: options.trustProxy,
  });
  const { app, deps, dir } = composed;

  const signIn = async (email: string, password: string) => {
    const res = await request(app).post('/api/auth/login').send({ email, password });
    if (res.status !== 200)
      throw new Error(`sign-in of ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as AuthTokensDto;
  };
  const firstSignIn = async (email: string, code: string, newPassword = CHOSEN_PASSWORD) => {
    const first = await signIn(email, code);
    if (!first.passwordChangeRequired) throw new Error(`${email} was not asked to choose a password`);
    const chosen = await request(app)
      .put('/api/users/change-password')
      .set('Authorization', `Bearer ${first.accessToken}`)
      .send({ password: code, newPassword });
    if (chosen.status !== 204)
      throw new Error(`password choice of ${email} failed: ${chosen.status} ${JSON.stringify(chosen.body)}`);
    const refreshed = await request(app).post('/api/auth/refresh').send({ refreshToken: first.refreshToken });
    if (refreshed.status !== 200)
      throw new Error(`refresh of ${email} failed: ${refreshed.status} ${JSON.stringify(refreshed.body)}`);
    return refreshed.body as AuthTokensDto;
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
    firstSignIn,
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
      await composed.close();
      await smtp.close();
    },
  };
}
