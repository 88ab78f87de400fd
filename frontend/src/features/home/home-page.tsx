import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { documentsUrl, SearchForm } from '../../components/search-form';
import { failureOf } from '../../components/load-error';
import { Spinner } from '../../components/spinner';
import { errorCodeOf } from '../../lib/errors';
import { refusalOf } from '../../lib/home-refusal';
import { useAppDispatch, useAppSelector } from '../../lib/hooks';
import { showError } from '../../lib/session/status-slice';
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
  // a fixed code or saved search opens once per visit, and never right after a refusal (it would bounce)
  const mayRedirect = !useAppSelector(selectHomeRedirectUsed) && refusal === null;
  const target = user && mayRedirect ? homeRedirect(user.taxCode, saved.data) : null;

  useEffect(() => {
    if (refusal !== null) dispatch(homeRedirectUsed());
    else if (target) {
      dispatch(homeRedirectUsed());
      navigate(target, { replace: true });
    }
  }, [refusal, target, dispatch, navigate]);

  if (!user) return null;
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
        </div>
      )}
      <SearchForm fixedTaxCode={user.taxCode} onSearch={(query) => navigate(documentsUrl(query))} />
      {canUseVariationAlerts(user) && (
        <VariationAlertsList
          alerts={alerts.data ?? []}
          failure={failureOf(alerts)}
          onRemove={async (id) => {
            const result = await removeAlert(id);
            if (result.error) dispatch(showError(errorCodeOf(result.error)));
          }}
        />
      )}
    </div>
  );
}
