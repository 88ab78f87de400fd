import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeMailerContract, type DeliveredMail } from './contract';
import { createMailer, MailDeliveryError } from './index';
import { readMime, startTestSmtpServer, type TestSmtpServer } from './testing';

const waitFor = async <T>(read: () => T[], count: number, what: string): Promise<T[]> => {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = read();
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`${what}: ${found.length} of ${count} within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describeMailerContract('SMTP (against smtp-server)', async () => {
  const smtp = await startTestSmtpServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'mail-smtp-')); // stays empty: nothing goes to the outbox
  return {
    mailer: createMailer({ smtpUrl: smtp.url, dataDir: dir }),
    deliveredTo: (to, count = 1) =>
      waitFor(() => smtp.received.filter((mail) => mail.to.includes(to)), count, `mail to ${to}`),
    dispose: async () => {
      await smtp.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeMailerContract('outbox (.eml files under DATA_DIR)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mail-outbox-'));
  const outbox = path.join(dir, 'outbox');
  const delivered = (): (DeliveredMail & { to: string })[] => {
    let files: string[] = [];
    try {
      files = readdirSync(outbox)
        .filter((file) => file.endsWith('.eml'))
        .sort();
    } catch {
      return [];
    }
    return files.map((file) => {
      const raw = readFileSync(path.join(outbox, file), 'utf8');
      return { ...readMime(raw), raw, to: /^To: (.*)$/im.exec(raw)?.[1]?.trim() ?? '' };
    });
  };
  return {
    mailer: createMailer({ smtpUrl: null, dataDir: dir }),
    deliveredTo: (to, count = 1) =>
      waitFor(() => delivered().filter((mail) => mail.to === to), count, `outbox message to ${to}`),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('mailer', () => {
  let smtp: TestSmtpServer;
  let dir: string;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterAll(() => smtp.close());
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mail-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const message = {
    to: 'cliente@example.it',
    subject: 'Invito al portale',
    text: 'Benvenuto, è il suo primo accesso.\nCodice di invito: Abc12345\n',
  };

  it('delivers over SMTP when a URL is configured, with Italian text intact', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, dataDir: dir });
    await mailer.send(message);
    const mail = await smtp.waitFor('cliente@example.it');
    expect(mail.subject).toBe('Invito al portale');
    expect(mail.text).toContain('è il suo primo accesso');
    expect(mail.text.split(/\r?\n/)).toContain('Codice di invito: Abc12345');
    expect(readdirSync(dir)).toEqual([]);
    await mailer.close();
  });

  it('reports a refused message as a delivery error', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, dataDir: dir });
    smtp.refuseAll(true);
    try {
      await expect(mailer.send({ ...message, to: 'rifiutato@example.it' })).rejects.toBeInstanceOf(
        MailDeliveryError,
      );
    } finally {
      smtp.refuseAll(false);
      await mailer.close();
    }
  });

  it('reports an unreachable server as a delivery error without echoing the URL', async () => {
    const mailer = createMailer({ smtpUrl: 'smtp://user:secret@127.0.0.1:1', dataDir: dir });
    const error = await mailer.send(message).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect(String((error as Error).message)).not.toContain('secret');
  });

  it('writes .eml files to DATA_DIR/outbox without SMTP', async () => {
    const mailer = createMailer({ smtpUrl: null, dataDir: dir });
    await mailer.send(message);
    await mailer.send({ ...message, to: 'altro@example.it', html: '<p>ciao</p>' });
    const files = readdirSync(path.join(dir, 'outbox')).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
    const first = readMime(readFileSync(path.join(dir, 'outbox', files[0]!), 'utf8'));
    const texts = files.map((f) => readMime(readFileSync(path.join(dir, 'outbox', f), 'utf8')).text);
    expect(first.subject).toBe('Invito al portale');
    expect(texts.every((t) => t.includes('Codice di invito: Abc12345'))).toBe(true);
    // the messages hold invitation codes and reset links: readable by the owner only
    for (const file of files) expect(statSync(path.join(dir, 'outbox', file)).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, 'outbox')).mode & 0o077).toBe(0);
  });
});
