import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { VariationAlertDto } from '@rna/domain';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LoadError, type LoadFailure } from '../../components/load-error';
import { documentsUrl } from '../../components/search-form';
import { formatDate, formatDateTime } from '../../lib/domain-rules';
import { alertColumns } from './alerts-columns';

interface VariationAlertsListProps {
  alerts: VariationAlertDto[];
  onRemove: (alert: VariationAlertDto) => Promise<void> | void;
  /** where the alerts are mailed: the signed-in user's address */
  email: string;
  failure?: LoadFailure | null;
}

/** The search a watched code opens: all its aids, as a first search of it would. */
const searchOf = (taxCode: string) =>
  documentsUrl({ taxCodes: [taxCode], deMinimis: false, last3Years: false });

/**
 * Each alert says whom it watches (the company's name when the archive knows it, with a link to its
 * search), what it watches, since when, the last change it mailed, and to which address.
 */
export function VariationAlertsList({ alerts, onRemove, email, failure }: VariationAlertsListProps) {
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
              <div className="alerts__body">
                {alert.group && (
                  <p className="alerts__group">{t('home.alertGroup', { name: alert.group.name })}</p>
                )}
                <ul className="alerts__companies">
                  {alert.companies.map((company) => (
                    <li key={company.taxCode}>
                      <Link to={searchOf(company.taxCode)} className="alerts__company">
                        {company.name ?? company.taxCode}
                      </Link>{' '}
                      {company.name ? (
                        <span className="alerts__codes">{company.taxCode}</span>
                      ) : (
                        <span className="alerts__note">{t('home.alertUnknownCompany')}</span>
                      )}
                    </li>
                  ))}
                </ul>
                <dl className="alerts__facts">
                  <div>
                    <dt>{t('home.alertWatchedLabel')}</dt>
                    <dd>
                      {alert.group
                        ? t('home.alertWatchesGroup')
                        : t('home.alertWatches', { count: alert.taxCodes.length })}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('home.alertSinceLabel')}</dt>
                    <dd>{formatDate(alert.createdAt)}</dd>
                  </div>
                  <div>
                    <dt>{t('home.alertLastLabel')}</dt>
                    <dd>
                      {alert.lastNotification
                        ? t('home.alertChanges', {
                            count: alert.lastNotification.changes,
                            date: formatDateTime(alert.lastNotification.at),
                          })
                        : t('home.alertNoChanges')}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('home.alertMailedLabel')}</dt>
                    <dd>{email}</dd>
                  </div>
                </dl>
              </div>
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
            await onRemove(pending);
            setPending(null);
          }}
        >
          {t('home.removeAlertConfirm', { codes: pending.taxCodes.join(', ') })}
        </ConfirmDialog>
      )}
    </section>
  );
}
