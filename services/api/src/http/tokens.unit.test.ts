import type { ApiDeps } from './deps';
import { ACCESS_TOKEN_SECONDS, signAccessToken, verifyAccessToken } from './tokens';

function depsAt(secret: string, clock: { now: number }): ApiDeps {
  return { config: { jwtSecret: secret }, clock: () => new Date(clock.now) } as unknown as ApiDeps;
}

const principal = { userId: 'u-1', email: 'cliente@example.it', role: 'CLIENT' as const, tokenVersion: 0 };

describe('access tokens', () => {
  it('accepts a token again and again until it expires, then refuses it', () => {
    const clock = { now: Date.parse('2026-03-01T10:00:00Z') };
    const deps = depsAt('secret-one-with-enough-length', clock);
    const token = signAccessToken(deps, principal);
    expect(verifyAccessToken(deps, token)).toEqual(principal);
    expect(verifyAccessToken(deps, token)).toEqual(principal);
    clock.now += (ACCESS_TOKEN_SECONDS - 1) * 1000;
    expect(verifyAccessToken(deps, token)).toEqual(principal);
    clock.now += 2000;
    expect(verifyAccessToken(deps, token)).toBeNull();
  });

  it('refuses a token signed with another secret, even one already accepted under its own', () => {
    const clock = { now: Date.now() };
    const ours = depsAt('secret-one-with-enough-length', clock);
    const theirs = depsAt('secret-two-with-enough-length', clock);
    const token = signAccessToken(theirs, principal);
    expect(verifyAccessToken(theirs, token)).toEqual(principal);
    expect(verifyAccessToken(ours, token)).toBeNull();
  });

  it('refuses a token whose payload was altered', () => {
    const deps = depsAt('secret-one-with-enough-length', { now: Date.now() });
    const token = signAccessToken(deps, principal);
    expect(verifyAccessToken(deps, token)).toEqual(principal);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'ADMIN' })).toString('base64url');
    expect(verifyAccessToken(deps, `${header}.${forged}.${signature}`)).toBeNull();
  });
});
