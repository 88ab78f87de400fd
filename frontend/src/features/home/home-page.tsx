import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { documentsUrl, SearchForm } from '../../components/search-form';
import { Spinner } from '../../components/spinner';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError } from '../../lib/session/status-slice';
import {
  useGetSavedSearchesQuery,
  useGetVariationAlertsQuery,
  useRemoveVariationAlertMutation,
} from '../../lib/session/session-api';
import { canUseVariationAlerts, useUser } from '../../lib/session/use-user';
import { homeRedirect } from './home-redirect';
import { VariationAlertsList } from './variation-alerts-list';

export default function HomePage() {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const saved = useGetSavedSearchesQuery();
  const alerts = useGetVariationAlertsQuery(undefined, { skip: !user || !canUseVariationAlerts(user) });
  const [removeAlert] = useRemoveVariationAlertMutation();

  if (!user) return null;
  if (!user.taxCode && saved.isLoading) {
    return (
      <div className="page-loading">
        <Spinner />
      </div>
    );
  }
  const target = homeRedirect(user.taxCode, saved.data);
  if (target) return <Navigate to={target} replace />;

  return (
    <div className="home">
      <section className="hero">
        <h1>{t('home.title')}</h1>
        <p className="muted">{t('home.subtitle')}</p>
      </section>
      <SearchForm fixedTaxCode={user.taxCode} onSearch={(query) => navigate(documentsUrl(query))} />
      {canUseVariationAlerts(user) && (
        <VariationAlertsList
          alerts={alerts.data ?? []}
          onRemove={async (id) => {
            const result = await removeAlert(id);
            if (result.error) dispatch(showError(errorCodeOf(result.error)));
          }}
        />
      )}
    </div>
  );
}
