import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from '../lib/api';
import type { SharedState } from '../lib/hooks';
import { userSlice } from '../lib/session/user-slice';
import { statusSlice } from '../lib/session/status-slice';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  auth: userSlice.reducer,
  status: statusSlice.reducer,
});

export function createStore(preloaded?: Partial<SharedState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: preloaded,
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof createStore>;
