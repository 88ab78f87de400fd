import { combineReducers, configureStore, createListenerMiddleware, isAnyOf } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from '../lib/api';
import type { SharedState } from '../lib/hooks';
import { sessionExpired, signedOut } from '../lib/session-events';
import { sessionApi } from '../lib/session/session-api';
import { userSlice } from '../lib/session/user-slice';
import { statusSlice } from '../lib/session/status-slice';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  auth: userSlice.reducer,
  status: statusSlice.reducer,
});

/**
 * Every end of a session (logout here or in another tab, refresh refused, account removed or expired)
 * forgets every cached answer: the next person at this tab must not see the last one's results,
 * saved searches or counter. The status area and the user are reset by their own reducers.
 */
function cacheRules() {
  const listener = createListenerMiddleware<SharedState>();
  listener.startListening({
    matcher: isAnyOf(signedOut, sessionExpired),
    effect: (_action, listenerApi) => {
      listenerApi.dispatch(api.util.resetApiState());
    },
  });
  // A new last update (a sync completed, the data source switched) makes every shown result stale.
  const selectLastUpdate = sessionApi.endpoints.getLastRnaSync.select();
  listener.startListening({
    matcher: sessionApi.endpoints.getLastRnaSync.matchFulfilled,
    effect: (action, listenerApi) => {
      const before = selectLastUpdate(listenerApi.getOriginalState()).data;
      if (before !== undefined && before !== action.payload) {
        listenerApi.dispatch(api.util.invalidateTags(['SearchResult']));
      }
    },
  });
  return listener.middleware;
}

export function createStore(preloaded?: Partial<SharedState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState: preloaded,
    middleware: (getDefault) => getDefault().prepend(cacheRules()).concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof createStore>;
