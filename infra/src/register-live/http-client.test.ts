import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpLiveRegister, LIVE_LOOKUP_PATH } from './http-client';
import { LiveRegisterUnavailableError } from './port';
import { parseItalianEuroToCents } from './mapping';

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

describe('HttpLiveRegister', () => {
  it('posts the look-up form and maps the answer to aid records', async () => {
    let seen: IncomingMessage | undefined;
    const register = await startRegister((req, _body, res) => {
      seen = req;
      answer(res, 0, [liveRecord]);
    });
    try {
      const client = new HttpLiveRegister({ baseUrl: register.url });
      const [aid, ...rest] = await client.lookup('01234567897');
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

  it('answers a repeated code from its cache without asking the register again', async () => {
    const register = await startRegister((_req, _body, res) => answer(res, 0, [liveRecord]));
    try {
      const client = new HttpLiveRegister({ baseUrl: register.url });
      await client.lookup('01234567897');
      const again = await client.lookup('01234567897');
      expect(again).toHaveLength(1);
      expect(register.requests).toHaveLength(1);
    } finally {
      await register.close();
    }
  });

  it("refuses at once when the register's pause would exceed the budget, without calling it", async () => {
    const register = await startRegister((_req, _body, res) => answer(res, 30, []));
    try {
      const client = new HttpLiveRegister({ baseUrl: register.url, budgetMs: 2_000 });
      await client.lookup('01234567897');
      await expect(client.lookup('12345678903')).rejects.toBeInstanceOf(LiveRegisterUnavailableError);
      expect(register.requests).toHaveLength(1);
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
      await expect(client.lookup('01234567897')).rejects.toThrow('HTTP 503');
      mode = 'html';
      await expect(client.lookup('01234567897')).rejects.toBeInstanceOf(LiveRegisterUnavailableError);
    } finally {
      await register.close();
    }
  });

  it('gives up within its budget when the register never answers', async () => {
    const register = await startRegister(() => undefined);
    try {
      const client = new HttpLiveRegister({ baseUrl: register.url, budgetMs: 300 });
      // whichever fires first (the request's abort or the budget), the answer is "unavailable"
      await expect(client.lookup('01234567897')).rejects.toBeInstanceOf(LiveRegisterUnavailableError);
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
