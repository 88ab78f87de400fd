/** Access tokens: short-lived HS256 JWTs naming the user and role. */
import jwt from 'jsonwebtoken';
import type { ApiDeps } from './deps';
import type { Principal } from './route';

export const ACCESS_TOKEN_SECONDS = 15 * 60;

export function signAccessToken(deps: ApiDeps, principal: Principal): string {
  const nowSeconds = Math.floor(deps.clock().getTime() / 1000);
  return jwt.sign(
    { sub: principal.userId, email: principal.email, role: principal.role, iat: nowSeconds },
    deps.config.jwtSecret,
    { algorithm: 'HS256', expiresIn: ACCESS_TOKEN_SECONDS },
  );
}

/** The principal of a valid, unexpired token; null for anything else. */
export function verifyAccessToken(deps: ApiDeps, token: string): Principal | null {
  try {
    const payload = jwt.verify(token, deps.config.jwtSecret, {
      algorithms: ['HS256'],
      clockTimestamp: Math.floor(deps.clock().getTime() / 1000),
    });
    if (typeof payload !== 'object' || payload === null) return null;
    const { sub, email, role } = payload as Record<string, unknown>;
    if (typeof sub !== 'string' || typeof email !== 'string') return null;
    if (role !== 'ADMIN' && role !== 'CLIENT') return null;
    return { userId: sub, email, role };
  } catch {
    return null;
  }
}
