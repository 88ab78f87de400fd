import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { Footer } from './footer';

export function SignedOutLayout() {
  const { t } = useTranslation();
  return (
    <div className="layout layout--signed-out">
      <main className="auth-page" id="main">
        <div className="auth-card card">
          <div className="auth-card__brand">
            <span className="nav-bar__logo-default" aria-hidden="true">
              RNA
            </span>
            <span>{t('app.name')}</span>
          </div>
          <Suspense fallback={null}>
            <Outlet />
          </Suspense>
        </div>
      </main>
      <Footer />
    </div>
  );
}
