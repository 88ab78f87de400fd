import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpLiveRegister, LIVE_LOOKUP_PATH } from './http-client';
import { LiveRegisterUnavailableError } from './port';
import { parseItalianEuroToCents } from './mapping';
import { until } from '../embedded/testing';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

async function startRegister(
  handler: Handler,
): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests.push(body);
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const answer = (res: ServerResponse, sleep: number, data: unknown[]) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ recordsTotal: data.length, recordsFiltered: data.length, data, sleep }));
};

const liveRecord = {
  cor: '1234567',
  car: '98765',
  ce: 'SA.12345',
  titolo: 'Bando innovazione',
  tipo: 'De Minimis',
  progetto: 'Nuovo impianto',
  data: '15/03/2024',
  beneficiario: 'ACME S.R.L.',
  cf: '01234567897',
  regione: 'Lombardia',
  elemento_aiuto: '€ 12.345,60',
  id_concessione: 'C-42',
};

const inSeconds = (seconds: number) => Date.now() + seconds * 1000;
const codesAsked = (requests: string[]) =>
  requests.map((body) => new URLSearchParams(body).get('values[cfBen]'));

describe('HttpLiveRegister', () => {
  it('posts the look-up form and maps the answer to aid records', async () => {
    let seen: IncomingMessage | undefined;
    const register = await startRegister((req, _body, res) => {
      seen = req;
      answer(res, 0, [liveRecord]);
    });
    try {
      const client = new HttpLiveRegister({ baseUrl: register.url });
      const found = await client.lookup('01234567897', inSeconds(5));
      if (found.kind !== 'ANSWERED') throw new Error('expected an answer');
      const [aid, ...rest] = found.records;
      expect(rest).toHaveLength(0);
      expect(seen?.url).toBe(LIVE_LOOKUP_PATH);
      expect(seen?.headers['x-requested-with']).toBe('XMLHttpRequest');
      const form = new URLSearchParams(register.requests[0]);
      expect(form.get('values[cfBen]')).toBe('01234567897');
      expect(form.get('values[count]')).toBe('1');
      expect(form.get('values[denom]')).toBe('');
      expect(aid).toMatchObject({
        idComponenteAiuto: 'C-42',
        cor: '1234567',
        titoloMisura: 'Bando innovazione',
        dataConcessione: '2024-03-15',
        denominazioneBeneficiario: 'ACME S.R.L.',
        codiceFiscaleBeneficiario: '01234567897',
        codProcedimento: '1',
        desProcedimento: 'De Minimis',
        elementoDiAiutoCents: 1234560,
        sourceFile: 'LIVE',
      });
    } finally {
      await register.close();
    }
  });

  it('answers a repeated code from its cache for the rest of the Rome day, then asks again', async () => {
    const register = await startRegister((_req, _body, res) => answer(res, 0, [liveRecord]));
    let now = Date.parse('2026-03-10T08:00:00Z');
    try {
      const client = new HttpLiveRegister({ baseUrl: register.url, defaultPauseMs: 0, now: () => now });
      const first = await client.lookup('01234567897', inSeconds(5));
      now = Date.parse('2026-03-10T22:30:00Z'); // 23:30 in Rome: the same day
      const again = await client.lookup('01234567897', inSeconds(5));
      expect(again).toEqual(first);
      expect(again).toMatchObject({ kind: 'ANSWERED', answeredAt: Date.parse('2026-03-10T08:00:00Z') });
      expect(register.requests).toHaveLength(1);
      now = Date.parse('2026-03-10T23:30:00Z'); // 00:30 of the next day in Rome
      expect(await client.lookup('01234567897', inSeconds(5))).toMatchObject({ answeredAt: now });
      expect(register.requests).toHaveLength(2);
    } finally {
      await register.close();
    }
  });

  it("says PACED before the caller's deadline when the register's pause passes it, asks later at its pace, and keeps the answer", async () => {
    // the register asks for 2 s between callers (the real one asks for 30); the callers wait 1 s at most
    const register = await startRegister((_req, _body, res) => answer(res, 2, [liveRecord]));
    try {
      const client = new HttpLiveRegister({ baseUrl: register.url });
      expect(await client.lookup('01234567897', inSeconds(5))).toMatchObject({ kind: 'ANSWERED' });
      const deadline = inSeconds(1);
      const paced = await Promise.all([
        client.lookup('12345678903', deadline),
        client.lookup('00000000000', deadline),
      ]);
      expect(paced).toEqual([{ kind: 'PACED' }, { kind: 'PACED' }]);
      // told without waiting out the deadline (the register's next turn is known to come after it)
      expect(Date.now()).toBeLessThan(deadline);
      expect(register.requests).toHaveLength(1);
      // both stay queued and are asked one after the other, 2 s apart
      await until(() => register.requests.length === 3, 15_000);
      expect(codesAsked(register.requests)).toEqual(['01234567897', '12345678903', '00000000000']);
      // answered from the day's cache, live, without asking again
      expect(await client.lookup('12345678903', Date.now() + 10)).toMatchObject({ kind: 'ANSWERED' });
      expect(register.requests).toHaveLength(3);
    } finally {
      await register.close();
    }
  }, 30_000);

  it('waits for a turn that comes before the deadline', async () => {
    const register = await startRegister((_req, _body, res) => answer(res, 0.3, []));
    try {
      const client = new HttpLiveRegister({ baseUrl: register.url });
      await client.lookup('01234567897', inSeconds(5));
      const [second, third] = await Promise.all([
        client.lookup('12345678903', inSeconds(5)),
        client.lookup('00000000000', inSeconds(5)),
      ]);
      expect([second.kind, third.kind]).toEqual(['ANSWERED', 'ANSWERED']);
      expect(register.requests).toHaveLength(3);
    } finally {
      await register.close();
    }
  });

  it('lets a caller go as soon as the pause the register states leaves no turn before its deadline', async () => {
    // the client assumes a short pause until the register says 30 s with its first answer
    const register = await startRegister((_req, _body, res) => answer(res, 30, []));
    try {
      const client = new HttpLiveRegister({ baseUrl: register.url, defaultPauseMs: 100 });
      const deadline = inSeconds(10);
      const [first, second] = await Promise.all([
        client.lookup('01234567897', deadline),
        client.lookup('12345678903', deadline),
      ]);
      expect([first.kind, second.kind]).toEqual(['ANSWERED', 'PACED']);
      // let go once the register said 30 s, not kept until its own deadline
      expect(Date.now()).toBeLessThan(deadline);
    } finally {
      await register.close();
    }
  });

  it('fails with LiveRegisterUnavailableError on maintenance pages and malformed answers', async () => {
    let mode: 'maintenance' | 'html' = 'maintenance';
    const register = await startRegister((_req, _body, res) => {
      if (mode === 'maintenance') {
        res.writeHead(503);
        res.end('Sito in manutenzione');
      } else {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>no</html>');
      }
    });
    try {
      const client = new HttpLiveRegister({ baseUrl: register.url, defaultPauseMs: 0 });
      await expect(client.lookup('01234567897', inSeconds(5))).rejects.toThrow('HTTP 503');
      mode = 'html';
      await expect(client.lookup('01234567897', inSeconds(5))).rejects.toBeInstanceOf(
        LiveRegisterUnavailableError,
      );
    } finally {
      await register.close();
    }
  });

  it('hears PACED at its deadline when the register never answers, and the failure is reported', async () => {
    const register = await startRegister(() => undefined);
    const failures: string[] = [];
    try {
      const client = new HttpLiveRegister({
        baseUrl: register.url,
        requestTimeoutMs: 500,
        onBackgroundFailure: (taxCode, error) => failures.push(`${taxCode}: ${(error as Error).message}`),
      });
      const asked = Date.now();
      expect(await client.lookup('01234567897', Date.now() + 200)).toEqual({ kind: 'PACED' });
      expect(Date.now() - asked).toBeLessThan(450);
      await until(() => failures.length === 1, 3_000);
      expect(failures).toEqual(['01234567897: The register could not be reached']);
    } finally {
      await register.close();
    }
  });
});

describe('parseItalianEuroToCents', () => {
  it.each([
    ['€ 1.234,56', 123456],
    ['€ 300.000,00', 30000000],
    ['€ 0,5', 50],
    ['12', 1200],
    ['n.d.', 0],
    ['€ -5.000,00', -500000],
  ])('%s → %d cents', (input, cents) => expect(parseItalianEuroToCents(input)).toBe(cents));
});
