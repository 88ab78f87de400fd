import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/domain-rules';
import { getRuntimeConfig } from '../../lib/runtime-config';
import { useGetLastRnaSyncQuery } from '../../lib/session/session-api';
import { lastUpdateView } from './last-update';

export const LAST_UPDATE_POLL_MS = 60_000;

/** The fixed top banner on wide screens; on a phone it heads the page, its text wrapping (stylesheet). */
export function LastUpdateBanner() {
  const { t } = useTranslation();
  // read again now and then: a sync another user ran refreshes this user's results too (app/store.ts)
  const { data } = useGetLastRnaSyncQuery(undefined, { pollingInterval: LAST_UPDATE_POLL_MS });
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
