/** Mail port: one outgoing message at a time; adapters decide how it leaves (SMTP or files). */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * The message's own id (`<…@…>`): a message sent again after a crash under the same id is the
   * same message to the mail systems that read it, not a second one.
   */
  messageId?: string;
}

export interface Mailer {
  /** Resolves once the message was accepted (by the SMTP server or written to the outbox). */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** Thrown when a message could not be handed over; the API maps it to G003. */
export class MailDeliveryError extends Error {
  readonly code = 'MAIL_DELIVERY' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailDeliveryError';
  }
}
