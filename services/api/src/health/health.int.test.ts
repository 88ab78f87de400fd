import request from 'supertest';
import { INDEXING_GAPS_COLLECTION, type IndexingGapDoc } from '@rna/read-models';
import { DEAD_LETTERS_COLLECTION, recordDeadLetter } from '@rna/infra/dead-letters';
import { startTestApi, type TestApi } from '../testing/harness';
import { HEALTH_REUSE_MS } from './routes';

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
      deadLetters: 0,
      indexing: { complete: true, missingAids: 0, pendingAids: 0 },
    });
  });

  it('says the index is incomplete while aids are lost or not applied yet', async () => {
    const gaps = api.deps.documents.collection<IndexingGapDoc>(INDEXING_GAPS_COLLECTION);
    const runs = api.deps.documents.collection<Record<string, unknown> & { id: string }>('sync-runs');
    await gaps.put({
      id: 'aids/0/1000',
      topic: 'aids',
      partition: 0,
      fromOffset: '1000',
      toOffset: '1600',
      missing: 600,
      detectedAt: 0,
    });
    const files = api.deps.documents.collection<Record<string, unknown> & { id: string }>('archive-files');
    await files.put({ id: '2023_12', name: '2023_12', status: 'SUCCESS', lastUpdate: -1, records: 600 });
    await runs.put({
      id: 'r9',
      start: 9_000,
      status: 'SUCCESS',
      fileStates: { '2024_01': { status: 'SUCCESS', records: 1_200, error: null, importId: 'r9:2024_01:a' } },
    });
    try {
      api.advance(HEALTH_REUSE_MS);
      const res = await request(api.app).get('/api/health').expect(200);
      expect(res.body.indexing).toEqual({ complete: false, missingAids: 600, pendingAids: 1_200 });
    } finally {
      await gaps.clear();
      await runs.clear();
      await files.clear();
      api.advance(HEALTH_REUSE_MS);
    }
  });

  it('counts the events and records set aside, for the operator to look at', async () => {
    await recordDeadLetter(api.deps.documents, {
      id: 'projection:aid-index@aids/0/7',
      consumer: 'projection:aid-index',
      position: 'aids/0/7',
      type: 'AidRecorded',
      error: 'SyntaxError: Unexpected end of JSON input',
      attempts: 3,
      at: 0,
    });
    try {
      api.advance(HEALTH_REUSE_MS);
      expect((await request(api.app).get('/api/health').expect(200)).body.deadLetters).toBe(1);
    } finally {
      await api.deps.documents.collection(DEAD_LETTERS_COLLECTION).clear();
      api.advance(HEALTH_REUSE_MS);
    }
  });

  it('answers 503 degraded when a store fails', async () => {
    const get = api.deps.aidIndex.get.bind(api.deps.aidIndex);
    api.deps.aidIndex.get = () => Promise.reject(new Error('disk gone'));
    try {
      api.advance(HEALTH_REUSE_MS); // past the figure of the test before
      const res = await request(api.app).get('/api/health').expect(503);
      expect(res.body).toMatchObject({ status: 'degraded', stores: { aidIndex: 'error', eventStore: 'ok' } });
    } finally {
      api.deps.aidIndex.get = get;
    }
  });

  it('answers a burst of anonymous calls from one figure, never counting the aid index', async () => {
    api.advance(HEALTH_REUSE_MS);
    const counts = jest.spyOn(api.deps.aidIndex, 'count');
    const lookups = jest.spyOn(api.deps.aidIndex, 'get');
    try {
      await Promise.all(Array.from({ length: 50 }, () => request(api.app).get('/api/health').expect(200)));
      expect(counts).not.toHaveBeenCalled();
      expect(lookups).toHaveBeenCalledTimes(1);
    } finally {
      counts.mockRestore();
      lookups.mockRestore();
    }
  });
});
