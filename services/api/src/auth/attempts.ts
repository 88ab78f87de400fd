/**
 * Attempt counters for sign-in, password-reset requests and the like, kept in the documents store
 * that every API process shares, so that two processes do not double an allowance. Each counter is
 * one document of recent attempt times, changed only by compare-and-set: an attempt is counted
 * (reserved) before the work it guards, so N parallel requests count N, and a counted attempt that
 * turns out to be legitimate (a successful sign-in) is released again.
 */
import { isIPv6 } from 'node:net';
import { ConflictError, type Collection, type Doc } from '@rna/infra';
import type { ApiDeps } from '../http/deps';

export const AUTH_ATTEMPTS_COLLECTION = 'auth-attempts';

interface AttemptsDoc extends Doc {
  /** `<counter>:<key>` */
  id: string;
  /** Times (ms) of the attempts still inside the window, oldest first. */
  at: number[];
}

export interface AttemptLimit {
  /** A name for the counter, part of the document id (e.g. 'login-account'). */
  counter: string;
  limit: number;
  windowMs: number;
}

/** The outcome of a reservation: either counted (release() undoes it) or refused for a while. */
export type Reservation =
  | { ok: true; /** attempts counted before this one */ prior: number; release(): Promise<void> }
  | { ok: false; retryAfterSeconds: number };

function attempts(deps: Pick<ApiDeps, 'documents'>): Collection<AttemptsDoc> {
  return deps.documents.collection<AttemptsDoc>(AUTH_ATTEMPTS_COLLECTION);
}

async function changeAttempts(
  deps: Pick<ApiDeps, 'documents'>,
  id: string,
  change: (recent: number[]) => number[] | null,
  windowStart: number,
): Promise<void> {
  for (;;) {
    const found = await attempts(deps).getWithRevision(id);
    const recent = (found?.doc.at ?? []).filter((t) => t > windowStart);
    const next = change(recent);
    if (next === null) return;
    try {
      await attempts(deps).put({ id, at: next }, { expectedRevision: found?.revision ?? 0 });
      return;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      // another process counted at the same moment: read again and decide again
    }
  }
}

/** How many attempts the counter holds for the key inside the window (nothing is counted). */
export async function recentAttempts(
  deps: Pick<ApiDeps, 'documents' | 'clock'>,
  limit: AttemptLimit,
  key: string,
): Promise<{ count: number; retryAfterSeconds: number }> {
  const now = deps.clock().getTime();
  const doc = await attempts(deps).get(`${limit.counter}:${key}`);
  const recent = (doc?.at ?? []).filter((t) => t > now - limit.windowMs);
  const oldest = recent[0];
  return {
    count: recent.length,
    retryAfterSeconds:
      oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + limit.windowMs - now) / 1000)),
  };
}

/** Counts one attempt for the key unless the counter is full; atomic across processes. */
export async function reserveAttempt(
  deps: Pick<ApiDeps, 'documents' | 'clock'>,
  limit: AttemptLimit,
  key: string,
): Promise<Reservation> {
  const id = `${limit.counter}:${key}`;
  const now = deps.clock().getTime();
  const windowStart = now - limit.windowMs;
  let refusedFor = 0;
  let prior = 0;
  await changeAttempts(
    deps,
    id,
    (recent) => {
      if (recent.length >= limit.limit) {
        refusedFor = Math.max(1, Math.ceil((recent[0]! + limit.windowMs - now) / 1000));
        return null;
      }
      refusedFor = 0;
      prior = recent.length;
      return [...recent, now];
    },
    windowStart,
  );
  if (refusedFor > 0) return { ok: false, retryAfterSeconds: refusedFor };
  return {
    ok: true,
    prior,
    release: () =>
      changeAttempts(
        deps,
        id,
        (recent) => {
          const index = recent.lastIndexOf(now);
          return index < 0 ? null : [...recent.slice(0, index), ...recent.slice(index + 1)];
        },
        windowStart,
      ),
  };
}

/**
 * The key of a client address: IPv4 as it is (an IPv4-mapped IPv6 address as its IPv4), IPv6 by its
 * /64 network, which one subscriber usually holds whole (counting single addresses would let it
 * rotate through 2^64 of them).
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = ip.includes('::') ? 8 - headGroups.length - tailGroups.length : 0;
  const groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
