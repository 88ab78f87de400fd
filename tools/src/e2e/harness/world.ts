/**
 * One journey file's world: a generated archive served by the register mirror, a local SMTP
 * server catching mail, the portal in-process on a temp DATA_DIR and a free port, and one
 * headless Chromium. The server clock can be moved forward (token expiry).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { PINNED_TEST_INSTANT, runningClockFrom } from '@rna/infra/config';
import { startTestSmtpServer, type TestSmtpServer } from '@rna/infra/mail/testing';
import { startMirror, type RunningMirror } from '../../rna-mirror/server';
import { generateSmallArchive, type GeneratedArchive } from './archive';
import { cspViolations, launchBrowser, pinBrowserClock, type AccessibilityReport } from './browser';
import { startFullPortal, type FullPortal } from './full-portal';

export const ADMIN = { email: 'admin@portale.test', password: 'Admin-password-1' } as const;

export interface World {
  portal: FullPortal;
  mirror: RunningMirror;
  smtp: TestSmtpServer;
  archive: GeneratedArchive;
  browser: Browser;
  accessibility: AccessibilityReport;
  /** The pinned date the world runs from (server and browsers), whatever day the suite runs. */
  now(): Date;
  /** Moves the server clock forward by ms (the browser's clock is not touched). */
  advanceServerClock(ms: number): void;
  stop(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'rna-e2e-'));
  const now = runningClockFrom(new Date(PINNED_TEST_INSTANT));
  pinBrowserClock(now);
  const archive = await generateSmallArchive(path.join(root, 'register'), now());
  const mirror = await startMirror({ dir: archive.dir, host: '127.0.0.1' });
  const smtp = await startTestSmtpServer();
  let offsetMs = 0;
  const portal = await startFullPortal({
    env: {
      DATA_DIR: path.join(root, 'data'),
      PORT: '0',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: smtp.url,
      RNA_BASE_URL: mirror.url,
      JWT_SECRET: 'e2e-secret-that-is-long-enough-for-hs256-tokens',
      CHROMIUM_PATH: process.env.CHROMIUM_PATH,
    },
    clock: () => new Date(now().getTime() + offsetMs),
  });
  const browser = await launchBrowser();
  return {
    portal,
    mirror,
    smtp,
    archive,
    browser,
    accessibility: new Map(),
    now,
    advanceServerClock(ms) {
      offsetMs += ms;
    },
    async stop() {
      await browser.close().catch(() => undefined);
      await portal.stop();
      await smtp.close();
      await mirror.close();
      await rm(root, { recursive: true, force: true });
      if (cspViolations.length > 0)
        throw new Error(`The pages broke the Content-Security-Policy:\n${cspViolations.join('\n')}`);
    },
  };
}
