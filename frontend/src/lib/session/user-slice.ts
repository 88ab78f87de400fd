import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { UserDto } from '@rna/domain';
import { sessionExpired, signedIn, signedOut } from '../session-events';
import { sessionApi } from './session-api';

/** undefined until the session state is known, null when signed out (SPEC §3). */
export interface AuthState {
  user: UserDto | null | undefined;
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
      })
      .addCase(signedOut, (state) => {
        state.user = null;
      })
      .addCase(sessionExpired, (state) => {
        state.user = null;
      })
      .addMatcher(sessionApi.endpoints.getMe.matchFulfilled, (state, action) => {
        if (state.user) state.user = action.payload;
      });
  },
});

export const { userResolved } = userSlice.actions;

export const selectUser = (state: { auth: AuthState }): UserDto | null | undefined => state.auth.user;
