import type { BaseQueryFn, FetchArgs, FetchBaseQueryError } from '@reduxjs/toolkit/query';

export type RawBaseQuery = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError>;

export interface ReauthOptions {
  /** performs the request with the current access token */
  rawBaseQuery: RawBaseQuery;
  getAccessToken: () => string | null;
  /** exchanges the stored refresh token for new tokens; resolves false when that is impossible */
  refreshTokens: () => Promise<boolean>;
  /** called once when the refresh failed: tokens are already cleared by then */
  onSessionExpired: () => void;
  /** calls that must never trigger a refresh (login, refresh itself…) */
  isAuthCall?: (args: string | FetchArgs) => boolean;
}

export const REQUEST_CALL_FAILED = 'Request call failed';

const failed = (): { error: FetchBaseQueryError } => ({
  error: { status: 'CUSTOM_ERROR', error: REQUEST_CALL_FAILED },
});

/**
 * SPEC §4 token refresh: on a 401 one refresh is tried and the request retried. While a refresh runs, every
 * other request waits for it (the "queue"); if it fails, all waiting requests fail with 'Request call failed'.
 * One shared promise acts as the mutex, so any number of concurrent 401s cause a single refresh.
 */
export function createReauthBaseQuery(options: ReauthOptions): RawBaseQuery {
  const { rawBaseQuery, getAccessToken, refreshTokens, onSessionExpired } = options;
  const isAuthCall = options.isAuthCall ?? (() => false);
  let refreshing: Promise<boolean> | null = null;

  const refreshOnce = (): Promise<boolean> => {
    if (!refreshing) {
      refreshing = refreshTokens()
        .catch(() => false)
        .then((ok) => {
          if (!ok) onSessionExpired();
          return ok;
        })
        .finally(() => {
          refreshing = null;
        });
    }
    return refreshing;
  };

  return async (args, api, extraOptions) => {
    if (refreshing && !isAuthCall(args)) {
      // queued behind the running refresh
      if (!(await refreshing)) return failed();
    }
    const tokenUsed = getAccessToken();
    let result = await rawBaseQuery(args, api, extraOptions);
    if (result.error?.status !== 401 || isAuthCall(args)) return result;

    // Another request may already have refreshed the token this one was sent with.
    const tokenNow = getAccessToken();
    const ok = tokenNow !== null && tokenNow !== tokenUsed && !refreshing ? true : await refreshOnce();
    if (!ok) return failed();
    result = await rawBaseQuery(args, api, extraOptions);
    return result;
  };
}
