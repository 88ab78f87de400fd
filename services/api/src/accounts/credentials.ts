/**
 * Secrets live here, never in events: password hashes, pending invitation codes. One document per
 * account keyed by the normalised email, so `put(…, {expectedRevision: 0})` also enforces that an
 * email is used once.
 */
import type { Collection, Doc } from '@rna/infra';
import type { Role } from '@rna/domain';
import type { ApiDeps } from '../http/deps';

export const CREDENTIALS_COLLECTION = 'credentials';

export interface Credential extends Doc {
  /** The normalised email. */
  id: string;
  userId: string;
  role: Role;
  passwordHash: string;
  /** The initial password of an invited client, shown to admins until the first sign-in. */
  invitationCode: string | null;
  /** false until the first successful sign-in (clients). */
  activated: boolean;
  /** 'pending' while an invitation is being sent: such an account cannot sign in yet. */
  status: 'pending' | 'ready';
  /** When a pending invitation reserved the email (ms): past a request's time, a stale one is taken over. */
  reservedAt?: number;
  /**
   * Raised by a password change: access tokens carry the version they were signed with, and one
   * older than this is refused, so every session opened before the change ends (absent = 0).
   */
  tokenVersion?: number;
}

export function credentials(deps: ApiDeps): Collection<Credential> {
  return deps.documents.collection<Credential>(CREDENTIALS_COLLECTION);
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
