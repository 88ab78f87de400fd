import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { usePageTitleAndFocus } from '../../lib/page-title';
import { Footer } from './footer';
import { SkipLink } from './skip-link';

export function SignedOutLayout() {
  const { t } = useTranslation();
  usePageTitleAndFocus(false);
  return (
    <div className="layout layout--signed-out">
      <SkipLink />
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
