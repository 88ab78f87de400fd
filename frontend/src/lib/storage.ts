/** Browser storage keys of SPEC §3. Tokens live in localStorage so that other tabs can adopt a login. */
export const StorageKey = {
  accessToken: 'ACCESS_TOKEN',
  refreshToken: 'REFRESH_TOKEN',
  remember: 'REMEMBER',
  hasLoggedInThisSession: 'HAS_LOGGED_IN_THIS_SESSION',
} as const;

function safe<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    // storage can be disabled (private mode, sandboxed iframes): behave as empty
    return fallback;
  }
}

export const storage = {
  getAccessToken: (): string | null => safe(() => localStorage.getItem(StorageKey.accessToken), null),
  getRefreshToken: (): string | null => safe(() => localStorage.getItem(StorageKey.refreshToken), null),
  setTokens(accessToken: string, refreshToken: string): void {
    safe(() => {
      localStorage.setItem(StorageKey.accessToken, accessToken);
      localStorage.setItem(StorageKey.refreshToken, refreshToken);
    }, undefined);
  },
  clearTokens(): void {
    safe(() => {
      localStorage.removeItem(StorageKey.accessToken);
      localStorage.removeItem(StorageKey.refreshToken);
    }, undefined);
  },
  getRemember: (): boolean => safe(() => localStorage.getItem(StorageKey.remember) === 'true', false),
  setRemember: (remember: boolean): void =>
    safe(() => localStorage.setItem(StorageKey.remember, String(remember)), undefined),
  hasLoggedInThisSession: (): boolean =>
    safe(() => sessionStorage.getItem(StorageKey.hasLoggedInThisSession) === 'true', false),
  markLoggedInThisSession: (): void =>
    safe(() => sessionStorage.setItem(StorageKey.hasLoggedInThisSession, 'true'), undefined),
  /** Logout clears both storages (SPEC §4). */
  clearAll(): void {
    safe(() => {
      localStorage.clear();
      sessionStorage.clear();
    }, undefined);
  },
};
