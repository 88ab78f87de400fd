/**
 * Forgotten passwords: a single-use code, valid for an hour, mailed as a link. Only its hash is
 * stored. The request answers the same whether or not the account exists, so the mail is sent
 * after the answer and its failures are only logged.
 */
import { DomainError } from '@rna/domain';
import type { Collection, Doc } from '@rna/infra';
import { credentials } from '../accounts/credentials';
import { generateToken, hashPassword, sha256 } from '../accounts/passwords';
import { recordFirstPassword } from '../accounts/first-password';
import { appendUserEvents } from '../accounts/streams';
import type { ApiDeps } from '../http/deps';
import { reserveAttempt } from './attempts';
import { authLimits } from './limits';
import { revokeAllSessions } from './sessions';

export const PASSWORD_RESETS_COLLECTION = 'password-resets';
export const RESET_CODE_MINUTES = 60;

export interface PasswordResetRecord extends Doc {
  /** sha256 of the code */
  id: string;
  userId: string;
  email: string;
  expiresAt: number;
}

function passwordResets(deps: ApiDeps): Collection<PasswordResetRecord> {
  return deps.documents.collection<PasswordResetRecord>(PASSWORD_RESETS_COLLECTION);
}

export function resetLink(publicUrl: string, code: string): string {
  return `${publicUrl.replace(/\/$/, '')}/reset-password?code=${encodeURIComponent(code)}`;
}

export function resetMailText(link: string): string {
  return [
    'Gentile utente,',
    '',
    'abbiamo ricevuto una richiesta di reimpostazione della password del Portale Aiuti di Stato.',
    `Per scegliere una nuova password apra questo collegamento entro ${RESET_CODE_MINUTES} minuti:`,
    '',
    link,
    '',
    'Il collegamento si può usare una sola volta. Se non ha chiesto lei la reimpostazione, ignori questo messaggio.',
    '',
  ].join('\n');
}

async function sendResetMail(deps: ApiDeps, email: string): Promise<void> {
  const credential = await credentials(deps).get(email);
  if (!credential || credential.status !== 'ready') return;
  if (!(await reserveAttempt(deps, authLimits(deps).resetMailsPerAccount, email)).ok) return;
  const code = generateToken();
  await passwordResets(deps).put({
    id: sha256(code),
    userId: credential.userId,
    email,
    expiresAt: deps.clock().getTime() + RESET_CODE_MINUTES * 60_000,
  });
  await deps.mailer.send({
    to: email,
    subject: 'Reimpostazione della password',
    text: resetMailText(resetLink(deps.config.publicUrl, code)),
  });
}

/** Starts the reset in the background; the caller answers 204 at once. */
export function requestPasswordReset(deps: ApiDeps, email: string): void {
  sendResetMail(deps, email).catch((error: unknown) => {
    deps.logger.error({ err: error }, 'password reset mail could not be sent');
  });
}

export async function resetPassword(deps: ApiDeps, code: string, newPassword: string): Promise<void> {
  const resets = passwordResets(deps);
  const record = await resets.get(sha256(code));
  // Deleting first makes the code single-use even under concurrent requests.
  if (!record || !(await resets.delete(record.id))) throw new DomainError('U003');
  if (record.expiresAt <= deps.clock().getTime()) throw new DomainError('U003');
  const found = await credentials(deps).getWithRevision(record.email);
  if (!found || found.doc.userId !== record.userId) throw new DomainError('U003');
  // a client that never chose its password chooses it here: the invitation code stops working too
  const first = found.doc.role === 'CLIENT' && !found.doc.activated;
  if (first) await recordFirstPassword(deps, record.userId, { signedIn: false });
  await credentials(deps).put(
    {
      ...found.doc,
      passwordHash: await hashPassword(newPassword),
      invitationCode: null,
      activated: true,
      // access tokens signed before the reset stop working too, not only the refresh tokens
      tokenVersion: (found.doc.tokenVersion ?? 0) + 1,
    },
    { expectedRevision: found.revision },
  );
  for (const other of await resets.find({ userId: record.userId })) await resets.delete(other.id);
  await revokeAllSessions(deps, record.userId);
  await appendUserEvents(deps, record.userId, [
    {
      type: 'PasswordChanged',
      data: { userId: record.userId, at: deps.clock().toISOString(), reason: 'reset' },
    },
  ]);
}
