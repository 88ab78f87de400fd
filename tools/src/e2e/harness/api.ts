/** Set-up steps a journey does not walk through in the browser: plain calls to the portal's API. */
import type { SyncStatusDto } from '@rna/domain';
import { until } from './ui';

export interface ApiClient {
  /** the portal's address, without /api */
  baseUrl: string;
  token: string;
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
}

export async function signInByApi(baseUrl: string, email: string, password: string): Promise<ApiClient> {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`login of ${email} answered ${login.status}`);
  const { accessToken } = (await login.json()) as { accessToken: string };
  return {
    baseUrl,
    token: accessToken,
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${baseUrl}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    },
  };
}

export interface InvitedClient {
  id: string;
  email: string;
  /** the password the client chose at its first sign-in (the invitation code no longer signs in) */
  password: string;
}

/**
 * Invites a client as the admin, sets its allowance and flags, and walks its first sign-in by API
 * (the invitation code, then a password of its own): the journeys sign in with that password.
 */
export async function inviteClientByApi(
  admin: ApiClient,
  email: string,
  options: { searches?: number; pdfEnabled?: boolean; enableVariationAlerts?: boolean } = {},
): Promise<InvitedClient> {
  const invited = await admin.call<{ id: string; invitationCode: string }>('POST', '/clients/invite', {
    email,
  });
  if (options.searches !== undefined) {
    await admin.call('PUT', `/clients/${invited.id}/limits`, {
      availableYearlySearches: options.searches,
      remainingSearches: options.searches,
      endDate: Date.now() + 200 * 86_400_000,
    });
  }
  if (options.pdfEnabled !== undefined)
    await admin.call('PUT', `/clients/${invited.id}/pdf-enabled`, { enabled: options.pdfEnabled });
  if (options.enableVariationAlerts !== undefined)
    await admin.call('PUT', `/clients/${invited.id}/enable-variation-alerts`, {
      enable: options.enableVariationAlerts,
    });
  const password = `scelta-${invited.invitationCode}`;
  const firstSignIn = await signInByApi(admin.baseUrl, email, invited.invitationCode);
  await firstSignIn.call('PUT', '/users/change-password', {
    password: invited.invitationCode,
    newPassword: password,
  });
  return { id: invited.id, email, password };
}

/** The administrator synchronises the generated archive by API and waits until every aid is searchable. */
export async function syncArchiveByApi(admin: ApiClient): Promise<void> {
  await admin.call('POST', '/sync', { type: 'LAST_YEAR' });
  await until(
    async () => {
      const status = await admin.call<SyncStatusDto>('GET', '/sync/status');
      return !status.running && !status.indexing && status.run?.status === 'SUCCESS';
    },
    'the archive synchronised and indexed',
    90_000,
  );
}
