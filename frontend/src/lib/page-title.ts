import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

const SIGNED_IN_TITLES: Record<string, string> = {
  '/': 'home.title',
  '/documents': 'documents.title',
  '/ricerca-massiva': 'bulk.title',
  '/imprese-uniche': 'groups.title',
  '/clients': 'clients.title',
  '/sync': 'sync.title',
  '/audit': 'audit.title',
};
const SIGNED_OUT_TITLES: Record<string, string> = {
  '/': 'login.title',
  '/forgot': 'forgot.title',
  '/reset-password': 'reset.title',
};

/** The i18n key of a route's title (the home one for an address that redirects there). */
export function pageTitleKey(pathname: string, signedIn: boolean): string {
  const titles = signedIn ? SIGNED_IN_TITLES : SIGNED_OUT_TITLES;
  return titles[pathname.replace(/\/+$/, '') || '/'] ?? titles['/']!;
}

const FOCUS_WAIT_MS = 2000;

/**
 * Each route names the tab ("Gestione clienti – Portale Aiuti di Stato"), and after a navigation
 * the keyboard and screen-reader focus moves to the new page's heading, as a page load would; the
 * first page of a visit keeps the browser's own focus.
 */
export function usePageTitleAndFocus(signedIn: boolean): void {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const firstPage = useRef(true);

  useEffect(() => {
    document.title = `${t(pageTitleKey(pathname, signedIn))} – ${t('app.name')}`;
  }, [pathname, signedIn, t]);

  useEffect(() => {
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    // pages load lazily: wait for the heading to be there
    const started = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const focusHeading = () => {
      const heading = document.querySelector<HTMLElement>('#main h1');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus();
      } else if (Date.now() - started < FOCUS_WAIT_MS) timer = setTimeout(focusHeading, 50);
    };
    focusHeading();
    return () => clearTimeout(timer);
  }, [pathname]);
}
