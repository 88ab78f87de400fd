/** SMTP adapter (nodemailer), used when SMTP_URL is set, e.g. smtp://user:pass@host:587. */
import { mailLibrary } from './mail-library';
import { MailDeliveryError, type MailMessage, type Mailer } from './port';

export interface SmtpMailerOptions {
  url: string;
  from: string;
  /** Give up on an unreachable server quickly: the invite request has a 60 s budget. */
  timeoutMs?: number;
}

export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const timeout = options.timeoutMs ?? 20_000;
  const transport = mailLibrary().createTransport({
    url: options.url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    async send(message: MailMessage) {
      try {
        await transport.sendMail({ from: options.from, ...message });
      } catch (error) {
        // The SMTP URL may carry credentials: keep it out of the message.
        throw new MailDeliveryError(`SMTP delivery to ${message.to} failed`, { cause: error });
      }
    },
    async close() {
      transport.close();
    },
  };
}
