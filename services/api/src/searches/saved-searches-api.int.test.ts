import request from 'supertest';
import type { SavedSearchDto } from '@rna/domain';
import { startApiHarness, type ApiHarness } from '../documents/testing';

describe('/api/users/saved-searches', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApiHarness();
  });
  afterAll(() => api.close());

  it('saves a search, replaces it, and clears it with an empty list, each user separately', async () => {
    const client = await api.client({});
    const put = (token: string, body: object) =>
      request(api.app).put('/api/users/saved-searches').set('Authorization', `Bearer ${token}`).send(body);
    const get = (token: string) =>
      request(api.app).get('/api/users/saved-searches').set('Authorization', `Bearer ${token}`).expect(200);

    expect((await get(client.token)).body).toEqual([]);
    const saved = (
      await put(client.token, [{ taxCodes: ['01234567897'], deMinimis: true, last3Years: false }]).expect(200)
    ).body as SavedSearchDto[];
    expect(saved).toEqual([
      { id: expect.any(String), taxCodes: ['01234567897'], deMinimis: true, last3Years: false },
    ]);
    expect((await get(client.token)).body).toEqual(saved);

    await put(client.token, [
      { taxCodes: 'rss mra 80a01 h501u,98765432109', deMinimis: false, last3Years: true },
    ]).expect(200);
    expect((await get(client.token)).body).toEqual([
      expect.objectContaining({ taxCodes: ['RSSMRA80A01H501U', '98765432109'], last3Years: true }),
    ]);
    expect((await get(api.adminToken)).body).toEqual([]);

    await put(client.token, []).expect(200);
    expect((await get(client.token)).body).toEqual([]);
  });

  it('refuses malformed saved searches with the spec codes', async () => {
    const put = (body: object) =>
      request(api.app)
        .put('/api/users/saved-searches')
        .set('Authorization', `Bearer ${api.adminToken}`)
        .send(body);
    expect(
      (await put([{ taxCodes: ['123'], deMinimis: false, last3Years: false }]).expect(400)).body.code,
    ).toBe('T002');
    expect((await put([{ taxCodes: [], deMinimis: false, last3Years: false }]).expect(400)).body.code).toBe(
      'T001',
    );
    expect((await put([{ taxCodes: ['01234567897'] }]).expect(400)).body.code).toBe('J001');
  });
});
