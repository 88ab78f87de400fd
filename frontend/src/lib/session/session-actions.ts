import { useEffect } from 'react';
import type { AuthTokensDto } from '@rna/domain';
import { api } from '../api';
import { broadcast, onTabMessage, TAB_ADOPTION_DELAY_MS } from '../broadcast';
import type { AppDispatch } from '../hooks';
import { getRuntimeConfig } from '../runtime-config';
import { sessionExpired, signedIn, signedOut } from '../session-events';
import { reasonToTell, requestRefresh, type RefreshOutcome } from './refresh';
import { userResolved } from './user-slice';
import { storage } from '../storage';

/**
 * SPEC §4 session start: restored only when "remember me" was chosen or this browser session already signed in,
 * and only with both tokens; they are refreshed first. Anything else ends signed out, with the refusal shown
 * when it is one the user must know (A002).
 */
export async function restoreSession(dispatch: AppDispatch): Promise<void> {
  const allowed = storage.getRemember() || storage.hasLoggedInThisSession();
  const refreshToken = storage.getRefreshToken();
  if (!allowed || !refreshToken || !storage.getAccessToken()) {
    storage.clearTokens();
    dispatch(userResolved(null));
    return;
  }
  const outcome = await requestRefresh(refreshToken).catch(
    (): RefreshOutcome => ({ ok: false, code: null }), // offline: signed out, nothing to tell
  );
  // a session the invitation code opened is never stored; if one were, it would open nothing: sign in
  if (outcome.ok && outcome.tokens.passwordChangeRequired) {
    storage.clearTokens();
    dispatch(userResolved(null));
    return;
  }
  if (outcome.ok) {
    storage.setTokens(outcome.tokens.accessToken, outcome.tokens.refreshToken);
    storage.markLoggedInThisSession();
    dispatch(signedIn(outcome.tokens.user));
    return;
  }
  storage.clearTokens();
  // an expired CLIENT learns why on the login screen (A002) instead of being silently signed out
  const reason = reasonToTell(outcome.code);
  dispatch(reason ? sessionExpired(reason) : userResolved(null));
}

/** Login success (SPEC §4): keep tokens and the remember choice, mark the session, tell the other tabs. */
export function completeLogin(dispatch: AppDispatch, tokens: AuthTokensDto, remember: boolean): void {
  storage.setTokens(tokens.accessToken, tokens.refreshToken);
  storage.setRemember(remember);
  storage.markLoggedInThisSession();
  dispatch(signedIn(tokens.user));
  broadcast({ type: 'login', user: tokens.user });
}

/** Logout: revoke the refresh token (best effort), clear storage, tell the other tabs. */
export function logout(dispatch: AppDispatch): void {
  const refreshToken = storage.getRefreshToken();
  if (refreshToken) {
    void fetch(`${getRuntimeConfig().apiBaseUrl}/auth/logout`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${storage.getAccessToken() ?? ''}`,
      },
      body: JSON.stringify({ refreshToken }),
    }).catch(() => undefined);
  }
  endSession(dispatch);
  broadcast({ type: 'logout' });
}

function endSession(dispatch: AppDispatch): void {
  storage.clearAll();
  dispatch(signedOut()); // the store forgets every cached answer on this (app/store.ts)
}

/** Reacts to the other tabs' login, logout and remaining-searches messages. */
export function useTabSync(dispatch: AppDispatch): void {
  useEffect(() => {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const stop = onTabMessage((message) => {
      if (message.type === 'login') {
        timers.push(
          setTimeout(() => {
            storage.markLoggedInThisSession();
            dispatch(signedIn(message.user));
          }, TAB_ADOPTION_DELAY_MS),
        );
      } else if (message.type === 'logout') {
        endSession(dispatch);
      } else {
        dispatch(api.util.invalidateTags(['MyClient']));
      }
    });
    return () => {
      stop();
      timers.forEach(clearTimeout);
    };
  }, [dispatch]);
}

/** After a CLIENT search or download: reload the counter here and in the other tabs. */
export function announceSearchUsed(dispatch: AppDispatch): void {
  dispatch(api.util.invalidateTags(['MyClient']));
  broadcast({ type: 'remaining-searches' });
}
