/** GET /audit/{clients|users}/{id}/history[.xlsx] as the audit screen calls it. */
import request from 'supertest';
import { startApiHarness, type ApiHarness } from '../documents/testing';

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
});
