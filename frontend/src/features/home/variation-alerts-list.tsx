import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VariationAlertDto } from '@rna/domain';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LoadError, type LoadFailure } from '../../components/load-error';
import { formatDateTime } from '../../lib/domain-rules';
import { alertColumns } from './alerts-columns';

interface VariationAlertsListProps {
  alerts: VariationAlertDto[];
  onRemove: (id: string) => Promise<void> | void;
  failure?: LoadFailure | null;
}

export function VariationAlertsList({ alerts, onRemove, failure }: VariationAlertsListProps) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<VariationAlertDto | null>(null);
  return (
    <section className="card alerts" aria-labelledby="alerts-title">
      <h2 id="alerts-title">{t('home.alertsTitle')}</h2>
      {failure ? (
        <LoadError failure={failure} />
      ) : alerts.length === 0 ? (
        <p className="muted">{t('home.noAlerts')}</p>
      ) : (
        <ul className={`alerts__list alerts__list--cols-${alertColumns(alerts.length)}`}>
          {alerts.map((alert) => (
            <li key={alert.id} className="alerts__item">
              <span className="alerts__codes">
                {alert.group
                  ? t('home.alertOnGroup', { name: alert.group.name, codes: alert.taxCodes.join(', ') })
                  : alert.taxCodes.join(', ')}
              </span>
              {alert.lastNotification && (
                <span className="alerts__note">
                  {t('home.alertChanges', {
                    count: alert.lastNotification.changes,
                    date: formatDateTime(alert.lastNotification.at),
                  })}
                </span>
              )}
              <button
                type="button"
                className="icon-button"
                aria-label={t('home.removeAlert', { codes: alert.taxCodes.join(', ') })}
                onClick={() => setPending(alert)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {pending && (
        <ConfirmDialog
          title={t('home.removeAlertTitle')}
          danger
          onClose={() => setPending(null)}
          onConfirm={async () => {
            await onRemove(pending.id);
            setPending(null);
          }}
        >
          {t('home.removeAlertConfirm', { codes: pending.taxCodes.join(', ') })}
        </ConfirmDialog>
      )}
    </section>
  );
}
