/**
 * Who is calling, and may they call this route: 401 A001 without a valid token or account,
 * 403 P001 for the wrong role, 403 A004 for a CLIENT still signed in with its invitation code (it
 * must choose a password first), 403 A002 for a CLIENT whose access ended (SPEC §6).
 */
import type { Request } from 'express';
import { DomainError, isAccessExpired } from '@rna/domain';
import { credentials } from '../accounts/credentials';
import { clientsReadModel } from '../accounts/read-models';
import type { ApiDeps } from './deps';
import type { AnyRoute, Principal } from './route';
import { verifyAccessToken } from './tokens';

function bearerToken(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

export async function authenticate(route: AnyRoute, req: Request, deps: ApiDeps): Promise<Principal | null> {
  if (route.access === 'anonymous') return null;
  const token = bearerToken(req);
  const principal = token ? verifyAccessToken(deps, token) : null;
  if (!principal) throw new DomainError('A001');
  // The account must still exist (a removed client's token dies with it).
  const credential = await credentials(deps).get(principal.email);
  if (!credential || credential.userId !== principal.userId || credential.status !== 'ready')
    throw new DomainError('A001');
  // Signed before the last password change: that session has ended.
  if ((principal.tokenVersion ?? 0) !== (credential.tokenVersion ?? 0)) throw new DomainError('A001');
  if (route.access !== 'signed-in' && route.access !== principal.role) throw new DomainError('P001');
  // the password is still the invitation code: nothing opens but the choice of a new one
  if (principal.role === 'CLIENT' && !credential.activated && !route.allowBeforeFirstPassword)
    throw new DomainError('A004');
  if (principal.role === 'CLIENT' && !route.allowExpiredClient) {
    const client = await clientsReadModel(deps).get(principal.userId);
    if (!client) throw new DomainError('A001');
    if (isAccessExpired(client.endDate, deps.clock())) throw new DomainError('A002');
  }
  return principal;
}
