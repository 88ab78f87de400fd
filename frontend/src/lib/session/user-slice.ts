import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ErrorCode, UserDto } from '@rna/domain';
import { sessionExpired, signedIn, signedOut } from '../session-events';
import { sessionApi } from './session-api';

/** undefined until the session state is known, null when signed out (SPEC §3). */
export interface AuthState {
  user: UserDto | null | undefined;
  /** why the session ended without the user signing out (A002), shown on the login screen */
  signedOutBecause?: ErrorCode;
  /**
   * The visit's landing is over: home sends a visit to its fixed code or saved search only as the
   * first screen after sign-in or after opening the app at / (SPEC §2 "on load"); once any screen
   * was shown, the logo and the «Ricerca» item open home itself.
   */
  homeRedirectUsed?: boolean;
}

const initialState: AuthState = { user: undefined };

export const userSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    userResolved(state, action: PayloadAction<UserDto | null>) {
      state.user = action.payload;
    },
    homeRedirectUsed(state) {
      state.homeRedirectUsed = true;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(signedIn, (state, action) => {
        state.user = action.payload;
        delete state.signedOutBecause;
        delete state.homeRedirectUsed;
      })
      .addCase(signedOut, (state) => {
        state.user = null;
        delete state.signedOutBecause;
        delete state.homeRedirectUsed;
      })
      .addCase(sessionExpired, (state, action) => {
        state.user = null;
        delete state.homeRedirectUsed;
        if (action.payload) state.signedOutBecause = action.payload;
        else delete state.signedOutBecause;
      })
      .addMatcher(sessionApi.endpoints.getMe.matchFulfilled, (state, action) => {
        if (state.user) state.user = action.payload;
      });
  },
});

export const { userResolved, homeRedirectUsed } = userSlice.actions;

export const selectUser = (state: { auth: AuthState }): UserDto | null | undefined => state.auth.user;
export const selectSignedOutBecause = (state: { auth: AuthState }): ErrorCode | undefined =>
  state.auth.signedOutBecause;
export const selectHomeRedirectUsed = (state: { auth: AuthState }): boolean =>
  state.auth.homeRedirectUsed === true;
