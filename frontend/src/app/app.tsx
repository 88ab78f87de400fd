import { useEffect, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { initI18n } from '../i18n';
import { restoreSession, useTabSync } from '../lib/session/session-actions';
import { AppRoutes } from './router';
import { createStore, type AppStore } from './store';

function SessionGate() {
  return <AppRoutes />;
}

function SessionEffects({ store }: { store: AppStore }) {
  useTabSync(store.dispatch);
  useEffect(() => {
    void restoreSession(store.dispatch);
  }, [store]);
  return null;
}

export function App() {
  const [store] = useState(() => createStore());
  const i18n = initI18n();
  return (
    <I18nextProvider i18n={i18n}>
      <Provider store={store}>
        <SessionEffects store={store} />
        <BrowserRouter>
          <SessionGate />
        </BrowserRouter>
      </Provider>
    </I18nextProvider>
  );
}
