import { isErrorCode, type AuthTokensDto, type ErrorCode } from '@rna/domain';
import { getRuntimeConfig } from '../runtime-config';

export type RefreshOutcome = { ok: true; tokens: AuthTokensDto } | { ok: false; code: ErrorCode | null };

/**
 * The refusals a user is told about when the session ends because of them. A002 (access expired) is the one
 * the user can act on (call the sales contact); a revoked or reused token just ends signed out (SPEC §4).
 */
const TOLD_REFUSALS: readonly ErrorCode[] = ['A002'];

export const reasonToTell = (code: ErrorCode | null): ErrorCode | undefined =>
  code && TOLD_REFUSALS.includes(code) ? code : undefined;

async function codeOf(response: Response): Promise<ErrorCode | null> {
  try {
    const body: unknown = await response.json();
    const code = body && typeof body === 'object' && 'code' in body ? body.code : null;
    return isErrorCode(code) ? code : null;
  } catch {
    return null; // not JSON (a proxy's error page)
  }
}

/** POST /auth/refresh: the new tokens, or the spec code the server refused with. Network errors reject. */
export async function requestRefresh(refreshToken: string): Promise<RefreshOutcome> {
  const response = await fetch(`${getRuntimeConfig().apiBaseUrl}/auth/refresh`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
  if (!response.ok) return { ok: false, code: await codeOf(response) };
  return { ok: true, tokens: (await response.json()) as AuthTokensDto };
}
