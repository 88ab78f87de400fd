/**
 * Sessions: a short access token plus a rotating refresh token. Refresh tokens are stored as
 * sha256 hashes, grouped in a family per sign-in; presenting a spent one means it was stolen or
 * replayed, so the whole family is revoked.
 */
import { randomUUID } from 'node:crypto';
import { DomainError, isAccessExpired, type AuthTokensDto } from '@rna/domain';
import { ConflictError, type Collection, type Doc } from '@rna/infra';
import { credentials } from '../accounts/credentials';
import { generateToken, sha256 } from '../accounts/passwords';
import { clientsReadModel } from '../accounts/read-models';
import type { ApiDeps } from '../http/deps';
import type { Principal } from '../http/route';
import { signAccessToken } from '../http/tokens';
import { userDto } from '../users/user-dto';

export const REFRESH_TOKENS_COLLECTION = 'refresh-tokens';
/** A sign-in lasts at most this long, however often its refresh token rotates. */
export const REFRESH_TOKEN_DAYS = 30;

export interface RefreshTokenRecord extends Doc {
  /** sha256 of the token */
  id: string;
  userId: string;
  email: string;
  familyId: string;
  issuedAt: number;
  /** When the family's sign-in happened (absent on older records: issuedAt). */
  familyStartedAt?: number;
  /** familyStartedAt + REFRESH_TOKEN_DAYS: rotation never extends a sign-in. */
  expiresAt: number;
  spentAt: number | null;
  revoked: boolean;
}

export function refreshTokens(deps: ApiDeps): Collection<RefreshTokenRecord> {
  return deps.documents.collection<RefreshTokenRecord>(REFRESH_TOKENS_COLLECTION);
}

async function issueRefreshToken(
  deps: ApiDeps,
  principal: Principal,
  familyId: string,
  familyStartedAt: number,
): Promise<string> {
  const token = generateToken();
  const now = deps.clock().getTime();
  await refreshTokens(deps).put(
    {
      id: sha256(token),
      userId: principal.userId,
      email: principal.email,
      familyId,
      issuedAt: now,
      familyStartedAt,
      expiresAt: familyStartedAt + REFRESH_TOKEN_DAYS * 86_400_000,
      spentAt: null,
      revoked: false,
    },
    { expectedRevision: 0 },
  );
  return token;
}

/**
 * Tokens for a sign-in: a new one (a new family starting now), or the next of a family when a
 * refresh rotates it (same family, same start).
 */
export async function startSession(
  deps: ApiDeps,
  principal: Principal,
  family: { id: string; startedAt: number } = { id: randomUUID(), startedAt: deps.clock().getTime() },
): Promise<AuthTokensDto> {
  const session: Principal = { ...principal, sessionId: family.id };
  return {
    accessToken: signAccessToken(deps, session),
    refreshToken: await issueRefreshToken(deps, session, family.id, family.startedAt),
    user: await userDto(deps, principal),
  };
}

/** Sign-ins ended as stolen or logged out: any token of theirs is refused, whenever it was issued. */
export const REVOKED_FAMILIES_COLLECTION = 'revoked-session-families';

function revokedFamilies(deps: ApiDeps): Collection<{ id: string; revokedAt: number }> {
  return deps.documents.collection(REVOKED_FAMILIES_COLLECTION);
}

export async function revokeFamily(deps: ApiDeps, familyId: string): Promise<void> {
  // The family first: a refresh racing this one may still issue its next token after the tokens
  // below were marked (two refreshes of one token, the loser revoking), and that token must die too.
  await revokedFamilies(deps).put({ id: familyId, revokedAt: deps.clock().getTime() });
  const collection = refreshTokens(deps);
  for (const record of await collection.find({ familyId }))
    await collection.put({ ...record, revoked: true });
}

export async function revokeAllSessions(deps: ApiDeps, userId: string): Promise<void> {
  const collection = refreshTokens(deps);
  for (const record of await collection.find({ userId })) await collection.delete(record.id);
}

/** After a password change: every sign-in of the user ends but the one that made the change. */
export async function revokeOtherSessions(
  deps: ApiDeps,
  userId: string,
  keptFamilyId?: string,
): Promise<void> {
  const collection = refreshTokens(deps);
  for (const record of await collection.find({ userId }))
    if (record.familyId !== keptFamilyId) await collection.delete(record.id);
}

/** Rotates a refresh token: the presented one is spent, a new one of the same family is issued. */
export async function refreshSession(deps: ApiDeps, presented: string): Promise<AuthTokensDto> {
  const collection = refreshTokens(deps);
  const found = await collection.getWithRevision(sha256(presented));
  if (!found || found.doc.revoked) throw new DomainError('A001');
  const record = found.doc;
  if (await revokedFamilies(deps).get(record.familyId)) throw new DomainError('A001');
  const now = deps.clock().getTime();
  if (record.spentAt !== null) {
    await revokeFamily(deps, record.familyId);
    deps.logger.warn(
      { userId: record.userId },
      'spent refresh token presented again: session family revoked',
    );
    throw new DomainError('A001');
  }
  if (record.expiresAt <= now) throw new DomainError('A001');
  try {
    await collection.put({ ...record, spentAt: now }, { expectedRevision: found.revision });
  } catch (error) {
    // Two refreshes with the same token at once: only one may win; treat the other as a replay.
    if (error instanceof ConflictError) {
      await revokeFamily(deps, record.familyId);
      throw new DomainError('A001');
    }
    throw error;
  }
  const credential = await credentials(deps).get(record.email);
  if (!credential || credential.userId !== record.userId || credential.status !== 'ready')
    throw new DomainError('A001');
  const principal: Principal = {
    userId: credential.userId,
    email: credential.id,
    role: credential.role,
    tokenVersion: credential.tokenVersion ?? 0,
  };
  if (principal.role === 'CLIENT') {
    const client = await clientsReadModel(deps).get(principal.userId);
    if (!client) throw new DomainError('A001');
    if (isAccessExpired(client.endDate, deps.clock())) throw new DomainError('A002');
  }
  const tokens = await startSession(deps, principal, {
    id: record.familyId,
    startedAt: record.familyStartedAt ?? record.issuedAt,
  });
  // still signed in with the invitation code: the new tokens open no more than the old ones
  return principal.role === 'CLIENT' && !credential.activated
    ? { ...tokens, passwordChangeRequired: true }
    : tokens;
}

/** Logout: the presented token's family stops working. Unknown tokens are ignored. */
export async function endSession(deps: ApiDeps, presented: string): Promise<void> {
  const record = await refreshTokens(deps).get(sha256(presented));
  if (record) await revokeFamily(deps, record.familyId);
}
