import request from 'supertest';
import {
  rowsWithDetails,
  streams,
  type AidListRowDto,
  type AidRecord,
  type AidRowWithDetails,
  type SearchAnswerDto,
} from '@rna/domain';
import { startApiHarness, type ApiHarness } from './testing';
import { anAid } from './testing';

const CODE = '01234567897';

describe('GET /api/documents', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
    const thisYear = api.now().getUTCFullYear();
    await api.indexAids([
      anAid({
        idComponenteAiuto: '101',
        dataConcessione: `${thisYear - 1}-02-01`,
        elementoDiAiutoCents: 1_234_56,
      }),
      anAid({
        idComponenteAiuto: '102',
        dataConcessione: `${thisYear - 1}-09-30`,
        codProcedimento: '3',
        desProcedimento: 'Esenzione',
        elementoDiAiutoCents: 500_000_00,
      }),
      anAid({ idComponenteAiuto: '103', dataConcessione: '2015-06-15', elementoDiAiutoCents: 10_000_00 }),
      anAid({ idComponenteAiuto: '201', codiceFiscaleBeneficiario: '98765432109' }),
    ]);
  });
  afterAll(() => api.close());

  const search = (token: string, query: string) =>
    request(api.app).get(`/api/documents?${query}`).set('Authorization', `Bearer ${token}`);

  it('answers rows newest first with Italian dates, amounts from cents, totals and 36 months', async () => {
    const client = await api.client({ remainingSearches: 10 });
    const response = await search(client.token, `taxCodes=${CODE}&deMinimis=false&last3Years=false`).expect(
      200,
    );
    const body = response.body as SearchAnswerDto;
    const rows = body.rows;
    expect(rows.map((r) => r.idComponenteAiuto)).toEqual(['102', '101', '103']);
    const [first, second] = rows as [AidListRowDto, AidListRowDto];
    // the spec's row values under the spec's names (SPEC §3), the procedure text included
    expect(second).toMatchObject({
      idComponenteAiuto: '101',
      dataConcessione: `01-02-${api.now().getUTCFullYear() - 1}`,
      desProcedimento: 'De Minimis',
      elementoDiAiuto: '1234.56',
      isDeMinimis: true,
    });
    expect(first).toMatchObject({ desProcedimento: 'Esenzione', isDeMinimis: false });
    // texts that repeat across rows are sent once and pointed at
    expect(body.beneficiaries[second.beneficiary]).toEqual({ taxCode: CODE, name: expect.any(String) });
    expect(typeof body.measures[second.measure]).toBe('string');
    // the references only when asked for
    expect(body.details).toBeUndefined();
    const detailed = (
      await search(client.token, `taxCodes=${CODE}&deMinimis=false&last3Years=false&details=true`).expect(200)
    ).body as SearchAnswerDto;
    expect(detailed.rows).toEqual(rows);
    expect(rowsWithDetails(detailed)![1]).toMatchObject({
      importoNominale: '20000.00',
      soggettoConcedente: 'Regione Lombardia',
      regulation: { code: 'CE2831/23', text: 'Reg. UE 2023/2831 de minimis generale' },
    });
    expect(detailed.details!.grantors).toEqual(['Regione Lombardia']);
    // the same search again that day: free
    expect(detailed.remainingSearches).toBe(9);
    // the 2015 aid is listed but counts neither in the totals nor in the de minimis window
    expect(body.stats).toEqual({
      totalDocuments: 2,
      totalImport: 501234.56,
      totalImportDeMinimis: 1234.56,
      remainingDeMinimis: 298765.44,
    });
    expect(body.deMinimisSeries).toHaveLength(36);
    expect(body.dataSource).toBe('ARCHIVE');
    expect(body.remainingSearches).toBe(9);
  });

  it('keeps only de minimis components with deMinimis=true, and the last 3 years with last3Years=true', async () => {
    const response = await search(api.adminToken, `taxCodes=${CODE}&deMinimis=true&last3Years=true`).expect(
      200,
    );
    expect((response.body as SearchAnswerDto).rows.map((r) => r.idComponenteAiuto)).toEqual(['101']);
    expect((response.body as SearchAnswerDto).remainingSearches).toBeUndefined();
  });

  it('answers T001 without a tax code, T002 for a short one, 401 without a token', async () => {
    expect((await search(api.adminToken, 'deMinimis=false').expect(400)).body).toMatchObject({
      code: 'T001',
    });
    expect((await search(api.adminToken, 'taxCodes=1234567').expect(400)).body).toMatchObject({
      code: 'T002',
    });
    expect((await search(api.adminToken, 'taxCodes=01234567897&deMinimis=maybe').expect(400)).body.code).toBe(
      'J001',
    );
    await request(api.app).get(`/api/documents?taxCodes=${CODE}`).expect(401);
  });

  it('lets a client with a fixed tax code search only that code', async () => {
    const client = await api.client({ fixedTaxCode: CODE });
    expect((await search(client.token, 'taxCodes=98765432109').expect(403)).body).toMatchObject({
      code: 'P001',
    });
    await search(client.token, `taxCodes=${CODE}`).expect(200);
  });

  it('refuses an expired client with A002 and records the refusal on its quota stream', async () => {
    const client = await api.client({ remainingSearches: 5 });
    await request(api.app)
      .put(`/api/clients/${client.id}/limits`)
      .set('Authorization', `Bearer ${api.adminToken}`)
      .send({ availableYearlySearches: 5, remainingSearches: 5, endDate: api.now().getTime() - 86_400_000 })
      .expect(200);
    expect((await search(client.token, `taxCodes=${CODE}`).expect(403)).body).toMatchObject({ code: 'A002' });
    const { events } = await api.deps.eventStore.readStream(streams.quota(client.id));
    expect(events.at(-1)).toMatchObject({ type: 'SearchRefused', data: { code: 'A002', taxCodes: [CODE] } });
  });

  it('answers U004 when the searches are used up', async () => {
    const client = await api.client({ remainingSearches: 1 });
    await search(client.token, `taxCodes=${CODE}`).expect(200);
    expect((await search(client.token, 'taxCodes=98765432109').expect(429)).body).toMatchObject({
      code: 'U004',
    });
  });

  it('returns thousands of aids of one tax code', async () => {
    const many = Array.from({ length: 5000 }, (_, i) =>
      anAid({
        idComponenteAiuto: `9${String(i).padStart(5, '0')}`,
        codiceFiscaleBeneficiario: '55555555555',
        dataConcessione: `20${String(15 + (i % 10)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`,
        elementoDiAiutoCents: 100,
      }),
    );
    await api.indexAids(many);
    const body = (await search(api.adminToken, 'taxCodes=55555555555').expect(200)).body as SearchAnswerDto;
    const rows = body.rows;
    expect(rows).toHaveLength(5000);
    const dates = rows.map((r) => r.dataConcessione.split('-').reverse().join('-'));
    expect(dates).toEqual([...dates].sort().reverse());
    expect(new Set(rows.map((r) => r.idComponenteAiuto)).size).toBe(5000);
  });
});

describe('a company with thousands of aids', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(() => api.close());

  it('answers its 7,888 aids in under 2 MB of JSON, every row telling its procedure, and gives every reference when asked for details', async () => {
    // register-like texts: a few hundred measures with long titles, several grantors, procedures and
    // regulations, a project title per aid, a CUP on some aids only
    const measures = Array.from(
      { length: 400 },
      (_, i) =>
        `Misura ${i}: contributi a fondo perduto per investimenti in digitalizzazione, transizione ecologica e formazione del personale delle micro, piccole e medie imprese del territorio`,
    );
    const regulations = [
      { codRegolamento: 'CE2831/23', desRegolamento: 'Reg. UE 2023/2831 de minimis generale' },
      { codRegolamento: 'CE651/14', desRegolamento: 'Reg. UE 651/2014 esenzione per categoria' },
      { codRegolamento: '', desRegolamento: 'Regime quadro nazionale' },
    ];
    const aids = Array.from({ length: 7_888 }, (_, i) =>
      anAid({
        idComponenteAiuto: String(20_000_000 + i),
        cor: String(5_000_000 + i),
        car: String(10_000 + (i % 400)),
        cup: i % 4 === 0 ? `F81B${String(24_000_000_000 + i)}` : 'n.d.',
        codiceFiscaleBeneficiario: '77777777777',
        denominazioneBeneficiario: 'GRANDE IMPRESA DI COSTRUZIONI E SERVIZI INTEGRATI SOCIETA PER AZIONI',
        titoloMisura: measures[i % measures.length]!,
        titoloProgetto: `Progetto ${i} di ammodernamento degli impianti produttivi e della rete commerciale`,
        soggettoConcedente: `Agenzia regionale per lo sviluppo economico ${i % 20}`,
        codProcedimento: i % 3 === 0 ? '3' : '1',
        desProcedimento: i % 3 === 0 ? 'Regolamento di esenzione per categoria' : 'De Minimis',
        ...regulations[i % regulations.length]!,
        dataConcessione: `20${String(15 + (i % 10)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`,
        elementoDiAiutoCents: 123_456 + i,
        importoNominaleCents: 1_000_000_00 + i * 7,
      }),
    );
    await api.indexAids(aids);
    const get = (query: string) =>
      request(api.app)
        .get(`/api/documents?taxCodes=77777777777${query}`)
        .set('Authorization', `Bearer ${api.adminToken}`)
        .expect(200);
    const response = await get('');
    expect(Buffer.byteLength(response.text)).toBeLessThan(2_000_000);
    const body = response.body as SearchAnswerDto;
    expect(body.rows).toHaveLength(7_888);
    expect(body.measures).toHaveLength(400);
    expect(body.details).toBeUndefined();
    // the detail view's answer: every reference, the repeated texts once (a few hundred KB more)
    const detailed = await get('&details=true');
    const detailedBody = detailed.body as SearchAnswerDto;
    expect(Buffer.byteLength(detailed.text)).toBeLessThan(3_000_000);
    expect(detailedBody.details!.grantors).toHaveLength(20);
    expect(detailedBody.details!.regulations).toHaveLength(3);
    const byId = new Map(rowsWithDetails(detailedBody)!.map((row) => [row.idComponenteAiuto, row]));
    const asSent = (row: AidRowWithDetails) => ({
      cor: row.cor,
      car: row.car,
      cup: row.cup,
      titoloProgetto: row.titoloProgetto,
      desProcedimento: row.desProcedimento,
      isDeMinimis: row.isDeMinimis,
      elementoDiAiuto: row.elementoDiAiuto,
      importoNominale: row.importoNominale,
      titoloMisura: detailedBody.measures[row.measure],
      soggettoConcedente: row.soggettoConcedente,
      regulation: row.regulation,
    });
    const asIndexed = (aid: AidRecord) => ({
      cor: aid.cor,
      car: aid.car,
      cup: aid.cup,
      titoloProgetto: aid.titoloProgetto,
      desProcedimento: aid.desProcedimento,
      isDeMinimis: aid.codProcedimento === '1',
      elementoDiAiuto: (aid.elementoDiAiutoCents / 100).toFixed(2),
      importoNominale: (aid.importoNominaleCents / 100).toFixed(2),
      titoloMisura: aid.titoloMisura,
      soggettoConcedente: aid.soggettoConcedente,
      regulation: { code: aid.codRegolamento, text: aid.desRegolamento },
    });
    expect(aids.map((aid) => asSent(byId.get(aid.idComponenteAiuto)!))).toEqual(aids.map(asIndexed));
    expect(byId.get('20000004')).toMatchObject({ cup: 'F81B24000000004', importoNominale: '1000000.28' });
    // the compact rows are the detailed answer's rows
    expect(detailedBody.rows).toEqual(body.rows);
  });
});

describe('paid work per user', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness({ paidRequestsPerMinute: 5 });
    await api.indexAids([anAid({ idComponenteAiuto: '301' })]);
  });
  afterAll(() => api.close());

  it('answers 429 with Retry-After past the searches and downloads a user may ask for in a minute', async () => {
    const client = await api.client({ remainingSearches: 100 });
    const get = (token: string, path: string) =>
      request(api.app).get(`${path}?taxCodes=${CODE}`).set('Authorization', `Bearer ${token}`);
    for (let i = 0; i < 4; i++) await get(client.token, '/api/documents').expect(200);
    await get(client.token, '/api/documents/sheet').expect(200);
    const refused = await get(client.token, '/api/documents').expect(429);
    expect(refused.body.code).toBe('Q001');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(client.token, '/api/documents/sheet').expect(429)).body.code).toBe('Q001');
    // another user is not slowed down by this one
    await get(api.adminToken, '/api/documents').expect(200);
  });
});

describe('what a client is charged', () => {
  let api: ApiHarness;
  const OTHER = '98765432109';
  const THIRD = 'RSSMRA85T10A562S';
  beforeAll(async () => {
    api = await startApiHarness();
    await api.indexAids([
      anAid({ idComponenteAiuto: '401' }),
      anAid({ idComponenteAiuto: '402', codiceFiscaleBeneficiario: OTHER }),
    ]);
  });
  afterAll(() => api.close());

  const get = (token: string, path: string, query: string) =>
    request(api.app).get(`${path}?${query}`).set('Authorization', `Bearer ${token}`);
  const remaining = async (token: string) =>
    (
      (await request(api.app).get('/api/clients/me').set('Authorization', `Bearer ${token}`).expect(200))
        .body as { remainingSearches: number }
    ).remainingSearches;

  it('one unit per company a day, whatever the filters, the format or how the code is written', async () => {
    const client = await api.client({ remainingSearches: 9 });
    await get(client.token, '/api/documents', `taxCodes=${CODE}`).expect(200);
    expect(await remaining(client.token)).toBe(8);
    await get(client.token, '/api/documents', `taxCodes=${CODE}&deMinimis=true`).expect(200);
    await get(client.token, '/api/documents', `taxCodes=${CODE}&deMinimis=true&last3Years=true`).expect(200);
    await get(client.token, '/api/documents/sheet', `taxCodes=${CODE}&last3Years=true`).expect(200);
    await get(client.token, '/api/documents', `taxCodes=${encodeURIComponent(' 0123 4567 897 ')}`).expect(
      200,
    );
    expect(await remaining(client.token)).toBe(8);
    // a multiple search pays for its new code only
    const both = await get(client.token, '/api/documents', `taxCodes=${CODE},${OTHER}&deMinimis=true`).expect(
      200,
    );
    expect((both.body as SearchAnswerDto).remainingSearches).toBe(7);
    // every search and download left its audit event, free ones with cost 0
    const { events } = await api.deps.eventStore.readStream(streams.quota(client.id));
    expect(
      events
        .filter((e) => e.type === 'SearchPerformed' || e.type === 'ReportDownloaded')
        .map((e) => [e.type, (e.data as { cost?: number }).cost ?? 0]),
    ).toEqual([
      ['SearchPerformed', 1],
      ['SearchPerformed', 0],
      ['SearchPerformed', 0],
      ['ReportDownloaded', 0],
      ['SearchPerformed', 0],
      ['SearchPerformed', 1],
    ]);
  });

  it('refuses a search whose new codes exceed what is left, and charges nothing for it', async () => {
    const client = await api.client({ remainingSearches: 2 });
    await get(client.token, '/api/documents', `taxCodes=${CODE}`).expect(200);
    expect(await remaining(client.token)).toBe(1);
    const refused = await get(client.token, '/api/documents', `taxCodes=${CODE},${OTHER},${THIRD}`).expect(
      429,
    );
    expect(refused.body.code).toBe('U004');
    expect(await remaining(client.token)).toBe(1);
    // the company already looked up stays free; a new one takes the last search
    await get(client.token, '/api/documents', `taxCodes=${CODE}&last3Years=true`).expect(200);
    expect(await remaining(client.token)).toBe(1);
    await get(client.token, '/api/documents', `taxCodes=${OTHER}`).expect(200);
    expect(await remaining(client.token)).toBe(0);
  });

  it('charges again after midnight in Rome', async () => {
    // a portal whose day is about to end: 23:50 in Rome
    const late = await startApiHarness({}, { now: new Date('2026-03-10T22:50:00Z') });
    try {
      await late.indexAids([anAid({ idComponenteAiuto: '501' })]);
      const client = await late.client({ remainingSearches: 5 });
      const search = (query: string) =>
        request(late.app).get(`/api/documents?${query}`).set('Authorization', `Bearer ${client.token}`);
      expect((await search(`taxCodes=${CODE}`).expect(200)).body.remainingSearches).toBe(4);
      late.setNow(new Date('2026-03-10T22:59:00Z')); // 23:59: still the same day
      expect((await search(`taxCodes=${CODE}&deMinimis=true`).expect(200)).body.remainingSearches).toBe(4);
      late.setNow(new Date('2026-03-10T23:01:00Z')); // 00:01 on the 11th in Rome
      expect((await search(`taxCodes=${CODE}`).expect(200)).body.remainingSearches).toBe(3);
    } finally {
      await late.close();
    }
  });
});

describe('the de minimis allowance left is the company’s, not the filter’s', () => {
  let api: ApiHarness;
  const COMPANY = '11111111111';
  beforeAll(async () => {
    api = await startApiHarness(); // pinned on 10 March 2026: this month's window starts 1 March 2023
    await api.indexAids([
      // inside this month's 3-year window, but before "today − 3 years" (10 March 2023)
      anAid({
        idComponenteAiuto: '601',
        codiceFiscaleBeneficiario: COMPANY,
        dataConcessione: '2023-03-05',
        elementoDiAiutoCents: 100_000_00,
      }),
      anAid({
        idComponenteAiuto: '602',
        codiceFiscaleBeneficiario: COMPANY,
        dataConcessione: '2025-06-01',
        elementoDiAiutoCents: 50_000_00,
      }),
      anAid({
        idComponenteAiuto: '701',
        codiceFiscaleBeneficiario: COMPANY,
        dataConcessione: '2025-07-01',
        codProcedimento: '3',
        desProcedimento: 'Esenzione',
        elementoDiAiutoCents: 70_000_00,
      }),
    ]);
  });
  afterAll(() => api.close());

  it('gives the same remaining figure and series whatever filter is ticked; the table and totals follow the filters', async () => {
    const answers: SearchAnswerDto[] = [];
    for (const flags of ['', '&deMinimis=true', '&last3Years=true', '&deMinimis=true&last3Years=true'])
      answers.push(
        (
          await request(api.app)
            .get(`/api/documents?taxCodes=${COMPANY}${flags}`)
            .set('Authorization', `Bearer ${api.adminToken}`)
            .expect(200)
        ).body as SearchAnswerDto,
      );
    for (const answer of answers) {
      expect(answer.stats.remainingDeMinimis).toBe(150_000);
      expect(answer.deMinimisSeries).toEqual(answers[0]!.deMinimisSeries);
    }
    expect(answers.map((a) => a.rows.map((r) => r.idComponenteAiuto))).toEqual([
      ['701', '602', '601'],
      ['602', '601'],
      ['701', '602'],
      ['602'],
    ]);
    expect(answers.map((a) => a.stats.totalImportDeMinimis)).toEqual([50_000, 50_000, 50_000, 50_000]);
    expect(answers.map((a) => a.stats.totalDocuments)).toEqual([2, 1, 2, 1]);
  });
});

describe('administrators are audited too', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
    await api.indexAids([anAid({ idComponenteAiuto: '801' })]);
  });
  afterAll(() => api.close());

  it('records every search and download of an ADMIN on its audit stream, readable from the audit API', async () => {
    const as = (url: string) => request(api.app).get(url).set('Authorization', `Bearer ${api.adminToken}`);
    await as(`/api/documents?taxCodes=${CODE}&deMinimis=true`).expect(200);
    await as(`/api/documents/sheet?taxCodes=${CODE}`).expect(200);
    const { id: userId } = (await as('/api/users/me').expect(200)).body as { id: string };
    const history = (await as(`/api/audit/users/${userId}/history`).expect(200)).body as {
      entries: {
        kind: string;
        taxCodes: string[];
        cost: number;
        detail: string | null;
        by: { role: string };
      }[];
    };
    expect(history.entries.map((e) => [e.kind, e.taxCodes, e.cost, e.detail, e.by.role])).toEqual([
      ['SEARCH', [CODE], 0, null, 'ADMIN'],
      ['DOWNLOAD', [CODE], 0, 'sheet', 'ADMIN'],
    ]);
  });
});

describe('the allowance of several companies', () => {
  let api: ApiHarness;
  const ALFA = '11111111111';
  const BETA = '22222222222';
  beforeAll(async () => {
    api = await startApiHarness();
    const lastYear = api.now().getUTCFullYear() - 1;
    await api.indexAids([
      anAid({
        idComponenteAiuto: '801',
        codiceFiscaleBeneficiario: ALFA,
        denominazioneBeneficiario: 'ALFA SRL',
        dataConcessione: `${lastYear}-03-01`,
        elementoDiAiutoCents: 200_000_00,
      }),
      anAid({
        idComponenteAiuto: '802',
        codiceFiscaleBeneficiario: BETA,
        denominazioneBeneficiario: 'BETA SPA',
        dataConcessione: `${lastYear}-04-01`,
        elementoDiAiutoCents: 250_000_00,
      }),
    ]);
  });
  afterAll(() => api.close());

  const search = (token: string, query: string) =>
    request(api.app).get(`/api/documents?${query}`).set('Authorization', `Bearer ${token}`).expect(200);

  it('never adds unrelated companies up: the cards and chart show the one with the least left, named', async () => {
    const body = (await search(api.adminToken, `taxCodes=${ALFA},${BETA}`)).body as SearchAnswerDto;
    // 450,000 € together would be 150,000 € over one ceiling; each company has its own
    expect(body.stats.remainingDeMinimis).toBe(50_000);
    expect(body.deMinimisOf).toEqual({ taxCode: BETA, name: 'BETA SPA' });
    expect(body.deMinimisSeries[0]).toMatchObject({ total: 250_000, remaining: 50_000 });
    expect(body.perCode.map((c) => [c.taxCode, c.remainingDeMinimis])).toEqual([
      [ALFA, 100_000],
      [BETA, 50_000],
    ]);
    // the total of the aids shown is still a total
    expect(body.stats.totalImportDeMinimis).toBe(450_000);
    // one company: its own figures, nobody named
    const one = (await search(api.adminToken, `taxCodes=${ALFA}`)).body as SearchAnswerDto;
    expect([one.stats.remainingDeMinimis, one.deMinimisOf]).toEqual([100_000, null]);
  });

  it('counts a group as one undertaking: its members’ aids together against one ceiling', async () => {
    const client = await api.client({ remainingSearches: 10 });
    const group = (
      await request(api.app)
        .post('/api/groups')
        .set('Authorization', `Bearer ${client.token}`)
        .send({ name: 'Gruppo Alfa', members: [{ taxCode: ALFA }, { taxCode: BETA }] })
        .expect(201)
    ).body as { id: string };
    const body = (await search(client.token, `group=${group.id}`)).body as SearchAnswerDto;
    expect(body.taxCodes).toEqual([ALFA, BETA]);
    expect(body.stats.remainingDeMinimis).toBe(-150_000);
    expect(body.deMinimisOf).toBeNull();
    // another user's group is not found
    const other = await api.client({ remainingSearches: 10 });
    const refused = await request(api.app)
      .get(`/api/documents?group=${group.id}`)
      .set('Authorization', `Bearer ${other.token}`);
    expect([refused.status, refused.body.code]).toEqual([404, 'I003']);
  });
});
