/**
 * Groups (impresa unica) and the de minimis headroom at a planned date over HTTP: kept per user,
 * bounded, owned; the headroom computed on the group's aids as the law counts them, charged like a
 * search of its codes and refused like one.
 */
import ExcelJS from 'exceljs';
import request from 'supertest';
import type { HeadroomDto, UndertakingGroupDto } from '@rna/domain';
import { anAid, startApiHarness, type ApiHarness } from '../documents/testing';
import { MAX_GROUPS } from '../groups/commands';
import { binaryBody as binary } from '../testing/binary-body';

jest.setTimeout(60_000);

const ACME = '01234567897';
const BETA = '98765432109';
const GAMMA = '12345678903';

describe('groups and the headroom at a planned date', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
    await api.indexAids([
      // ACME: 120,000 general (2024-04-01), 20,000 agricultural (2024-03-01), one of 2021 out of any window
      anAid({
        codiceFiscaleBeneficiario: ACME,
        dataConcessione: '2024-04-01',
        elementoDiAiutoCents: 120_000_00,
      }),
      anAid({
        codiceFiscaleBeneficiario: ACME,
        dataConcessione: '2024-03-01',
        elementoDiAiutoCents: 20_000_00,
        codRegolamento: 'CE1408/13',
        desRegolamento: 'Reg. UE 1408/2013 agricoltura',
      }),
      anAid({
        codiceFiscaleBeneficiario: ACME,
        dataConcessione: '2021-01-10',
        elementoDiAiutoCents: 90_000_00,
      }),
      // BETA: 150,000 general (2024-10-01) and an aid that is not de minimis
      anAid({
        codiceFiscaleBeneficiario: BETA,
        denominazioneBeneficiario: 'BETA S.P.A.',
        dataConcessione: '2024-10-01',
        elementoDiAiutoCents: 150_000_00,
      }),
      anAid({
        codiceFiscaleBeneficiario: BETA,
        denominazioneBeneficiario: 'BETA S.P.A.',
        dataConcessione: '2025-01-01',
        elementoDiAiutoCents: 500_000_00,
        codProcedimento: '3',
        desProcedimento: 'Esenzione',
        codRegolamento: 'CE651/14',
      }),
    ]);
  });
  afterAll(() => api.close());

  const as = (token: string) => ({
    list: () => request(api.app).get('/api/groups').set('Authorization', `Bearer ${token}`),
    create: (body: object) =>
      request(api.app).post('/api/groups').set('Authorization', `Bearer ${token}`).send(body),
    update: (id: string, body: object) =>
      request(api.app).put(`/api/groups/${id}`).set('Authorization', `Bearer ${token}`).send(body),
    remove: (id: string) =>
      request(api.app).delete(`/api/groups/${id}`).set('Authorization', `Bearer ${token}`),
    headroom: (query: string) =>
      request(api.app).get(`/api/de-minimis/headroom?${query}`).set('Authorization', `Bearer ${token}`),
  });
  const remaining = async (token: string) =>
    (await request(api.app).get('/api/clients/me').set('Authorization', `Bearer ${token}`).expect(200)).body
      .remainingSearches as number;

  it('keeps a user’s groups, replaces and deletes them, and hides them from others (I003)', async () => {
    const owner = await api.client({ remainingSearches: 10 });
    const other = await api.client({ remainingSearches: 10 });
    const created = (
      await as(owner.token)
        .create({
          name: ' Gruppo Rossi ',
          members: [{ taxCode: ' 0123 4567 897 ', note: 'capogruppo' }, { taxCode: BETA }],
        })
        .expect(201)
    ).body as UndertakingGroupDto;
    expect(created).toMatchObject({
      name: 'Gruppo Rossi',
      members: [
        { taxCode: ACME, note: 'capogruppo' },
        { taxCode: BETA, note: '' },
      ],
    });
    const updated = (
      await as(owner.token)
        .update(created.id, { name: 'Gruppo Rossi', members: [{ taxCode: ACME }] })
        .expect(200)
    ).body as UndertakingGroupDto;
    expect(updated.members).toEqual([{ taxCode: ACME, note: '' }]);
    expect((await as(owner.token).list().expect(200)).body).toEqual([updated]);
    expect((await as(other.token).list().expect(200)).body).toEqual([]);
    expect(
      (
        await as(other.token)
          .update(created.id, { name: 'x', members: [{ taxCode: BETA }] })
          .expect(404)
      ).body.code,
    ).toBe('I003');
    expect((await as(other.token).remove(created.id).expect(404)).body.code).toBe('I003');
    expect((await as(other.token).headroom(`group=${created.id}`).expect(404)).body.code).toBe('I003');
    await as(owner.token).remove(created.id).expect(204);
    expect((await as(owner.token).list().expect(200)).body).toEqual([]);
  });

  it('refuses groups out of bounds: no name or members, repeats (I002), malformed codes (T002), past 50 (I001)', async () => {
    const owner = await api.client({ remainingSearches: 10 });
    expect(
      (
        await as(owner.token)
          .create({ name: '', members: [{ taxCode: ACME }] })
          .expect(400)
      ).body.code,
    ).toBe('I002');
    expect((await as(owner.token).create({ name: 'Vuoto', members: [] }).expect(400)).body.code).toBe('I002');
    expect(
      (
        await as(owner.token)
          .create({ name: 'Doppio', members: [{ taxCode: ACME }, { taxCode: ` ${ACME}` }] })
          .expect(400)
      ).body.code,
    ).toBe('I002');
    expect(
      (
        await as(owner.token)
          .create({ name: 'Corto', members: [{ taxCode: '123' }] })
          .expect(400)
      ).body.code,
    ).toBe('T002');
    for (let i = 0; i < MAX_GROUPS; i++)
      await as(owner.token)
        .create({ name: `G${i}`, members: [{ taxCode: ACME }] })
        .expect(201);
    expect(
      (
        await as(owner.token)
          .create({ name: 'Troppi', members: [{ taxCode: ACME }] })
          .expect(409)
      ).body.code,
    ).toBe('I001');
  });

  it('lets a client with a fixed tax code group only that code (P001)', async () => {
    const fixed = await api.client({ remainingSearches: 10, fixedTaxCode: ACME });
    expect(
      (
        await as(fixed.token)
          .create({ name: 'Altri', members: [{ taxCode: BETA }] })
          .expect(403)
      ).body.code,
    ).toBe('P001');
    await as(fixed.token)
      .create({ name: 'Solo io', members: [{ taxCode: ACME }] })
      .expect(201);
  });

  it('computes a group’s headroom on its members’ aids together, charged like a search of its codes', async () => {
    const client = await api.client({ remainingSearches: 10 });
    const group = (
      await as(client.token)
        .create({ name: 'ACME + BETA', members: [{ taxCode: ACME }, { taxCode: BETA }] })
        .expect(201)
    ).body as UndertakingGroupDto;
    // a GENERAL aid planned on 2025-06-30: the window runs from 2022-07-01; 120,000 + 20,000 + 150,000
    // = 290,000 count against 300,000 (G+A+F), 270,000 against 750,000 (G+SIEG): 10,000 left
    const answer = (
      await as(client.token).headroom(`group=${group.id}&date=2025-06-30&regime=GENERAL`).expect(200)
    ).body as HeadroomDto & { remainingSearches: number };
    expect(answer).toMatchObject({
      taxCodes: [ACME, BETA],
      date: '2025-06-30',
      windowStart: '2022-07-01',
      regime: 'GENERAL',
      headroom: '10000.00',
      group: { id: group.id, name: 'ACME + BETA' },
      usedByRegime: { GENERAL: '270000.00', AGRICULTURE: '20000.00', FISHERIES: '0.00', SIEG: '0.00' },
      limits: [
        {
          regimes: ['GENERAL', 'AGRICULTURE', 'FISHERIES'],
          ceiling: '300000.00',
          used: '290000.00',
          remaining: '10000.00',
        },
        { regimes: ['GENERAL', 'SIEG'], ceiling: '750000.00', used: '270000.00', remaining: '480000.00' },
      ],
      releases: [
        { date: '2027-03-01', amount: '20000.00' },
        { date: '2027-04-01', amount: '120000.00' },
        { date: '2027-10-01', amount: '150000.00' },
      ],
    });
    expect(
      answer.perCompany.map((company) => [company.taxCode, company.name, company.usedByRegime.GENERAL]),
    ).toEqual([
      [ACME, 'ACME S.R.L.', '120000.00'],
      [BETA, 'BETA S.P.A.', '150000.00'],
    ]);
    // two codes new today: two searches; asked again (another regime, other codes in any order) free
    expect(answer.remainingSearches).toBe(8);
    const agriculture = (
      await as(client.token)
        .headroom(`taxCodes=${BETA},${ACME}&date=2025-06-30&regime=AGRICULTURE`)
        .expect(200)
    ).body as HeadroomDto;
    // 50,000 − 20,000 = 30,000 of agriculture's own, 10,000 of G+A+F: 10,000
    expect(agriculture.headroom).toBe('10000.00');
    expect(await remaining(client.token)).toBe(8);
  });

  it('puts the group’s headroom at the date in the Excel, and each company’s own for unrelated companies', async () => {
    const client = await api.client({ remainingSearches: 10 });
    const group = (
      await as(client.token)
        .create({ name: 'Gruppo Excel', members: [{ taxCode: ACME }, { taxCode: BETA }] })
        .expect(201)
    ).body as UndertakingGroupDto;
    const sheetOf = async (query: string) => {
      const response = await request(api.app)
        .get(`/api/documents/sheet?${query}`)
        .set('Authorization', `Bearer ${client.token}`)
        .buffer(true)
        .parse(binary)
        .expect(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(response.body as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Residuo alla data')!;
      const rows: unknown[][] = [];
      sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return rows;
    };
    const grouped = await sheetOf(`group=${group.id}&date=2025-06-30&regime=GENERAL`);
    expect(grouped[0]).toEqual(['Impresa unica «Gruppo Excel»']);
    expect(grouped).toContainEqual(['Residuo concedibile', 10_000]);
    expect(grouped).toContainEqual(['Generale + Agricoltura + Pesca', 300_000, 290_000, 10_000]);
    expect(grouped).toContainEqual(['BETA S.P.A. (98765432109)', 150_000, 0, 0]);
    // the same two companies searched together, without a group: each one's own headroom
    const apart = await sheetOf(`taxCodes=${ACME},${BETA}&date=2025-06-30`);
    const headrooms = apart.filter((row) => row[0] === 'Residuo concedibile').map((row) => row[1]);
    // ACME: 120,000 + 20,000 → 160,000 left; BETA: 150,000 → 150,000 left
    expect(headrooms).toEqual([160_000, 150_000]);
  });

  it('refuses before anything is charged: D001 before 2024, D002 an unknown regime, T002 a malformed code', async () => {
    const client = await api.client({ remainingSearches: 1 });
    expect((await as(client.token).headroom(`taxCodes=${GAMMA}&date=2023-12-31`).expect(400)).body.code).toBe(
      'D001',
    );
    expect((await as(client.token).headroom(`taxCodes=${GAMMA}&regime=EDILIZIA`).expect(400)).body.code).toBe(
      'D002',
    );
    expect((await as(client.token).headroom('taxCodes=123').expect(400)).body.code).toBe('T002');
    expect(await remaining(client.token)).toBe(1);
    // U004 like a search when the new codes are more than the searches left
    expect((await as(client.token).headroom(`taxCodes=${ACME},${BETA}`).expect(429)).body.code).toBe('U004');
    expect(await remaining(client.token)).toBe(1);
  });
});
