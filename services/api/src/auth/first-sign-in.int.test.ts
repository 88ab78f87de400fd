/**
 * A client's first sign-in: the invitation code the administrator mailed opens a session that may
 * only choose the client's own password (A004 everywhere else); once chosen, the code signs in no more.
 */
import request from 'supertest';
import { streams, type AuthTokensDto, type ClientDto } from '@rna/domain';
import { startTestApi, type TestApi } from '../testing/harness';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

jest.setTimeout(60_000);

describe('first sign-in with the invitation code', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());

  const login = (email: string, password: string) =>
    request(api.app).post('/api/auth/login').send({ email, password });
  const choose = (token: string, password: string, newPassword: string) =>
    request(api.app).put('/api/users/change-password').set(bearer(token)).send({ password, newPassword });

  it('answers that a password must be chosen, and refuses every other route with A004 until then', async () => {
    const email = 'primo.accesso@example.it';
    const { code } = await api.inviteClient(email);
    const signedIn = await login(email, code).expect(200);
    const first = signedIn.body as AuthTokensDto;
    expect(first).toMatchObject({ passwordChangeRequired: true, user: { email, role: 'CLIENT' } });

    for (const [method, path] of [
      ['get', '/api/users/me'],
      ['get', '/api/clients/me'],
      ['get', '/api/documents?taxCodes=01234567897'],
      ['get', '/api/variation-alerts'],
      ['get', '/api/users/saved-searches'],
    ] as const) {
      const refused = await request(api.app)[method](path).set(bearer(first.accessToken));
      expect({ path, status: refused.status, code: refused.body.code }).toEqual({
        path,
        status: 403,
        code: 'A004',
      });
    }
    expect((await login(email, code)).body.passwordChangeRequired).toBe(true);
    // a refresh gives no more than the sign-in did
    const refreshed = await request(api.app)
      .post('/api/auth/refresh')
      .send({ refreshToken: first.refreshToken })
      .expect(200);
    expect(refreshed.body.passwordChangeRequired).toBe(true);
    const again = (refreshed.body as AuthTokensDto).accessToken;
    expect((await request(api.app).get('/api/clients/me').set(bearer(again))).body.code).toBe('A004');
    // the refused session recorded no access: the administrator still sees it waiting
    const listed = (
      await request(api.app)
        .get('/api/clients')
        .set(bearer(await api.adminToken()))
        .expect(200)
    ).body as ClientDto[];
    expect(listed.find((c) => c.email === email)).toMatchObject({
      active: false,
      status: 'In attesa',
      lastAccessTime: null,
    });
  });

  it('keeps the password rules, and refuses the invitation code itself as the new password (A004)', async () => {
    const email = 'regole@example.it';
    const { code } = await api.inviteClient(email);
    const first = (await login(email, code).expect(200)).body as AuthTokensDto;
    expect((await choose(first.accessToken, code, 'corta')).body.code).toBe('J001');
    expect((await choose(first.accessToken, 'non-il-codice', 'password-nuova')).body.code).toBe('A001');
    const same = await choose(first.accessToken, code, code);
    expect(same.status).toBe(403);
    expect(same.body.code).toBe('A004');
    // nothing changed: the code still opens the choice
    expect((await login(email, code).expect(200)).body.passwordChangeRequired).toBe(true);
  });

  it('after the choice: the session goes on with every route, the code is refused, the new password signs in', async () => {
    const email = 'scelta@example.it';
    const { id, code } = await api.inviteClient(email);
    const first = (await login(email, code).expect(200)).body as AuthTokensDto;
    await choose(first.accessToken, code, 'la-mia-password').expect(204);

    // the session that chose it carries on after a refresh, with every route open
    const refreshed = (
      await request(api.app).post('/api/auth/refresh').send({ refreshToken: first.refreshToken }).expect(200)
    ).body as AuthTokensDto;
    expect(refreshed.passwordChangeRequired).toBeUndefined();
    await request(api.app).get('/api/clients/me').set(bearer(refreshed.accessToken)).expect(200);

    const refused = await login(email, code);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('A001');
    const again = (await login(email, 'la-mia-password').expect(200)).body as AuthTokensDto;
    expect(again.passwordChangeRequired).toBeUndefined();
    await request(api.app).get('/api/users/me').set(bearer(again.accessToken)).expect(200);

    const client = await api.deps.eventStore.readStream(streams.client(id));
    expect(client.events.map((e) => e.type)).toEqual([
      'ClientInvited',
      'ClientActivated',
      'ClientAccessed',
      'ClientAccessed',
    ]);
    const user = await api.deps.eventStore.readStream(streams.user(id));
    expect(user.events.at(-1)).toMatchObject({
      type: 'PasswordChanged',
      data: { userId: id, reason: 'activation' },
    });
  });

  it('a reset link chosen before the first sign-in activates the client as well, and ends the code', async () => {
    const email = 'dimenticato@example.it';
    const { id, code } = await api.inviteClient(email);
    await request(api.app).post('/api/auth/forgot').send({ email }).expect(204);
    const mails = () =>
      api.smtp.received.filter((m) => m.to.includes(email) && m.subject.includes('Reimpost'));
    for (let i = 0; i < 100 && mails().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const link = /reset-password\?code=(\S+)/.exec(mails()[0]!.text);
    await request(api.app)
      .post('/api/auth/reset-password')
      .send({ code: decodeURIComponent(link![1]!), newPassword: 'dal-collegamento' })
      .expect(204);
    expect((await login(email, code)).status).toBe(401);
    const tokens = (await login(email, 'dal-collegamento').expect(200)).body as AuthTokensDto;
    expect(tokens.passwordChangeRequired).toBeUndefined();
    const client = await api.deps.eventStore.readStream(streams.client(id));
    expect(client.events.map((e) => e.type)).toEqual(['ClientInvited', 'ClientActivated', 'ClientAccessed']);
  });
});
