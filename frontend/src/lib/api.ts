import { createApi, fetchBaseQuery, type FetchArgs } from '@reduxjs/toolkit/query/react';
import type { AuthTokensDto } from '@rna/domain';
import { getRuntimeConfig } from './runtime-config';
import { createReauthBaseQuery, type RawBaseQuery } from './reauth-base-query';
import { sessionExpired } from './session-events';
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

async function refreshTokens(): Promise<boolean> {
  const refreshToken = storage.getRefreshToken();
  if (!refreshToken) return false;
  const response = await fetch(`${getRuntimeConfig().apiBaseUrl}/auth/refresh`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
  if (!response.ok) return false;
  const tokens = (await response.json()) as AuthTokensDto;
  storage.setTokens(tokens.accessToken, tokens.refreshToken);
  return true;
}

let expire: () => void = () => undefined;

const baseQuery = createReauthBaseQuery({
  rawBaseQuery,
  getAccessToken: storage.getAccessToken,
  refreshTokens,
  onSessionExpired: () => {
    storage.clearTokens();
    expire();
  },
  isAuthCall: (args) => urlOf(args).startsWith('/auth/'),
});

/** One createApi for the whole app; features add endpoints with injectEndpoints. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: (args, queryApi, extra) => {
    expire = () => queryApi.dispatch(sessionExpired());
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
  ],
  keepUnusedDataFor: 300,
  endpoints: () => ({}),
});
