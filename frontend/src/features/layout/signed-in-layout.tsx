import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import type { UserDto } from '@rna/domain';
import { Spinner } from '../../components/spinner';
import { useAppDispatch } from '../../lib/hooks';
import { usePageTitleAndFocus } from '../../lib/page-title';
import {
  useGetMeQuery,
  useGetSavedSearchesQuery,
  useGetVariationAlertsQuery,
} from '../../lib/session/session-api';
import { homeRedirectUsed } from '../../lib/session/user-slice';
import { Footer } from './footer';
import { LastUpdateBanner } from './last-update-banner';
import { NavBar } from './nav-bar';
import { SkipLink } from './skip-link';
import { StatusToasts } from './status-toasts';

export function SignedInLayout({ user }: { user: UserDto }) {
  // the user with role, and the two further datasets of a session start (SPEC §4)
  useGetMeQuery();
  useGetSavedSearchesQuery();
  useGetVariationAlertsQuery();
  usePageTitleAndFocus(true);
  // a visit that opened on another screen has landed: home is home from now on (see user-slice)
  const { pathname } = useLocation();
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (pathname !== '/') dispatch(homeRedirectUsed());
  }, [pathname, dispatch]);
  return (
    <div className="layout layout--signed-in">
      <SkipLink />
      <LastUpdateBanner />
      <NavBar user={user} />
      <main className="page" id="main">
        <Suspense
          fallback={
            <div className="page-loading">
              <Spinner />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      <Footer role={user.role} />
      <StatusToasts />
    </div>
  );
}
