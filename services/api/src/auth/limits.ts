/** The sign-in and reset-mail throttles of one API instance. */
import { DEFAULT_AUTH_LIMITS, type ApiDeps } from '../http/deps';
import { SlidingWindowLimiter } from './sliding-window';

export interface AuthThrottles {
  loginPerIp: SlidingWindowLimiter;
  loginFailuresPerAccount: SlidingWindowLimiter;
  resetMailsPerAccount: SlidingWindowLimiter;
}

const throttles = new WeakMap<ApiDeps, AuthThrottles>();

export function authThrottles(deps: ApiDeps): AuthThrottles {
  let found = throttles.get(deps);
  if (!found) {
    const limits = { ...DEFAULT_AUTH_LIMITS, ...deps.limits };
    const now = () => deps.clock().getTime();
    found = {
      loginPerIp: new SlidingWindowLimiter(limits.loginPerIp, limits.windowMs, now),
      loginFailuresPerAccount: new SlidingWindowLimiter(limits.loginFailuresPerAccount, limits.windowMs, now),
      resetMailsPerAccount: new SlidingWindowLimiter(limits.resetMailsPerAccount, limits.windowMs, now),
    };
    throttles.set(deps, found);
  }
  return found;
}
