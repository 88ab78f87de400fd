import type { BaseQueryApi, FetchArgs } from '@reduxjs/toolkit/query';
import { createReauthBaseQuery, REQUEST_CALL_FAILED, type RawBaseQuery } from './reauth-base-query';

const api = {} as BaseQueryApi;

/** A fake server: answers 401 to any token but the valid one; records the calls it got. */
function fakeServer(validToken: { value: string }) {
  const calls: { url: string; token: string | null }[] = [];
  let token: string | null = 'old';
  let refused = 0;
  const raw: RawBaseQuery = async (args) => {
    const url = typeof args === 'string' ? args : (args as FetchArgs).url;
    calls.push({ url, token });
    await new Promise((r) => setTimeout(r, 1));
    if (token !== validToken.value) {
      refused += 1;
      return { error: { status: 401, data: { code: 'A001' } } };
    }
    return { data: { url } };
  };
  return {
    raw,
    calls,
    refused: () => refused,
    getToken: () => token,
    setToken: (t: string | null) => (token = t),
  };
}

describe('token refresh queue', () => {
  it('refreshes once for many concurrent 401s and retries every request with the new token', async () => {
    const server = fakeServer({ value: 'new' });
    let refreshes = 0;
    let releaseRefresh: () => void = () => undefined;
    let refreshStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (refreshStarted = resolve));
    const onSessionExpired = jest.fn();
    const query = createReauthBaseQuery({
      rawBaseQuery: server.raw,
      getAccessToken: server.getToken,
      refreshTokens: () => {
        refreshes += 1;
        refreshStarted();
        return new Promise<boolean>((resolve) => {
          releaseRefresh = () => {
            server.setToken('new');
            resolve(true);
          };
        });
      },
      onSessionExpired,
    });

    const first = Promise.all(['/a', '/b', '/c'].map((url) => query(url, api, {})));
    await started; // the 401s came back and the refresh is under way
    // issued while the refresh runs: waits in the queue instead of failing with the old token
    const queued = query('/d', api, {});
    await new Promise((r) => setTimeout(r, 0)); // one turn of the event loop: a call would be on record
    expect(server.calls.filter((c) => c.url === '/d')).toHaveLength(0);
    releaseRefresh();

    const results = [...(await first), await queued];
    expect(refreshes).toBe(1);
    expect(results.map((r) => r.data)).toEqual([{ url: '/a' }, { url: '/b' }, { url: '/c' }, { url: '/d' }]);
    expect(server.calls.filter((c) => c.url === '/d')).toEqual([{ url: '/d', token: 'new' }]);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('on a failed refresh cancels every waiting request and ends the session once', async () => {
    const server = fakeServer({ value: 'never-valid' });
    const onSessionExpired = jest.fn();
    let refreshes = 0;
    const query = createReauthBaseQuery({
      rawBaseQuery: server.raw,
      getAccessToken: server.getToken,
      refreshTokens: async () => {
        refreshes += 1;
        // the refresh ends only once all three requests have been answered 401 (so they all wait on it)
        while (server.refused() < 3) await new Promise((r) => setTimeout(r, 0));
        server.setToken(null);
        return false;
      },
      onSessionExpired,
    });
    const results = await Promise.all(['/a', '/b', '/c'].map((url) => query(url, api, {})));
    expect(refreshes).toBe(1);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    for (const result of results) {
      expect(result.error).toEqual({ status: 'CUSTOM_ERROR', error: REQUEST_CALL_FAILED });
    }
  });

  it('never refreshes for the auth calls themselves', async () => {
    const server = fakeServer({ value: 'x' });
    const refreshTokens = jest.fn(async () => true);
    const query = createReauthBaseQuery({
      rawBaseQuery: server.raw,
      getAccessToken: server.getToken,
      refreshTokens,
      onSessionExpired: () => undefined,
      isAuthCall: (args) => String(typeof args === 'string' ? args : args.url).startsWith('/auth/'),
    });
    const result = await query('/auth/login', api, {});
    expect(result.error).toMatchObject({ status: 401 });
    expect(refreshTokens).not.toHaveBeenCalled();
  });
});
