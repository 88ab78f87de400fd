/** The /sync routes over HTTP: roles, validation, S001 and the wiring of requestSync. */
import express from 'express';
import request from 'supertest';
import { DomainError } from '@rna/domain';
import { buildRouter } from '../http/registry';
import { startTestApi, type TestApi } from '../testing/harness';
import { syncRoutes, type SyncApiDeps } from './routes';
import type { StartSync } from './handlers';

let api: TestApi;
let app: express.Express;
let requestSync: jest.Mock<ReturnType<StartSync>, Parameters<StartSync>>;

beforeEach(async () => {
  api = await startTestApi();
  requestSync = jest.fn<ReturnType<StartSync>, Parameters<StartSync>>(async () => ({
    runId: 'run-1',
    at: '2026-03-10T09:00:00.000Z',
  }));
  const deps: typeof api.deps & SyncApiDeps = { ...api.deps, requestSync };
  app = express();
  app.use('/api', buildRouter(syncRoutes, deps));
});
afterEach(async () => {
  await api.close();
});

describe('/sync routes', () => {
  it('start a run for an admin and refuse anonymous callers', async () => {
    const token = await api.adminToken();
    const res = await request(app)
      .post('/api/sync')
      .set('Authorization', `Bearer ${token}`)
      .send({ type: 'LAST_YEAR' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'run-1', type: 'LAST_YEAR', status: 'RUNNING' });
    expect(requestSync.mock.calls[0]?.[0]).toMatchObject({
      scope: 'LAST_YEAR',
      by: { email: 'admin@portale.test' },
    });
    expect((await request(app).post('/api/sync').send({ type: 'LAST_YEAR' })).status).toBe(401);
  });

  it('answer 409 S001 while a run is in progress, and 400 for a custom sync without files', async () => {
    const token = await api.adminToken();
    requestSync.mockRejectedValueOnce(new DomainError('S001'));
    const busy = await request(app)
      .post('/api/sync')
      .set('Authorization', `Bearer ${token}`)
      .send({ type: 'ALL' });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('S001');
    const invalid = await request(app)
      .post('/api/sync')
      .set('Authorization', `Bearer ${token}`)
      .send({ type: 'CUSTOM' });
    expect(invalid.status).toBe(400);
  });

  it('serve the read side', async () => {
    const token = await api.adminToken();
    const auth = { Authorization: `Bearer ${token}` };
    expect((await request(app).get('/api/sync/status').set(auth)).body).toEqual({
      running: false,
      indexing: false,
      run: null,
    });
    expect((await request(app).get('/api/sync/results').set(auth)).body).toEqual([]);
    expect((await request(app).get('/api/sync/documents-update').set(auth)).body).toEqual([]);
    expect((await request(app).get('/api/sync/archive-stats').set(auth)).body).toEqual({
      totalDocuments: 0,
      lastSync: null,
      deadLetters: 0,
      missingAids: 0,
    });
    const lastUpdate = await request(app).get('/api/sync/last-rna-sync').set(auth);
    expect(lastUpdate.text).toBe('null'); // the timestamp itself (SPEC §4): null when never updated
  });
});
