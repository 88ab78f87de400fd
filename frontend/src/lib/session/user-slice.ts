import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ErrorCode, UserDto } from '@rna/domain';
import { sessionExpired, signedIn, signedOut } from '../session-events';
import { sessionApi } from './session-api';

/** undefined until the session state is known, null when signed out (SPEC §3). */
export interface AuthState {
  user: UserDto | null | undefined;
  /** why the session ended without the user signing out (A002), shown on the login screen */
  signedOutBecause?: ErrorCode;
}

const initialState: AuthState = { user: undefined };

export const userSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    userResolved(state, action: PayloadAction<UserDto | null>) {
      state.user = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(signedIn, (state, action) => {
        state.user = action.payload;
        delete state.signedOutBecause;
      })
      .addCase(signedOut, (state) => {
        state.user = null;
        delete state.signedOutBecause;
      })
      .addCase(sessionExpired, (state, action) => {
        state.user = null;
        if (action.payload) state.signedOutBecause = action.payload;
        else delete state.signedOutBecause;
      })
      .addMatcher(sessionApi.endpoints.getMe.matchFulfilled, (state, action) => {
        if (state.user) state.user = action.payload;
      });
  },
});

export const { userResolved } = userSlice.actions;

export const selectUser = (state: { auth: AuthState }): UserDto | null | undefined => state.auth.user;
export const selectSignedOutBecause = (state: { auth: AuthState }): ErrorCode | undefined =>
  state.auth.signedOutBecause;
