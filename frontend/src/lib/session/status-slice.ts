import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ErrorCode } from '@rna/domain';
import { sessionExpired, signedOut } from '../session-events';

/** The status area: one message at a time; a success replaces an error and vice versa (SPEC §4). */
export interface StatusState {
  error: ErrorCode | null;
  /** an i18n key */
  success: string | null;
  /** bumps on every message so that an identical message restarts its 5 s timer */
  serial: number;
}

const initialState: StatusState = { error: null, success: null, serial: 0 };

export const statusSlice = createSlice({
  name: 'status',
  initialState,
  reducers: {
    showError(state, action: PayloadAction<ErrorCode>) {
      state.error = action.payload;
      state.success = null;
      state.serial += 1;
    },
    showSuccess(state, action: PayloadAction<string>) {
      state.success = action.payload;
      state.error = null;
      state.serial += 1;
    },
    clearMessages(state) {
      state.error = null;
      state.success = null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState).addCase(sessionExpired, () => initialState);
  },
});

export const { showError, showSuccess, clearMessages } = statusSlice.actions;
