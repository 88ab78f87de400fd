import { useTranslation } from 'react-i18next';
import { failureOf, LoadError } from '../../components/load-error';
import { Spinner } from '../../components/spinner';
import { Switch } from '../../components/switch';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError } from '../../lib/session/status-slice';
import { useGetDataSourceStatusQuery, useSetDataSourceMutation } from './sync-api';

/** Archive or live register for every search (SPEC §4); switching refreshes the results already shown. */
export function DataSourceSwitch() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const dataSource = useGetDataSourceStatusQuery();
  const [setDataSource, toggling] = useSetDataSourceMutation();
  const useLive = dataSource.data?.useLiveData ?? false;
  const busy = toggling.isLoading || dataSource.isFetching;
  const failure = failureOf(dataSource);

  return (
    <div className="data-source">
      <span className="muted">{t('sync.dataSource')}</span>
      {failure ? (
        <LoadError failure={failure} compact />
      ) : (
        <Switch
          label={useLive ? t('sync.live') : t('sync.archived')}
          checked={useLive}
          disabled={busy || !dataSource.data}
          onChange={async () => {
            // the state the switch now shows, not a flip of whatever the server holds
            const result = await setDataSource({ useLiveData: !useLive });
            if (result.error) dispatch(showError(errorCodeOf(result.error)));
          }}
        />
      )}
      {busy && <Spinner />}
    </div>
  );
}
