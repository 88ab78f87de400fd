/** The first administrator: created at start when there is none; a generated password is returned once. */
import { randomUUID } from 'node:crypto';
import { streams } from '@rna/domain';
import { credentials, normalizeEmail } from '../accounts/credentials';
import { generatePassword, hashPassword, MIN_PASSWORD_LENGTH } from '../accounts/passwords';
import type { ApiDeps } from '../http/deps';

export type FirstAdminResult =
  { created: false } | { created: true; email: string; userId: string; generatedPassword: string | null };

export async function ensureFirstAdmin(
  deps: ApiDeps,
  options: { email: string; password?: string | null },
): Promise<FirstAdminResult> {
  const accounts = credentials(deps);
  if ((await accounts.count({ role: 'ADMIN' })) > 0) return { created: false };
  const email = normalizeEmail(options.email);
  if (options.password && options.password.length < MIN_PASSWORD_LENGTH)
    throw new Error(`ADMIN_PASSWORD must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  const password = options.password || generatePassword(16);
  const userId = randomUUID();
  // expectedRevision 0: two instances starting together cannot both create it (the email is the key).
  await accounts.put(
    {
      id: email,
      userId,
      role: 'ADMIN',
      passwordHash: await hashPassword(password),
      invitationCode: null,
      activated: true,
      status: 'ready',
    },
    { expectedRevision: 0 },
  );
  await deps.eventStore.appendToStream(
    streams.user(userId),
    [{ type: 'UserRegistered', data: { userId, email, role: 'ADMIN', at: deps.clock().toISOString() } }],
    { expectedVersion: 'no_stream' },
  );
  return { created: true, email, userId, generatedPassword: options.password ? null : password };
}
