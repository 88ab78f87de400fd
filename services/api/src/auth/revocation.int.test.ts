import request from 'supertest';
import type { AuthTokensDto } from '@rna/domain';
import { withCollectionMethods } from '@rna/infra/embedded/testing';
import { CHOSEN_PASSWORD, startTestApi, type TestApi } from '../testing/harness';
import { refreshSession, REFRESH_TOKENS_COLLECTION } from './sessions';

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const DAY = 86_400_000;

// argon2id is deliberately slow, and other suites run in parallel.
jest.setTimeout(60_000);

describe('sessions end when they should', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ limits: { loginFailuresPerAddress: 1000 } });
  });
  afterAll(() => api.close());

  const me = (tokens: AuthTokensDto) => request(api.app).get('/api/users/me').set(bearer(tokens.accessToken));
  const refresh = (tokens: AuthTokensDto) =>
    request(api.app).post('/api/auth/refresh').send({ refreshToken: tokens.refreshToken });

  it('a password change ends every other session of the user, and keeps the one that made it', async () => {
    const email = 'revoca@example.it';
    const { code } = await api.inviteClient(email);
    // the invitation code only opens the choice of a password: the sessions use the chosen one
    await api.firstSignIn(email, code);
    const phone = await api.signIn(email, CHOSEN_PASSWORD);
    const laptop = await api.signIn(email, CHOSEN_PASSWORD);
    await me(phone).expect(200);
    await me(laptop).expect(200);
    // another user, signed in meanwhile: none of this is theirs to end
    const bystanderEmail = 'altro-utente@example.it';
    const bystander = await api.signIn(bystanderEmail, (await api.inviteClient(bystanderEmail)).code);

    await request(api.app)
      .put('/api/users/change-password')
      .set(bearer(laptop.accessToken))
      .send({ password: CHOSEN_PASSWORD, newPassword: 'password-nuova-1' })
      .expect(204);

    // the other session: neither its access token nor its refresh token works any more
    expect((await me(phone).expect(401)).body.code).toBe('A001');
    expect((await refresh(phone).expect(401)).body.code).toBe('A001');
    // the session that changed it carries on through a refresh (what the front end does on a 401)
    const renewed = (await refresh(laptop).expect(200)).body as AuthTokensDto;
    await me(renewed).expect(200);
    // and the old password is gone
    await request(api.app).post('/api/auth/login').send({ email, password: CHOSEN_PASSWORD }).expect(401);
    await refresh(bystander).expect(200);
  });

  it('a password reset ends every session, access tokens included', async () => {
    const email = 'reset-revoca@example.it';
    const { code } = await api.inviteClient(email);
    const session = await api.signIn(email, code);
    const bystanderEmail = 'altro-reset@example.it';
    const bystander = await api.signIn(bystanderEmail, (await api.inviteClient(bystanderEmail)).code);
    await request(api.app).post('/api/auth/forgot').send({ email }).expect(204);
    const resetMail = () =>
      api.smtp.received.find((m) => m.to.includes(email) && m.subject.includes('Reimpostazione'));
    // the mail goes out after the answer: wait for the SMTP server to have it
    for (let i = 0; i < 100 && !resetMail(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    const resetCode = /reset-password\?code=(\S+)/.exec(resetMail()?.text ?? '')?.[1];
    expect(resetCode).toBeDefined();
    await request(api.app)
      .post('/api/auth/reset-password')
      .send({ code: decodeURIComponent(resetCode!), newPassword: 'password-dopo-reset' })
      .expect(204);
    expect((await me(session).expect(401)).body.code).toBe('A001');
    await refresh(session).expect(401);
    await refresh(bystander).expect(200); // another user's session is not the reset's
  });

  it('a sign-in lasts 30 days at most, however often its refresh token rotates', async () => {
    const email = 'durata@example.it';
    const { code } = await api.inviteClient(email);
    let tokens = await api.signIn(email, code);
    // a refresh every 10 days keeps the session going until day 30 from the sign-in …
    for (let day = 10; day < 30; day += 10) {
      api.advance(10 * DAY);
      tokens = (await refresh(tokens).expect(200)).body as AuthTokensDto;
    }
    // … and no further, although the newest refresh token was issued only 9 days before
    api.advance(9 * DAY);
    tokens = (await refresh(tokens).expect(200)).body as AuthTokensDto;
    api.advance(2 * DAY);
    expect((await refresh(tokens).expect(401)).body.code).toBe('A001');
  });

  it('a sign-in ends at the very instant its 30 days are up', async () => {
    const email = 'istante@example.it';
    const { code } = await api.inviteClient(email);
    const lastMoment = await api.signIn(email, code);
    const atTheEnd = await api.signIn(email, code);
    api.advance(30 * DAY - 1);
    await refresh(lastMoment).expect(200); // a millisecond before
    api.advance(1);
    expect((await refresh(atTheEnd).expect(401)).body.code).toBe('A001'); // and not at the instant itself
  });
});

describe('refresh tokens presented twice', () => {
  let api: TestApi;
  const logs: string[] = [];
  beforeAll(async () => {
    api = await startTestApi({ limits: { loginFailuresPerAddress: 1000 }, logs });
  });
  afterAll(() => api.close());

  const refresh = (refreshToken: string) => request(api.app).post('/api/auth/refresh').send({ refreshToken });

  it('two concurrent refreshes of one token: exactly one wins, and the family is treated as stolen', async () => {
    const email = 'doppio@example.it';
    const { code } = await api.inviteClient(email);
    const tokens = await api.signIn(email, code);
    const answers = await Promise.all([refresh(tokens.refreshToken), refresh(tokens.refreshToken)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    // the same token presented once more is a replay: refused
    expect((await refresh(tokens.refreshToken)).status).toBe(401);
    // and the winner's new token goes with the family: whoever raced may have been the thief
    const winner = answers.find((a) => a.status === 200)!.body.refreshToken as string;
    expect(winner).toEqual(expect.any(String));
    expect((await refresh(winner)).status).toBe(401);
  });

  it('a replayed token ends its own sign-in only: the user’s other sign-ins and other users carry on', async () => {
    const email = 'replay@example.it';
    const { code } = await api.inviteClient(email);
    const phone = await api.signIn(email, code);
    const laptop = await api.signIn(email, code);
    const otherEmail = 'replay-altro@example.it';
    const other = await api.signIn(otherEmail, (await api.inviteClient(otherEmail)).code);
    const rotated = (await refresh(phone.refreshToken)).body.refreshToken as string;
    expect((await refresh(phone.refreshToken)).status).toBe(401); // the spent one again: a replay
    // the operator is told whose sign-in was replayed (the user, never the token)
    const warning = logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.userId === phone.user.id);
    expect(warning).toEqual(
      expect.objectContaining({ msg: 'spent refresh token presented again: session family revoked' }),
    );
    expect(logs.join('\n')).not.toContain(phone.refreshToken);
    expect((await refresh(rotated)).status).toBe(401); // its family ends with it
    expect((await refresh(laptop.refreshToken)).status).toBe(200);
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });

  it('two refreshes that both read the token before either spends it: only one is answered', async () => {
    const email = 'gara@example.it';
    const { code } = await api.inviteClient(email);
    const tokens = await api.signIn(email, code);
    // both reads are held until the second has happened: the writes then race for real
    let reads = 0;
    let bothRead: () => void = () => undefined;
    const readsDone = new Promise<void>((resolve) => (bothRead = resolve));
    const racing = {
      ...api.deps,
      documents: withCollectionMethods(api.deps.documents, (name, inner) =>
        name !== REFRESH_TOKENS_COLLECTION
          ? {}
          : {
              getWithRevision: async (id) => {
                const found = await inner.getWithRevision(id);
                if (++reads === 2) bothRead();
                await readsDone;
                return found;
              },
            },
      ),
    };
    const outcomes = await Promise.allSettled([
      refreshSession(racing, tokens.refreshToken),
      refreshSession(racing, tokens.refreshToken),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    // the loser is told its session ended (A001), and the winner's family goes with it: either may be
    // the thief
    const lost = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
    expect(lost.reason).toMatchObject({ code: 'A001' });
    const won = outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<AuthTokensDto>;
    expect((await refresh(won.value.refreshToken)).body.code).toBe('A001');
  });

  it('a store that fails to spend the token is not a replay: the error surfaces and the sign-in goes on', async () => {
    const email = 'guasto@example.it';
    const { code } = await api.inviteClient(email);
    const tokens = await api.signIn(email, code);
    const failing = {
      ...api.deps,
      documents: withCollectionMethods(api.deps.documents, (name) =>
        name === REFRESH_TOKENS_COLLECTION ? { put: () => Promise.reject(new Error('disk I/O error')) } : {},
      ),
    };
    await expect(refreshSession(failing, tokens.refreshToken)).rejects.toThrow('disk I/O error');
    // once the store answers again the same token still rotates: nothing was revoked
    expect((await refresh(tokens.refreshToken)).status).toBe(200);
  });

  it('a refresh token past its lifetime is refused, and a fresh sign-in works', async () => {
    const email = 'scadenza-refresh@example.it';
    const { code } = await api.inviteClient(email);
    const tokens = await api.signIn(email, code);
    api.advance(30 * 86_400_000 + 1_000);
    expect((await refresh(tokens.refreshToken)).body.code).toBe('A001');
    await api.signIn(email, code);
  });
});
