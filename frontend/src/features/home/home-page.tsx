import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { documentsUrl, SearchForm } from '../../components/search-form';
import { failureOf } from '../../components/load-error';
import { Spinner } from '../../components/spinner';
import { errorCodeOf } from '../../lib/errors';
import { refusalOf, refusedQueryOf } from '../../lib/home-refusal';
import { AdminContact } from '../../components/admin-contact';
import { useAppDispatch, useAppSelector } from '../../lib/hooks';
import { showError, showSuccess } from '../../lib/session/status-slice';
import {
  useGetSavedSearchesQuery,
  useGetVariationAlertsQuery,
  useRemoveVariationAlertMutation,
} from '../../lib/session/session-api';
import { canUseVariationAlerts, useUser } from '../../lib/session/use-user';
import { homeRedirectUsed, selectHomeRedirectUsed } from '../../lib/session/user-slice';
import { homeRedirect } from './home-redirect';
import { VariationAlertsList } from './variation-alerts-list';

/** `notices`: what other features announce on the home page (composed in app/home-route). */
export default function HomePage({ notices }: { notices?: ReactNode }) {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const saved = useGetSavedSearchesQuery();
  const alerts = useGetVariationAlertsQuery(undefined, { skip: !user || !canUseVariationAlerts(user) });
  const [removeAlert] = useRemoveVariationAlertMutation();
  const location = useLocation();
  const refusal = refusalOf(location.state);
  const refusedQuery = refusedQueryOf(location.state);
  // a fixed code or saved search opens only as the visit's first screen (SPEC §2 "on load"), and
  // never right after a refusal (it would bounce); later, the saved search is offered, not forced
  const mayRedirect = !useAppSelector(selectHomeRedirectUsed) && refusal === null;
  const target = user && mayRedirect ? homeRedirect(user.taxCode, saved.data) : null;
  const decided = refusal !== null || target !== null || !saved.isLoading;

  useEffect(() => {
    if (!mayRedirect && refusal === null) return;
    if (target) {
      dispatch(homeRedirectUsed());
      navigate(target, { replace: true });
    } else if (decided) dispatch(homeRedirectUsed());
  }, [mayRedirect, refusal, target, decided, dispatch, navigate]);

  if (!user) return null;
  const resume = saved.data?.find((search) => search.taxCodes.length > 0);
  if (target || (mayRedirect && !user.taxCode && saved.isLoading)) {
    return (
      <div className="page-loading">
        <Spinner />
      </div>
    );
  }

  return (
    <div className="home">
      <section className="hero">
        <h1>{t('home.title')}</h1>
        <p className="muted">{t('home.subtitle')}</p>
      </section>
      {notices}
      {refusal && (
        <div className="error-panel card" role="alert">
          <p>{t(`errors.${refusal}`)}</p>
          <AdminContact />
        </div>
      )}
      {resume && (
        <section className="card resume" aria-labelledby="resume-title">
          <div>
            <h2 id="resume-title">{t('home.savedTitle')}</h2>
            <p className="resume__query">
              {[
                resume.taxCodes.join(', '),
                ...(resume.deMinimis ? [t('search.deMinimis')] : []),
                ...(resume.last3Years ? [t('search.last3Years')] : []),
              ].join(' · ')}
            </p>
          </div>
          <Link to={documentsUrl(resume)} className="button button--secondary">
            {t('home.resume')}
          </Link>
        </section>
      )}
      <SearchForm
        initial={refusedQuery ?? undefined}
        fixedTaxCode={user.taxCode}
        metered={user.role === 'CLIENT'}
        onSearch={(query) => navigate(documentsUrl(query))}
      />
      {canUseVariationAlerts(user) && (
        <VariationAlertsList
          alerts={alerts.data ?? []}
          failure={failureOf(alerts)}
          email={user.email}
          onRemove={async (alert) => {
            const result = await removeAlert(alert.id);
            if (result.error) dispatch(showError(errorCodeOf(result.error)));
            else dispatch(showSuccess('home.alertRemoved', { codes: alert.taxCodes.join(', ') }));
          }}
        />
      )}
    </div>
  );
}
