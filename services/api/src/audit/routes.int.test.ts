/** GET /audit/{clients|users}/{id}/history[.xlsx] as the audit screen calls it. */
import ExcelJS from 'exceljs';
import request from 'supertest';
import type { AuditHistoryDto } from '@rna/domain';
import { startApiHarness, type ApiHarness } from '../documents/testing';
import { binaryBody } from '../testing/binary-body';
import { ADMIN_EMAIL } from '../testing/compose';

describe('the audit routes', () => {
  let api: ApiHarness;
  let adminId: string;
  const as = (url: string) => request(api.app).get(url).set('Authorization', `Bearer ${api.adminToken}`);
  beforeAll(async () => {
    api = await startApiHarness();
    adminId = ((await as('/api/users/me').expect(200)).body as { id: string }).id;
  });
  afterAll(() => api.close());

  it('refuses a date range whose start is after its end with the validation code, JSON and Excel alike', async () => {
    const since = Date.parse('2026-03-05T00:00:00Z');
    const at = Date.parse('2026-03-03T23:59:59Z');
    for (const path of ['history', 'history.xlsx']) {
      const refused = await as(`/api/audit/users/${adminId}/${path}?since=${since}&at=${at}`).expect(400);
      expect(refused.body).toMatchObject({ code: 'J001', message: expect.stringContaining('since') });
    }
    // a one-instant range is a range
    await as(`/api/audit/users/${adminId}/history?since=${at}&at=${at}`).expect(200);
  });

  it('lists the newest entries first when asked (the screen), and always in the Excel', async () => {
    const codes = ['01234567897', '98765432109', '11111111111'];
    for (const code of codes) {
      api.setNow(new Date(api.now().getTime() + 60_000));
      await as(`/api/documents?taxCodes=${code}`).expect(200);
    }
    const page = (query: string) =>
      as(`/api/audit/users/${adminId}/history?${query}`)
        .expect(200)
        .then((res) => res.body as AuditHistoryDto);
    const newest = await page('order=desc&limit=2');
    expect(newest.entries.map((e) => e.taxCodes[0])).toEqual([codes[2], codes[1]]);
    const older = await page(`order=desc&limit=2&from=${newest.nextFrom}`);
    expect(older.entries.map((e) => e.taxCodes[0])).toEqual([codes[0]]);
    expect(older.nextFrom).toBeNull();

    const sheet = await as(`/api/audit/users/${adminId}/history.xlsx`)
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sheet.body as ArrayBuffer);
    const audit = workbook.getWorksheet('Registro delle attività');
    expect([2, 3, 4].map((row) => audit?.getRow(row).getCell(5).value)).toEqual([...codes].reverse());
  });

  it('names whose history the Excel is by address, never by id', async () => {
    const client = await api.client({ remainingSearches: 3 });
    const subjectOf = async (url: string) => {
      const sheet = await as(url).buffer(true).parse(binaryBody).expect(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(sheet.body as ArrayBuffer);
      return workbook.getWorksheet('Stato')?.getCell('B2').value;
    };
    expect(await subjectOf(`/api/audit/clients/${client.id}/history.xlsx`)).toBe(`Cliente ${client.email}`);
    expect(await subjectOf(`/api/audit/users/${adminId}/history.xlsx`)).toBe(`Amministratore ${ADMIN_EMAIL}`);
  });
});
