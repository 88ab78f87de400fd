import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import { startTestApi, type TestApi } from '../testing/harness';
import { buildRouter } from './registry';
import { defineRoute, reply } from './route';

jest.setTimeout(60_000);

describe('request validation and error mapping', () => {
  let api: TestApi;
  const logs: string[] = [];
  beforeAll(async () => {
    api = await startTestApi({ logs });
  });
  afterAll(() => api.close());

  const login = () => request(api.app).post('/api/auth/login');

  it('malformed JSON → 400 J001, without a stack trace', async () => {
    const res = await login().set('Content-Type', 'application/json').send('{"email": "a@b.it", ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'J001', message: expect.any(String) });
    expect(res.text).not.toMatch(/at .*\.js|SyntaxError/);
  });

  it('wrong types and unknown fields → 400 J001', async () => {
    const wrongType = await login().send({ email: 42, password: 'x' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.code).toBe('J001');
    const unknown = await login().send({ email: 'a@b.it', password: 'xxxxxxxx', admin: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('J001');
    const notAnObject = await login().set('Content-Type', 'application/json').send('"text"');
    expect(notAnObject.status).toBe(400);
    expect(notAnObject.body.code).toBe('J001');
  });

  it('an oversize body → 413 J003; another content type → 415 J004', async () => {
    const huge = await login().send({ email: 'a@b.it', password: 'x'.repeat(200_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('J003');
    const form = await login().type('form').send('email=a@b.it&password=xxxxxxxx');
    expect(form.status).toBe(415);
    expect(form.body.code).toBe('J004');
  });

  it('a spec code in the schema wins over J001 (T002 for a short tax code)', async () => {
    const res = await request(api.app)
      .post('/api/clients/invite')
      .set('Authorization', `Bearer ${await api.adminToken()}`)
      .send({ email: 'corto@example.it', fixedTaxCode: '1234' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('T002');
  });

  it('a malformed percent-encoding in a path or a query → 400 J001, never 500', async () => {
    const token = await api.adminToken();
    for (const [method, url] of [
      ['get', '/api/images/%E0%A4%A'],
      ['delete', '/api/variation-alerts/%E0%A4%A'],
      ['delete', '/api/clients/%'],
      ['put', '/api/clients/%C0%AF/fixed-tax-code/01234567897'],
      ['get', '/api/documents?taxCodes=%E0%A4%A'],
      ['get', '/api/documents?taxCodes=01234567897&deMinimis=%ZZ'],
    ] as const) {
      const res = await request(api.app)[method](url).set('Authorization', `Bearer ${token}`);
      expect({ url, status: res.status, code: res.body.code }).toEqual({
        url,
        status: 400,
        code: expect.stringMatching(/^(J001|T002)$/),
      });
    }
  });

  it('hostile tax codes are refused with T002 everywhere a code is accepted, before anything is charged', async () => {
    const token = await api.adminToken();
    const hostile = [
      '<script>1234567',
      '01234567897;DROP TABLE',
      '0000000000000000000000000',
      '01234567897%00',
    ];
    for (const code of hostile) {
      const encoded = encodeURIComponent(code);
      const answers = await Promise.all([
        request(api.app).get(`/api/documents?taxCodes=${encoded}`).set('Authorization', `Bearer ${token}`),
        request(api.app)
          .get(`/api/documents/sheet?taxCodes=${encoded}`)
          .set('Authorization', `Bearer ${token}`),
        request(api.app)
          .get(`/api/documents/pdf?taxCodes=${encoded}`)
          .set('Authorization', `Bearer ${token}`),
        request(api.app)
          .put('/api/users/saved-searches')
          .set('Authorization', `Bearer ${token}`)
          .send([{ taxCodes: [code], deMinimis: false, last3Years: false }]),
        request(api.app)
          .post('/api/variation-alerts')
          .set('Authorization', `Bearer ${token}`)
          .send({ taxCodes: [code] }),
      ]);
      expect(answers.map((res) => [res.status, res.body.code])).toEqual(answers.map(() => [400, 'T002']));
    }
  });

  it('an unknown /api route → 404 J005', async () => {
    const res = await request(api.app).get('/api/nothing/here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'J005', message: expect.any(String) });
    expect((await request(api.app).delete('/api/health')).body.code).toBe('J005');
  });

  it('a storage failure → 503 G002 (not G001), logged', async () => {
    const search = api.deps.aidIndex.search.bind(api.deps.aidIndex);
    api.deps.aidIndex.search = () =>
      Promise.reject(
        Object.assign(new Error('database disk image is malformed'), {
          name: 'SqliteError',
          code: 'SQLITE_CORRUPT',
        }),
      );
    try {
      const res = await request(api.app)
        .get('/api/documents?taxCodes=01234567897')
        .set('Authorization', `Bearer ${await api.adminToken()}`);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: 'G002', message: expect.any(String) });
      expect(res.text).not.toContain('malformed');
      expect(logs.join('\n')).toContain('storage failure');
    } finally {
      api.deps.aidIndex.search = search;
    }
  });

  it('an unexpected failure → 500 G001, logged without the secrets of the request', async () => {
    const failing = defineRoute({
      method: 'post',
      path: '/boom',
      access: 'anonymous',
      tag: 'test',
      summary: 'fails',
      body: z.object({ password: z.string() }).strict(),
      async handler() {
        throw new Error('database exploded');
      },
    });
    const ok = defineRoute({
      method: 'get',
      path: '/ok',
      access: 'anonymous',
      tag: 'test',
      summary: 'ok',
      handler: async () => reply.json({ ok: true }),
    });
    const app = express().use('/api', buildRouter([failing, ok], api.deps));
    const res = await request(app)
      .post('/api/boom')
      .set('Authorization', 'Bearer secret-token-value')
      .send({ password: 'my-secret-password' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 'G001', message: expect.any(String) });
    expect(res.text).not.toContain('database exploded');
    const logged = logs.join('\n');
    expect(logged).toContain('database exploded');
    expect(logged).not.toContain('my-secret-password');
    expect(logged).not.toContain('secret-token-value');
  });

  it('a route definition without a valid access level is refused when the router is built', () => {
    const bad = {
      ...defineRoute({
        method: 'get',
        path: '/x',
        access: 'anonymous',
        tag: 't',
        summary: 's',
        handler: async () => reply.noContent(),
      }),
      access: undefined,
    } as never;
    expect(() => buildRouter([bad], api.deps)).toThrow(/access/);
  });
});
