import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ErrorCode } from '@rna/domain';
import { sessionExpired, signedOut } from '../session-events';

/** The status area: one message at a time; a success replaces an error and vice versa (SPEC §4). */
export interface StatusState {
  error: ErrorCode | null;
  /** an i18n key */
  success: string | null;
  /** what the success text names (the codes saved, the address mailed) */
  successValues?: Record<string, string | number>;
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
      delete state.successValues;
      state.serial += 1;
    },
    showSuccess: {
      reducer(state, action: PayloadAction<{ key: string; values?: Record<string, string | number> }>) {
        state.success = action.payload.key;
        if (action.payload.values) state.successValues = action.payload.values;
        else delete state.successValues;
        state.error = null;
        state.serial += 1;
      },
      prepare(key: string, values?: Record<string, string | number>) {
        return { payload: values ? { key, values } : { key } };
      },
    },
    clearMessages(state) {
      state.error = null;
      state.success = null;
      delete state.successValues;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState).addCase(sessionExpired, () => initialState);
  },
});

export const { showError, showSuccess, clearMessages } = statusSlice.actions;
