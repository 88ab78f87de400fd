/**
 * The standalone portal as `npm start` runs it (every feature wired by startPortal), started
 * in-process from an environment, for the browser journeys and the demo.
 */
import type { Logger } from 'pino';
import pino from 'pino';
import type { Mailer } from '@rna/infra/mail';
import { loadConfig, type PortalConfig } from '@rna/infra/config';
import { startPortal, type RunningPortal } from '@rna/standalone';

export interface FullPortalOptions {
  /** Environment as for `npm start` (DATA_DIR, PORT, RNA_BASE_URL, SMTP_URL, ADMIN_*…). */
  env: Record<string, string | undefined>;
  cwd?: string;
  logger?: Logger;
  mailer?: Mailer;
  /** The server's clock; tests move it to expire tokens. */
  clock?: () => Date;
  host?: string;
  /** Writes per user and minute (the API's default when absent). */
  writeRequestsPerMinute?: number;
}

export interface FullPortal extends RunningPortal {
  config: PortalConfig;
}

export async function startFullPortal(options: FullPortalOptions): Promise<FullPortal> {
  const config = loadConfig(options.env, options.cwd ?? process.cwd());
  const portal = await startPortal(config, {
    logger: options.logger ?? pino({ level: 'silent' }),
    mailer: options.mailer,
    clock: options.clock,
    host: options.host ?? '127.0.0.1',
    writeRequestsPerMinute: options.writeRequestsPerMinute,
  });
  return { ...portal, config };
}
