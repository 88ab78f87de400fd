/**
 * Outbox adapter: without SMTP, each message is written as an RFC 822 `.eml` file under
 * `<dataDir>/outbox`, so a local installation can still read invitations and reset links.
 */
import type { Transporter } from 'nodemailer';
import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mailLibrary } from './mail-library';
import { MailDeliveryError, type MailMessage, type Mailer } from './port';

export interface OutboxMailerOptions {
  dir: string;
  from: string;
  clock?: () => Date;
}

export function createOutboxMailer(options: OutboxMailerOptions): Mailer {
  // made with the first message: nodemailer is loaded then, not with the portal (mail-library.ts)
  let composer: Transporter | null = null;
  const compose = () =>
    (composer ??= mailLibrary().createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  const clock = options.clock ?? (() => new Date());
  return {
    async send(message: MailMessage) {
      const transport = compose();
      try {
        const info = await transport.sendMail({ from: options.from, ...message });
        // Invitation codes and reset links are secrets: the folder and the files are the owner's only.
        await mkdir(options.dir, { recursive: true, mode: 0o700 });
        // Sortable by time; written under a temporary name first so readers never see half a file.
        const stamp = clock().toISOString().replace(/[:.]/g, '-');
        const name = `${stamp}-${randomUUID()}.eml`;
        const temporary = path.join(options.dir, `.${name}.tmp`);
        await writeFile(temporary, info.message as Buffer, { mode: 0o600 });
        await rename(temporary, path.join(options.dir, name));
      } catch (error) {
        throw new MailDeliveryError(`Could not write the message to ${message.to} to the outbox`, {
          cause: error,
        });
      }
    },
    async close() {},
  };
}
