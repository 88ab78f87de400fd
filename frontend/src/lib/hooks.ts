import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useSelector } from 'react-redux';
import type { api } from './api';
import type { AuthState } from './session/user-slice';
import type { StatusState } from './session/status-slice';

/** The state every feature may read; the app's store is built with exactly these reducers. */
export interface SharedState {
  api: ReturnType<typeof api.reducer>;
  auth: AuthState;
  status: StatusState;
}

export type AppDispatch = ThunkDispatch<SharedState, unknown, UnknownAction>;

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<SharedState>();
