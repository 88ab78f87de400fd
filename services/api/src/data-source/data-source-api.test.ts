import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { streams, type SearchResultDto } from '@rna/domain';
import { HttpLiveRegister } from '@rna/infra/register-live';
import { startApiHarness, type ApiHarness } from '../documents/testing';
import { anAid } from '../documents/testing';

/** A stand-in for the register's live look-up: one aid for 01234567897, or maintenance. */
async function startLiveRegister(): Promise<{
  url: string;
  setDown: (down: boolean) => void;
  close: () => Promise<void>;
}> {
  let down = false;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (down) {
        res.writeHead(503).end('manutenzione');
        return;
      }
      const code = new URLSearchParams(body).get('values[cfBen]');
      const data =
        code === '01234567897'
          ? [
              {
                cor: '777',
                titolo: 'Misura live',
                tipo: 'De Minimis',
                data: '03/02/2025',
                beneficiario: 'LIVE SRL',
                cf: code,
                elemento_aiuto: '€ 2.500,00',
                id_concessione: 'L1',
              },
            ]
          : [];
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ recordsTotal: data.length, data, sleep: 0 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setDown: (value) => (down = value),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('data source switch and live searches', () => {
  let api: ApiHarness;
  let register: Awaited<ReturnType<typeof startLiveRegister>>;
  beforeAll(async () => {
    register = await startLiveRegister();
  });
  // each test on a portal of its own: none depends on the data source another one switched
  beforeEach(async () => {
    register.setDown(false);
    api = await startApiHarness({
      liveRegister: new HttpLiveRegister({
        baseUrl: register.url,
        defaultPauseMs: 0,
        cacheTtlMs: 0,
        budgetMs: 2_000,
      }),
      archiveLastUpdate: async () => 1_700_000_000_000,
    });
    await api.indexAids([anAid({ idComponenteAiuto: 'ARCH1' })]);
  });
  afterEach(() => api.close());
  afterAll(() => register.close());

  const admin = (test: request.Test) => test.set('Authorization', `Bearer ${api.adminToken}`);

  it('lets only ADMIN read and switch it, kept as DataSourceSwitched on the settings stream', async () => {
    const client = await api.client({});
    await request(api.app)
      .get('/api/documents/data-source-status')
      .set('Authorization', `Bearer ${client.token}`)
      .expect(403);
    await request(api.app)
      .post('/api/documents/toggle-data-source')
      .set('Authorization', `Bearer ${client.token}`)
      .expect(403);
    expect((await admin(request(api.app).get('/api/documents/data-source-status')).expect(200)).body).toEqual(
      {
        useLiveData: false,
        lastUpdate: 1_700_000_000_000,
      },
    );
    expect(
      (await admin(request(api.app).post('/api/documents/toggle-data-source')).expect(200)).body,
    ).toEqual({
      useLiveData: true,
      lastUpdate: -1,
    });
    const { events } = await api.deps.eventStore.readStream(streams.settings);
    expect(events.map((e) => [e.type, (e.data as { useLiveData: boolean }).useLiveData])).toEqual([
      ['DataSourceSwitched', true],
    ]);
  });

  it('sets the data source asked for with {useLiveData}: a double click or two administrators end in that state', async () => {
    const set = (useLiveData: unknown) =>
      admin(request(api.app).post('/api/documents/data-source')).send({ useLiveData });
    const answers = await Promise.all([set(true), set(true)]);
    expect(answers.map((a) => a.body)).toEqual([
      { useLiveData: true, lastUpdate: -1 },
      { useLiveData: true, lastUpdate: -1 },
    ]);
    expect((await set(true).expect(200)).body).toEqual({ useLiveData: true, lastUpdate: -1 });
    // one switch on the settings stream, however often it was asked for
    const switches = async () =>
      (await api.deps.eventStore.readStream(streams.settings)).events.map(
        (e) => (e.data as { useLiveData: boolean }).useLiveData,
      );
    expect(await switches()).toEqual([true]);
    expect((await set(false).expect(200)).body).toEqual({
      useLiveData: false,
      lastUpdate: 1_700_000_000_000,
    });
    expect(await switches()).toEqual([true, false]);
    expect((await set('yes').expect(400)).body.code).toBe('J001');
    const client = await api.client({});
    await request(api.app)
      .post('/api/documents/data-source')
      .set('Authorization', `Bearer ${client.token}`)
      .send({ useLiveData: true })
      .expect(403);
  });

  it('in live mode searches the register, records the source, and answers G007 when it is down', async () => {
    expect(
      (await admin(request(api.app).post('/api/documents/toggle-data-source')).expect(200)).body,
    ).toMatchObject({ useLiveData: true });
    const client = await api.client({ remainingSearches: 5 });
    const search = () =>
      request(api.app)
        .get('/api/documents?taxCodes=01234567897')
        .set('Authorization', `Bearer ${client.token}`);
    const body = (await search().expect(200)).body as SearchResultDto;
    expect(body).toMatchObject({ dataSource: 'LIVE', lastUpdate: -1, remainingSearches: 4 });
    expect(body.rows).toEqual([
      expect.objectContaining({
        idComponenteAiuto: 'L1',
        dataConcessione: '03-02-2025',
        elementoDiAiuto: '2500.00',
        isDeMinimis: true,
      }),
    ]);
    const { events } = await api.deps.eventStore.readStream(streams.quota(client.id));
    expect(events.at(-1)).toMatchObject({
      type: 'SearchPerformed',
      data: { dataSource: 'LIVE', resultCount: 1 },
    });

    register.setDown(true);
    const warn = jest.spyOn(api.deps.logger, 'warn');
    expect(
      (
        await request(api.app)
          .get('/api/documents?taxCodes=98765432109')
          .set('Authorization', `Bearer ${client.token}`)
          .expect(503)
      ).body,
    ).toMatchObject({ code: 'G007' });
    // the operator sees why: the cause is logged with the codes that could not be looked up
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error), taxCodes: ['98765432109'] }),
      'live register unavailable (G007)',
    );
    warn.mockRestore();
    register.setDown(false);
    // a failed live look-up is not charged
    expect((await api.deps.eventStore.readStream(streams.quota(client.id))).events.at(-1)?.type).toBe(
      'SearchPerformed',
    );
    expect(
      (await request(api.app).get('/api/clients/me').set('Authorization', `Bearer ${client.token}`)).body
        .remainingSearches,
    ).toBe(4);
  });

  it('shows an ADMIN the audit history of a client', async () => {
    const client = await api.client({ remainingSearches: 3 });
    await request(api.app)
      .get('/api/documents?taxCodes=01234567897')
      .set('Authorization', `Bearer ${client.token}`)
      .expect(200);
    const history = await admin(request(api.app).get(`/api/audit/clients/${client.id}/history`)).expect(200);
    expect(history.body.entries.map((e: { kind: string }) => e.kind)).toEqual([
      'ALLOWANCE',
      'ALLOWANCE',
      'SEARCH',
    ]);
    expect(history.body.remainingSearches).toBe(2);
    const before = await admin(
      request(api.app).get(`/api/audit/clients/${client.id}/history?at=2000-01-01`),
    ).expect(200);
    expect(before.body.entries).toEqual([]);
    await request(api.app)
      .get(`/api/audit/clients/${client.id}/history`)
      .set('Authorization', `Bearer ${client.token}`)
      .expect(403);
    expect(
      (await admin(request(api.app).get(`/api/audit/clients/${client.id}/history?at=ieri`)).expect(400)).body
        .code,
    ).toBe('J001');
  });
});
