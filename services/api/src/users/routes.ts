/** /users/me and /users/change-password. */
import { z } from 'zod';
import { DomainError } from '@rna/domain';
import { credentials } from '../accounts/credentials';
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from '../accounts/passwords';
import { recordFirstPassword } from '../accounts/first-password';
import { appendUserEvents, readYourWrites } from '../accounts/streams';
import { revokeOtherSessions } from '../auth/sessions';
import { defineRoute, reply, signedIn, type AnyRoute } from '../http/route';
import { userSchema } from '../http/schemas';
import { userDto } from './user-dto';

export const usersRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/users/me',
    access: 'signed-in',
    // An expired client may still see who it is and that its access ended.
    allowExpiredClient: true,
    tag: 'users',
    summary: 'The signed-in user',
    responses: { 200: { description: 'The user', schema: userSchema } },
    async handler(ctx) {
      return reply.json(await userDto(ctx.deps, signedIn(ctx)));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/users/change-password',
    access: 'signed-in',
    // the one route a client signed in with its invitation code may call: to choose its password
    allowBeforeFirstPassword: true,
    tag: 'users',
    summary:
      'Change the own password (A001 when the current password is wrong); at a first sign-in, ' +
      'choose it in place of the invitation code (A004 when the same as the code)',
    body: z
      .object({
        password: z.string().min(1).max(1024),
        newPassword: z.string().min(MIN_PASSWORD_LENGTH).max(1024),
      })
      .strict(),
    responses: { 204: { description: 'Password changed' } },
    async handler(ctx) {
      const { deps, body } = ctx;
      const principal = signedIn(ctx);
      const found = await credentials(deps).getWithRevision(principal.email);
      if (!found || !(await verifyPassword(found.doc.passwordHash, body.password)))
        throw new DomainError('A001');
      // a client whose password is still the invitation code is choosing its own: the code stops
      // working, and the profile becomes active (recorded first, so a retry completes what failed)
      const first = found.doc.role === 'CLIENT' && !found.doc.activated;
      if (first) {
        if (body.newPassword === body.password) throw new DomainError('A004');
        await recordFirstPassword(deps, principal.userId, { signedIn: true });
      }
      // Every other session ends: tokens signed before carry the old version, and their refresh
      // families are removed; this session's family stays, so its next refresh carries on.
      await credentials(deps).put(
        {
          ...found.doc,
          passwordHash: await hashPassword(body.newPassword),
          tokenVersion: (found.doc.tokenVersion ?? 0) + 1,
          ...(first ? { activated: true, invitationCode: null } : {}),
        },
        { expectedRevision: found.revision },
      );
      await revokeOtherSessions(deps, principal.userId, principal.sessionId);
      await appendUserEvents(deps, principal.userId, [
        {
          type: 'PasswordChanged',
          data: {
            userId: principal.userId,
            at: deps.clock().toISOString(),
            reason: first ? 'activation' : 'change',
          },
        },
      ]);
      if (first) await readYourWrites(deps);
      return reply.noContent();
    },
  }),
];
