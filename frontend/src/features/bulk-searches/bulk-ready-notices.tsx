import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatInteger } from '../../lib/domain-rules';
import { readyJobs } from './bulk-job-rules';
import { usePolledBulkJobs } from './use-bulk-jobs';

/** While a job runs, the home page looks again this often, so that its notice appears when it is ready. */
const HOME_POLL_MS = 5000;

/**
 * The home page's notice of each bulk search that is ready and not yet downloaded: "La ricerca massiva
 * «clienti.xlsx» è pronta: 300 imprese, 4 oltre il massimale", with a link to the page. A list that
 * cannot be read shows nothing here (the page itself says so).
 */
export function BulkReadyNotices() {
  const { t } = useTranslation();
  const jobs = usePolledBulkJobs(HOME_POLL_MS);

  const ready = readyJobs(jobs.data ?? []);
  if (ready.length === 0) return null;
  return (
    <div role="status">
      <ul className="bulk-notices" aria-label={t('bulk.title')}>
        {ready.map((job) => (
          <li key={job.jobId} className="card info-note bulk-notice">
            <span>
              {t('bulk.readyNotice', {
                name: job.sourceName || t('bulk.pastedList'),
                companies: t('bulk.noticeCompanies', {
                  count: job.totalCodes,
                  formatted: formatInteger(job.totalCodes),
                }),
                over: t('bulk.overCeiling', {
                  count: job.overCeiling ?? 0,
                  formatted: formatInteger(job.overCeiling ?? 0),
                }),
              })}
            </span>{' '}
            <Link to="/ricerca-massiva">{t('bulk.openPage')}</Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
