import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/domain-rules';
import { getRuntimeConfig } from '../../lib/runtime-config';
import { useGetLastRnaSyncQuery } from '../../lib/session/session-api';
import { lastUpdateView } from './last-update';

/** The fixed top banner on wide screens (hidden below 768 px by the stylesheet). */
export function LastUpdateBanner() {
  const { t } = useTranslation();
  const { data } = useGetLastRnaSyncQuery();
  const view = lastUpdateView(data, getRuntimeConfig().forcedLastUpdate);
  return (
    <div className="last-update-banner" role="note">
      {view.kind === 'never'
        ? t('lastUpdate.never')
        : view.kind === 'live'
          ? t('lastUpdate.live')
          : t('lastUpdate.at', { date: formatDateTime(view.at) })}
    </div>
  );
}
