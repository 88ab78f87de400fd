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
    {
      sub: principal.userId,
      email: principal.email,
      role: principal.role,
      ver: principal.tokenVersion ?? 0,
      ...(principal.sessionId ? { sid: principal.sessionId } : {}),
      iat: nowSeconds,
    },
    secretKey(deps.config.jwtSecret),
    { algorithm: 'HS256', expiresIn: ACCESS_TOKEN_SECONDS },
  );
}

/**
 * Tokens already verified, per secret, with their expiry: every call of a signed-in user presents
 * the same token, and checking its HMAC again each time was the largest cost of a search after the
 * look-up itself. Bounded: when full it is emptied, and tokens are simply verified again.
 */
const VERIFIED_CACHE_SIZE = 10_000;
const verifiedTokens = new Map<string, Map<string, { principal: Principal; expiresAt: number }>>();

function verifiedCache(secret: string) {
  let cache = verifiedTokens.get(secret);
  if (!cache) {
    cache = new Map();
    verifiedTokens.set(secret, cache);
  }
  return cache;
}

/** The principal of a valid, unexpired token; null for anything else. */
export function verifyAccessToken(deps: ApiDeps, token: string): Principal | null {
  const nowSeconds = Math.floor(deps.clock().getTime() / 1000);
  const cache = verifiedCache(deps.config.jwtSecret);
  const known = cache.get(token);
  if (known) return nowSeconds < known.expiresAt ? known.principal : null;
  try {
    const payload = jwt.verify(token, secretKey(deps.config.jwtSecret), {
      algorithms: ['HS256'],
      clockTimestamp: nowSeconds,
    });
    if (typeof payload !== 'object' || payload === null) return null;
    const { sub, email, role, exp, ver, sid } = payload as Record<string, unknown>;
    if (typeof sub !== 'string' || typeof email !== 'string') return null;
    if (role !== 'ADMIN' && role !== 'CLIENT') return null;
    const principal: Principal = {
      userId: sub,
      email,
      role,
      tokenVersion: typeof ver === 'number' ? ver : 0,
      ...(typeof sid === 'string' ? { sessionId: sid } : {}),
    };
    if (typeof exp === 'number') {
      if (cache.size >= VERIFIED_CACHE_SIZE) cache.clear();
      cache.set(token, { principal, expiresAt: exp });
    }
    return principal;
  } catch {
    return null;
  }
}
