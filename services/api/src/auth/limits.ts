/** The attempt limits of sign-in and password-reset requests (counted in auth/attempts). */
import { DEFAULT_AUTH_LIMITS, type ApiDeps, type AuthLimits } from '../http/deps';
import type { AttemptLimit } from './attempts';

export interface AuthAttemptLimits {
  loginPerAccountAddress: AttemptLimit;
  loginPerAccount: AttemptLimit;
  loginPerAddress: AttemptLimit;
  resetMailsPerAccount: AttemptLimit;
  resetRequestsPerAddress: AttemptLimit;
}

export function authLimits(deps: Pick<ApiDeps, 'limits'>): AuthAttemptLimits {
  const limits: AuthLimits = { ...DEFAULT_AUTH_LIMITS, ...deps.limits };
  const windowMs = limits.windowMs;
  return {
    loginPerAccountAddress: {
      counter: 'login-account-address',
      limit: limits.loginFailuresPerAccountAddress,
      windowMs,
    },
    loginPerAccount: { counter: 'login-account', limit: limits.loginFailuresPerAccount, windowMs },
    loginPerAddress: { counter: 'login-address', limit: limits.loginFailuresPerAddress, windowMs },
    resetMailsPerAccount: { counter: 'reset-account', limit: limits.resetMailsPerAccount, windowMs },
    resetRequestsPerAddress: { counter: 'reset-address', limit: limits.resetRequestsPerAddress, windowMs },
  };
}
