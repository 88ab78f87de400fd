import request from 'supertest';
import type { AuthTokensDto, MyClientDto, UserDto } from '@rna/domain';
import { ADMIN_EMAIL, ADMIN_PASSWORD, CHOSEN_PASSWORD, startTestApi, type TestApi } from '../testing/harness';
import { ensureFirstAdmin } from './first-admin';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

// argon2id is deliberately slow, and other suites run in parallel.
jest.setTimeout(60_000);

describe('authentication', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({
      limits: { loginFailuresPerAccountAddress: 3, loginFailuresPerAddress: 1000 },
    });
  });
  afterAll(() => api.close());

  it('signs in the administrator and answers tokens with the user', async () => {
    const tokens = await api.signIn(ADMIN_EMAIL.toUpperCase(), ADMIN_PASSWORD);
    expect(tokens.user).toMatchObject({ email: ADMIN_EMAIL, role: 'ADMIN', pdfEnabled: true, taxCode: null });
    expect(tokens.user.logo).toMatchObject({ id: -1, name: 'default' });
    const me = await request(api.app).get('/api/users/me').set(bearer(tokens.accessToken)).expect(200);
    expect((me.body as UserDto).role).toBe('ADMIN');
  });

  it('answers A001 for a wrong password and for an unknown email alike', async () => {
    const wrong = await request(api.app)
      .post('/api/auth/login')
      .send({ email: ADMIN_EMAIL, password: 'wrong-one' });
    const unknown = await request(api.app)
      .post('/api/auth/login')
      .send({ email: 'x@y.it', password: 'wrong-one' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.code).toBe('A001');
  });

  it('throttles repeated failures on one account, even with the right password, until the window passes', async () => {
    const email = 'throttled@example.it';
    const { code } = await api.inviteClient(email);
    for (let i = 0; i < 3; i++)
      await request(api.app).post('/api/auth/login').send({ email, password: 'bad-password' }).expect(401);
    const blocked = await request(api.app).post('/api/auth/login').send({ email, password: code });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ code: 'A003', message: expect.stringMatching(/Troppi tentativi/) });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    api.advance(16 * 60_000);
    await request(api.app).post('/api/auth/login').send({ email, password: code }).expect(200);
  });

  it('rotates refresh tokens; a spent token revokes the whole family', async () => {
    const first = await api.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    const second = (
      await request(api.app).post('/api/auth/refresh').send({ refreshToken: first.refreshToken }).expect(200)
    ).body as AuthTokensDto;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    const replay = await request(api.app)
      .post('/api/auth/refresh')
      .send({ refreshToken: first.refreshToken });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('A001');
    // The legitimate holder of the newer token is signed out too: the family is revoked.
    await request(api.app).post('/api/auth/refresh').send({ refreshToken: second.refreshToken }).expect(401);
  });

  it('logout revokes the refresh token', async () => {
    const tokens = await api.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    await request(api.app).post('/api/auth/logout').send({ refreshToken: tokens.refreshToken }).expect(204);
    await request(api.app).post('/api/auth/refresh').send({ refreshToken: tokens.refreshToken }).expect(401);
  });

  it('access tokens expire after 15 minutes', async () => {
    const tokens = await api.signIn(ADMIN_EMAIL, ADMIN_PASSWORD);
    api.advance(14 * 60_000);
    await request(api.app).get('/api/users/me').set(bearer(tokens.accessToken)).expect(200);
    api.advance(2 * 60_000);
    const late = await request(api.app).get('/api/users/me').set(bearer(tokens.accessToken));
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('A001');
    await request(api.app).post('/api/auth/refresh').send({ refreshToken: tokens.refreshToken }).expect(200);
  });

  it('resets a forgotten password with a single-use link, and answers the same for unknown emails', async () => {
    const email = 'smemorato@example.it';
    const { code } = await api.inviteClient(email);
    await api.signIn(email, code);
    await request(api.app).post('/api/auth/forgot').send({ email: 'nobody@example.it' }).expect(204);
    await request(api.app).post('/api/auth/forgot').send({ email }).expect(204);
    const mails = () =>
      api.smtp.received.filter((m) => m.to.includes(email) && m.subject.includes('Reimpostazione'));
    for (let i = 0; i < 100 && mails().length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const link = /http:\/\/portale\.test\/reset-password\?code=(\S+)/.exec(mails()[0]!.text);
    expect(link).not.toBeNull();
    const resetCode = decodeURIComponent(link![1]!);
    const short = await request(api.app)
      .post('/api/auth/reset-password')
      .send({ code: resetCode, newPassword: 'short' });
    expect(short.body.code).toBe('J001');
    await request(api.app)
      .post('/api/auth/reset-password')
      .send({ code: resetCode, newPassword: 'nuova-password' })
      .expect(204);
    const again = await request(api.app)
      .post('/api/auth/reset-password')
      .send({ code: resetCode, newPassword: 'altra-password' });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('U003');
    await api.signIn(email, 'nuova-password');
    await request(api.app).post('/api/auth/login').send({ email, password: code }).expect(401);
    expect(api.smtp.received.some((m) => m.to.includes('nobody@example.it'))).toBe(false);
  });

  it('changes the own password after checking the current one', async () => {
    const email = 'cambio@example.it';
    const { code } = await api.inviteClient(email);
    const tokens = await api.firstSignIn(email, code);
    const wrong = await request(api.app)
      .put('/api/users/change-password')
      .set(bearer(tokens.accessToken))
      .send({ password: 'not-it', newPassword: 'password-nuova' });
    expect(wrong.body.code).toBe('A001');
    await request(api.app)
      .put('/api/users/change-password')
      .set(bearer(tokens.accessToken))
      .send({ password: CHOSEN_PASSWORD, newPassword: 'password-nuova' })
      .expect(204);
    await api.signIn(email, 'password-nuova');
  });

  it('shows a client its profile, and refuses sign-in with A002 once its access has ended', async () => {
    const email = 'profilo@example.it';
    const { id, code } = await api.inviteClient(email);
    const tokens = await api.firstSignIn(email, code);
    expect(tokens.user).toMatchObject({
      role: 'CLIENT',
      remainingSearches: 100,
      availableYearlySearches: 100,
    });
    const me = (await request(api.app).get('/api/clients/me').set(bearer(tokens.accessToken)).expect(200))
      .body as MyClientDto;
    expect(me).toMatchObject({ id, email, remainingSearches: 100 });
    expect(me.endDate).toBeGreaterThan(api.deps.clock().getTime());
    await request(api.app)
      .put(`/api/clients/${id}/limits`)
      .set(bearer(await api.adminToken()))
      .send({ availableYearlySearches: 100, remainingSearches: 100, endDate: '2026-03-09' })
      .expect(200);
    const expired = await request(api.app).post('/api/auth/login').send({ email, password: CHOSEN_PASSWORD });
    expect(expired.status).toBe(403);
    expect(expired.body.code).toBe('A002');
    const refresh = await request(api.app)
      .post('/api/auth/refresh')
      .send({ refreshToken: tokens.refreshToken });
    expect(refresh.body.code).toBe('A002');
    // It may still see its own status with the access token it holds.
    await request(api.app).get('/api/clients/me').set(bearer(tokens.accessToken)).expect(200);
  });

  it('creates the first administrator once, with a generated password shown only then', async () => {
    const other = await startTestApi();
    try {
      expect(await ensureFirstAdmin(other.deps, { email: 'second@x.it' })).toEqual({ created: false });
    } finally {
      await other.close();
    }
    const fresh = await startTestApi();
    try {
      await fresh.deps.documents.collection('credentials').clear();
      const result = await ensureFirstAdmin(fresh.deps, { email: 'Capo@Example.it' });
      expect(result.created).toBe(true);
      if (!result.created || !result.generatedPassword) throw new Error('expected a generated password');
      expect(result.generatedPassword.length).toBeGreaterThanOrEqual(12);
      await fresh.signIn('capo@example.it', result.generatedPassword);
      expect(await ensureFirstAdmin(fresh.deps, { email: 'capo@example.it' })).toEqual({ created: false });
    } finally {
      await fresh.close();
    }
  });

  it('reads the access token from a well-formed Bearer header only', async () => {
    const token = await api.adminToken();
    const me = (authorization: string) =>
      request(api.app).get('/api/users/me').set('Authorization', authorization);
    // the scheme's case and the spaces after it are free (RFC 9110)
    await me(`Bearer ${token}`).expect(200);
    await me(`bearer ${token}`).expect(200);
    await me(`Bearer   ${token}`).expect(200);
    // anything before the scheme or after the token is not a Bearer header
    for (const malformed of [
      `XBearer ${token}`,
      `Token Bearer ${token}`,
      `Bearer ${token} extra`,
      `Bearer`,
      token,
    ])
      expect({ malformed, code: (await me(malformed).expect(401)).body.code }).toEqual({
        malformed,
        code: 'A001',
      });
  });

  it('refuses a removed client’s access token, also once its email is invited again as a new client', async () => {
    const email = 'rimosso@example.it';
    const invited = await api.inviteClient(email);
    // signed in with its invitation code: its token carries the same password version as a new client's
    const removed = await api.signIn(email, invited.code);
    await request(api.app)
      .delete(`/api/clients/${invited.id}`)
      .set(bearer(await api.adminToken()))
      .expect(204);
    expect((await request(api.app).get('/api/users/me').set(bearer(removed.accessToken))).body.code).toBe(
      'A001',
    );
    // the same email, a new client: the old token (still a valid signature) is not the new client's
    const again = await api.inviteClient(email);
    expect(again.id).not.toBe(invited.id);
    const old = await request(api.app).get('/api/users/me').set(bearer(removed.accessToken));
    expect({ status: old.status, code: old.body.code }).toEqual({ status: 401, code: 'A001' });
  });
});
