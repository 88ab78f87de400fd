/**
 * The mail contract: every adapter (SMTP, the outbox of .eml files) runs this suite unchanged. The
 * harness says how to find what was delivered to an address, whatever the way it left.
 */
import type { Mailer } from './port';

export interface DeliveredMail {
  subject: string;
  /** The decoded text/plain part. */
  text: string;
  /** The whole message as delivered (headers and every part). */
  raw: string;
}

export interface MailerHarness {
  mailer: Mailer;
  /** The messages delivered to `to` so far, oldest first (waiting a little for them to arrive). */
  deliveredTo(to: string, count?: number): Promise<DeliveredMail[]>;
  dispose(): Promise<void>;
}

export function describeMailerContract(name: string, factory: () => Promise<MailerHarness>): void {
  describe(`Mailer contract: ${name}`, () => {
    let harness: MailerHarness;
    beforeEach(async () => {
      harness = await factory();
    });
    afterEach(async () => {
      await harness.mailer.close();
      await harness.dispose();
    });

    it('delivers a message to its recipient with the subject and the Italian text intact', async () => {
      const text = 'Gentile cliente, è il suo primo accesso.\nCodice di invito: Abc12345\nPiù tardi: già però.\n';
      await harness.mailer.send({ to: 'studio.rossi@example.it', subject: 'Invito al portale – attivazione', text });
      const [mail] = await harness.deliveredTo('studio.rossi@example.it');
      expect(mail?.subject).toBe('Invito al portale – attivazione');
      const lines = mail!.text.split(/\r?\n/);
      expect(lines).toEqual(expect.arrayContaining(['Gentile cliente, è il suo primo accesso.', 'Codice di invito: Abc12345', 'Più tardi: già però.']));
    }); // prettier-ignore

    it('keeps the HTML alternative next to the text', async () => {
      await harness.mailer.send({
        to: 'html@example.it',
        subject: 'Aiuti variati',
        text: 'Sono cambiati gli aiuti di 1 codice fiscale.',
        html: '<p>Sono cambiati gli aiuti di <strong>1</strong> codice fiscale.</p>',
      });
      const [mail] = await harness.deliveredTo('html@example.it');
      expect(mail?.text).toContain('Sono cambiati gli aiuti di 1 codice fiscale.');
      expect(mail?.raw).toMatch(/Content-Type: text\/html/i);
    });

    it('delivers each of several messages to its own recipient only', async () => {
      const recipients = ['a@example.it', 'b@example.it', 'c@example.it'];
      await Promise.all(
        recipients.map((to) =>
          harness.mailer.send({ to, subject: `Per ${to}`, text: `Messaggio per ${to}` }),
        ),
      );
      for (const to of recipients) {
        const mails = await harness.deliveredTo(to);
        expect(mails.map((m) => m.subject)).toEqual([`Per ${to}`]);
        expect(mails[0]?.text).toContain(`Messaggio per ${to}`);
      }
    });
  });
}
