/** /auth/*: sign-in, token refresh, logout, forgotten password. */
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../accounts/passwords';
import { normalizeEmail } from '../accounts/credentials';
import { defineRoute, reply, type AnyRoute } from '../http/route';
import { authTokensSchema } from '../http/schemas';
import { addressKey, reserveAttempt } from './attempts';
import { authLimits } from './limits';
import { login, TooManyAttemptsError } from './login';
import { requestPasswordReset, resetPassword } from './password-reset';
import { endSession, refreshSession } from './sessions';

const credentialsBody = z
  .object({ email: z.string().trim().min(1).max(320), password: z.string().min(1).max(1024) })
  .strict();
const refreshBody = z.object({ refreshToken: z.string().min(1).max(512) }).strict();
const tokens = { 200: { description: 'Tokens and the signed-in user', schema: authTokensSchema } };

export const authRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/auth/login',
    access: 'anonymous',
    tag: 'auth',
    summary: 'Sign in with email and password (A001 bad credentials, A002 expired subscription)',
    body: credentialsBody,
    responses: tokens,
    async handler({ body, deps, req, res }) {
      try {
        return reply.json(await login(deps, body.email, body.password, req.ip ?? 'unknown'));
      } catch (error) {
        if (error instanceof TooManyAttemptsError)
          res.setHeader('Retry-After', String(error.retryAfterSeconds));
        throw error;
      }
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/refresh',
    access: 'anonymous',
    tag: 'auth',
    summary: 'Exchange a refresh token for new tokens (rotation; a reused token revokes its family)',
    body: refreshBody,
    responses: tokens,
    async handler({ body, deps }) {
      return reply.json(await refreshSession(deps, body.refreshToken));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/logout',
    access: 'anonymous',
    tag: 'auth',
    summary: 'Revoke a refresh token (and its family)',
    body: refreshBody,
    responses: { 204: { description: 'Signed out' } },
    async handler({ body, deps }) {
      await endSession(deps, body.refreshToken);
      return reply.noContent();
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/forgot',
    access: 'anonymous',
    tag: 'auth',
    summary: 'Mail a password reset link (same answer whether or not the email exists)',
    body: z.object({ email: z.string().trim().max(320).pipe(z.email()) }).strict(),
    responses: { 204: { description: 'Accepted' } },
    async handler({ body, deps, req, res }) {
      // Per address, answered (429); per account, silently (password-reset): no account is revealed.
      const fromAddress = await reserveAttempt(
        deps,
        authLimits(deps).resetRequestsPerAddress,
        addressKey(req.ip ?? 'unknown'),
      );
      if (!fromAddress.ok) {
        res.setHeader('Retry-After', String(fromAddress.retryAfterSeconds));
        throw new TooManyAttemptsError(fromAddress.retryAfterSeconds);
      }
      requestPasswordReset(deps, normalizeEmail(body.email));
      return reply.noContent();
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/reset-password',
    access: 'anonymous',
    tag: 'auth',
    summary: 'Set a new password with the code of a reset link (U003 invalid or expired code)',
    body: z
      .object({
        code: z.string().min(1).max(512),
        newPassword: z.string().min(MIN_PASSWORD_LENGTH).max(1024),
      })
      .strict(),
    responses: { 204: { description: 'Password changed' } },
    async handler({ body, deps }) {
      await resetPassword(deps, body.code, body.newPassword);
      return reply.noContent();
    },
  }),
];
