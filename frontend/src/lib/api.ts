import { createApi, fetchBaseQuery, type FetchArgs } from '@reduxjs/toolkit/query/react';
import type { ErrorCode } from '@rna/domain';
import { getRuntimeConfig } from './runtime-config';
import { createReauthBaseQuery, type RawBaseQuery } from './reauth-base-query';
import { sessionExpired } from './session-events';
import { reasonToTell, requestRefresh } from './session/refresh';
import { storage } from './storage';

const REQUEST_TIMEOUT_MS = 30_000;

/** The base URL comes from /config.json, read after the module loads, so it is resolved per call. */
const rawBaseQuery: RawBaseQuery = (args, api, extra) =>
  fetchBaseQuery({
    baseUrl: getRuntimeConfig().apiBaseUrl,
    timeout: REQUEST_TIMEOUT_MS,
    prepareHeaders: (headers) => {
      const token = storage.getAccessToken();
      if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
      return headers;
    },
  })(args, api, extra);

const urlOf = (args: string | FetchArgs): string => (typeof args === 'string' ? args : args.url);

/** why the last refresh was refused, told to the user when the session ends on it */
let lastRefusal: ErrorCode | null = null;

async function refreshTokens(): Promise<boolean> {
  lastRefusal = null; // a network failure below leaves nothing to tell
  const refreshToken = storage.getRefreshToken();
  if (!refreshToken) return false;
  const outcome = await requestRefresh(refreshToken);
  if (!outcome.ok) {
    lastRefusal = outcome.code;
    return false;
  }
  storage.setTokens(outcome.tokens.accessToken, outcome.tokens.refreshToken);
  return true;
}

let expire: (reason: ErrorCode | undefined) => void = () => undefined;

const baseQuery = createReauthBaseQuery({
  rawBaseQuery,
  getAccessToken: storage.getAccessToken,
  refreshTokens,
  onSessionExpired: () => {
    storage.clearTokens();
    expire(reasonToTell(lastRefusal));
  },
  isAuthCall: (args) => urlOf(args).startsWith('/auth/'),
});

/** One createApi for the whole app; features add endpoints with injectEndpoints. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: (args, queryApi, extra) => {
    expire = (reason) => queryApi.dispatch(sessionExpired(reason));
    return baseQuery(args, queryApi, extra);
  },
  tagTypes: [
    'Me',
    'MyClient',
    'SavedSearch',
    'VariationAlert',
    'Client',
    'Logo',
    'SyncStatus',
    'SyncResult',
    'ArchiveFile',
    'ArchiveStats',
    'DataSource',
    'LastUpdate',
    'SearchResult',
    'BulkJob',
    'UndertakingGroup',
  ],
  keepUnusedDataFor: 300,
  endpoints: () => ({}),
});
