import request from 'supertest';
import { startTestApi, type TestApi } from '../testing/harness';

jest.setTimeout(60_000);

describe('GET /api/health', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());

  it('answers without sign-in with the version and every store ok', async () => {
    const res = await request(api.app).get('/api/health').expect(200);
    expect(res.body).toEqual({
      status: 'ok',
      version: '9.9.9-test',
      stores: { eventStore: 'ok', documents: 'ok', aidIndex: 'ok', blobs: 'ok' },
    });
  });

  it('answers 503 degraded when a store fails', async () => {
    const count = api.deps.aidIndex.count.bind(api.deps.aidIndex);
    api.deps.aidIndex.count = () => Promise.reject(new Error('disk gone'));
    try {
      const res = await request(api.app).get('/api/health').expect(503);
      expect(res.body).toMatchObject({ status: 'degraded', stores: { aidIndex: 'error', eventStore: 'ok' } });
    } finally {
      api.deps.aidIndex.count = count;
    }
  });
});
