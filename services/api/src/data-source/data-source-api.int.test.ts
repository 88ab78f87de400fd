import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { LIVE_MISSING_FIELDS, streams, type SearchAnswerDto } from '@rna/domain';
import { HttpLiveRegister } from '@rna/infra/register-live';
import { startApiHarness, type ApiHarness } from '../documents/testing';
import { anAid } from '../documents/testing';

/** A stand-in for the register's live look-up: one aid for 01234567897, or maintenance. */
async function startLiveRegister(): Promise<{
  url: string;
  setDown: (down: boolean) => void;
  /** The pause the register asks of its callers, in seconds (the real one asks for 30). */
  setPause: (seconds: number) => void;
  asked: string[];
  close: () => Promise<void>;
}> {
  let down = false;
  let pause = 0;
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (down) {
        res.writeHead(503).end('manutenzione');
        return;
      }
      const code = new URLSearchParams(body).get('values[cfBen]');
      asked.push(code ?? '');
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
                id_concessione: '301',
              },
            ]
          : [];
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ recordsTotal: data.length, data, sleep: pause }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setDown: (value) => (down = value),
    setPause: (seconds) => (pause = seconds),
    asked,
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
  let archiveLastUpdate: number | null;
  beforeEach(async () => {
    register.setDown(false);
    register.setPause(0);
    register.asked.length = 0;
    archiveLastUpdate = 1_700_000_000_000;
    api = await startApiHarness({
      liveRegister: new HttpLiveRegister({ baseUrl: register.url, defaultPauseMs: 0 }),
      liveBudgetMs: 2_000,
      archiveLastUpdate: async () => archiveLastUpdate,
    });
    await api.indexAids([
      anAid({ idComponenteAiuto: '1001' }),
      anAid({ idComponenteAiuto: '1002', codiceFiscaleBeneficiario: '98765432109' }),
    ]);
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

  const goLive = async () =>
    expect(
      (await admin(request(api.app).post('/api/documents/data-source')).send({ useLiveData: true })).body,
    ).toMatchObject({ useLiveData: true });

  it('in live mode searches the register and records the source', async () => {
    await goLive();
    const client = await api.client({ remainingSearches: 5 });
    const body = (
      await request(api.app)
        .get('/api/documents?taxCodes=01234567897')
        .set('Authorization', `Bearer ${client.token}`)
        .expect(200)
    ).body as SearchAnswerDto;
    expect(body).toMatchObject({ dataSource: 'LIVE', lastUpdate: -1, remainingSearches: 4 });
    expect(body.sources).toEqual([
      {
        taxCode: '01234567897',
        source: 'LIVE',
        asOf: expect.any(Number),
        missingFields: [...LIVE_MISSING_FIELDS],
      },
    ]);
    expect(body.rows).toEqual([
      expect.objectContaining({
        idComponenteAiuto: '301',
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
  });

  it('never fails because the register paces its callers: codes it cannot answer in time come from the archive at once, then live once asked', async () => {
    await goLive();
    register.setPause(3); // the real register asks for 30 s; the budget here is 2 s
    const client = await api.client({ remainingSearches: 5 });
    const search = (codes: string) =>
      request(api.app)
        .get(`/api/documents?taxCodes=${codes}`)
        .set('Authorization', `Bearer ${client.token}`)
        .expect(200)
        .then((answer) => answer.body as SearchAnswerDto);
    await search('01234567897');
    // a multiple search right after: the register may not be asked again within its pause
    const started = Date.now();
    const both = await search('01234567897,98765432109');
    // within the 2 s budget: the archive answered without waiting for the register's turn (3 s)
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(both.sources).toEqual([
      {
        taxCode: '01234567897',
        source: 'LIVE',
        asOf: expect.any(Number),
        missingFields: [...LIVE_MISSING_FIELDS],
      },
      { taxCode: '98765432109', source: 'ARCHIVE', asOf: 1_700_000_000_000, liveFallback: 'PACED' },
    ]);
    expect(both.rows.map((row) => row.idComponenteAiuto).sort()).toEqual(['1002', '301']);
    // the queued code is asked at the register's pace in the background; the same search later is live
    await until(() => register.asked.includes('98765432109'));
    const later = await search('98765432109');
    expect(later.sources).toEqual([
      {
        taxCode: '98765432109',
        source: 'LIVE',
        asOf: expect.any(Number),
        missingFields: [...LIVE_MISSING_FIELDS],
      },
    ]);
    expect(later.rows).toEqual([]);
    // each code charged once, however it was answered
    expect(later.remainingSearches).toBe(3);
  });

  it('answers from the archive when the register is down, and G007 only when there is no archive either', async () => {
    await goLive();
    const client = await api.client({ remainingSearches: 5 });
    const search = () =>
      request(api.app)
        .get('/api/documents?taxCodes=98765432109')
        .set('Authorization', `Bearer ${client.token}`);
    register.setDown(true);
    const warn = jest.spyOn(api.deps.logger, 'warn');
    const fallback = (await search().expect(200)).body as SearchAnswerDto;
    expect(fallback.sources).toEqual([
      { taxCode: '98765432109', source: 'ARCHIVE', asOf: 1_700_000_000_000, liveFallback: 'UNAVAILABLE' },
    ]);
    expect(fallback.rows.map((row) => row.idComponenteAiuto)).toEqual(['1002']);
    // the operator sees why: the cause is logged with the codes that could not be looked up
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error), taxCodes: ['98765432109'] }),
      'live register unavailable',
    );
    warn.mockRestore();

    archiveLastUpdate = null;
    expect(
      (
        await request(api.app)
          .get('/api/documents?taxCodes=01234567897')
          .set('Authorization', `Bearer ${client.token}`)
          .expect(503)
      ).body,
    ).toMatchObject({ code: 'G007' });
    // a failed live look-up is not charged: only the first code was
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
    // a page at a time: the state is the whole stream's, the entries the page's
    const page = await admin(
      request(api.app).get(`/api/audit/clients/${client.id}/history?from=1&limit=1`),
    ).expect(200);
    expect(page.body).toMatchObject({ totalEntries: 3, nextFrom: 2, remainingSearches: 2 });
    expect(page.body.entries.map((e: { version: number }) => e.version)).toEqual([1]);
    expect(
      (await admin(request(api.app).get(`/api/audit/clients/${client.id}/history?limit=0`)).expect(400)).body
        .code,
    ).toBe('J001');
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

    // the same history as an Excel file, for auditors who work offline; never for the client
    const sheet = await admin(
      request(api.app)
        .get(`/api/audit/clients/${client.id}/history.xlsx`)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        }),
    ).expect(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sheet.body as ArrayBuffer);
    const audit = workbook.getWorksheet('Registro delle attività');
    expect(audit?.rowCount).toBe(4);
    // newest first: the search, then the two allowances
    expect(audit?.getRow(2).getCell(2).value).toBe('Ricerca');
    expect(audit?.getRow(2).getCell(5).value).toBe('01234567897');
    expect(audit?.getRow(2).getCell(12).value).toBe(2);
    await request(api.app)
      .get(`/api/audit/clients/${client.id}/history.xlsx`)
      .set('Authorization', `Bearer ${client.token}`)
      .expect(403);
  });
});

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > giveUpAt) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
