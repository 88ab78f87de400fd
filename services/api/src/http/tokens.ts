/** Access tokens: short-lived HS256 JWTs naming the user and role. */
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { ApiDeps } from './deps';
import type { Principal } from './route';

export const ACCESS_TOKEN_SECONDS = 15 * 60;

// jsonwebtoken turns a string secret into a key object on every call, which was the largest CPU
// cost of a search under load; the key is made once per secret instead.
const secretKeys = new Map<string, KeyObject>();
function secretKey(secret: string): KeyObject {
  let key = secretKeys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    secretKeys.set(secret, key);
  }
  return key;
}

export function signAccessToken(deps: ApiDeps, principal: Principal): string {
  const nowSeconds = Math.floor(deps.clock().getTime() / 1000);
  return jwt.sign(
    { sub: principal.userId, email: principal.email, role: principal.role, iat: nowSeconds },
    secretKey(deps.config.jwtSecret),
    { algorithm: 'HS256', expiresIn: ACCESS_TOKEN_SECONDS },
  );
}

/** The principal of a valid, unexpired token; null for anything else. */
export function verifyAccessToken(deps: ApiDeps, token: string): Principal | null {
  try {
    const payload = jwt.verify(token, secretKey(deps.config.jwtSecret), {
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
