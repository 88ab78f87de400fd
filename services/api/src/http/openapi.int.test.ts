import request from 'supertest';
import { apiRoutes } from '../app';
import { startTestApi, type TestApi } from '../testing/harness';
import { openApiPath } from './openapi';

jest.setTimeout(60_000);

describe('/api/openapi.json', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());

  it('describes every registered route, with its access and schemas', async () => {
    const res = await request(api.app).get('/api/openapi.json').expect(200);
    const doc = res.body as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, { summary: string; 'x-access': string; security: unknown[] }>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe('9.9.9-test');
    const missing = apiRoutes().filter((route) => !doc.paths[openApiPath(route.path)]?.[route.method]);
    expect(missing.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    for (const route of apiRoutes()) {
      const operation = doc.paths[openApiPath(route.path)]![route.method]!;
      expect(operation.summary).toBe(route.summary);
      expect(operation['x-access']).toBe(route.access);
      expect(operation.security.length).toBe(route.access === 'anonymous' ? 0 : 1);
    }
  });

  it('generates request schemas from zod (strict objects, required fields)', async () => {
    const doc = (await request(api.app).get('/api/openapi.json')).body;
    const login = doc.paths['/auth/login'].post.requestBody.content['application/json'].schema;
    expect(login).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['email', 'password'],
    });
    const upload = doc.paths['/logos'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.properties.file).toEqual({ type: 'string', format: 'binary' });
    const params = doc.paths['/clients/{id}/limits'].put.parameters;
    expect(params).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
  });
});
