import path from 'node:path';
import { createOutboxMailer } from './outbox';
import { createSmtpMailer } from './smtp';
import type { Mailer } from './port';

export * from './port';
export { createOutboxMailer } from './outbox';
export { createSmtpMailer } from './smtp';

export const DEFAULT_MAIL_FROM = 'Portale Aiuti di Stato <noreply@portale.local>';

/** SMTP when a URL is configured, else `.eml` files in `<dataDir>/outbox`. */
export function createMailer(options: { smtpUrl: string | null; dataDir: string; from?: string }): Mailer {
  const from = options.from ?? DEFAULT_MAIL_FROM;
  if (options.smtpUrl) return createSmtpMailer({ url: options.smtpUrl, from });
  return createOutboxMailer({ dir: path.join(options.dataDir, 'outbox'), from });
}
