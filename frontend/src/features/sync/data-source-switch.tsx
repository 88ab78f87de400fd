import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { failureOf, LoadError } from '../../components/load-error';
import { Spinner } from '../../components/spinner';
import { Switch } from '../../components/switch';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError } from '../../lib/session/status-slice';
import { useGetDataSourceStatusQuery, useSetDataSourceMutation } from './sync-api';

/**
 * Archive or live register for every search (SPEC §4); switching refreshes the results already shown.
 * The choice holds for every user, so it is asked for in a confirmation that says so and what it costs.
 */
export function DataSourceSwitch() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const dataSource = useGetDataSourceStatusQuery();
  const [setDataSource, toggling] = useSetDataSourceMutation();
  /** the source asked for, waiting for the administrator's confirmation */
  const [asking, setAsking] = useState<{ useLiveData: boolean } | null>(null);
  const useLive = dataSource.data?.useLiveData ?? false;
  const busy = toggling.isLoading || dataSource.isFetching;
  const failure = failureOf(dataSource);

  const confirm = async (useLiveData: boolean) => {
    setAsking(null);
    // the state the administrator confirmed, not a flip of whatever the server holds by now
    const result = await setDataSource({ useLiveData });
    if (result.error) dispatch(showError(errorCodeOf(result.error)));
  };

  return (
    <div className="data-source" role="group" aria-label={t('sync.dataSource')}>
      <span className="muted" aria-hidden="true">
        {t('sync.dataSource')}
      </span>
      {failure ? (
        <LoadError failure={failure} compact />
      ) : (
        <Switch
          label={t('sync.live')}
          onText={t('sync.liveOn')}
          offText={t('sync.liveOff')}
          checked={useLive}
          disabled={busy || !dataSource.data}
          onChange={(next) => setAsking({ useLiveData: next })}
        />
      )}
      {busy && <Spinner />}
      {asking && (
        <ConfirmDialog
          title={asking.useLiveData ? t('sync.toLiveTitle') : t('sync.toArchiveTitle')}
          confirmLabel={asking.useLiveData ? t('sync.toLiveConfirm') : t('sync.toArchiveConfirm')}
          busy={busy}
          onClose={() => setAsking(null)}
          onConfirm={() => void confirm(asking.useLiveData)}
        >
          <p>{t('sync.sourceForEveryone')}</p>
          <p>{asking.useLiveData ? t('sync.toLiveText') : t('sync.toArchiveText')}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
