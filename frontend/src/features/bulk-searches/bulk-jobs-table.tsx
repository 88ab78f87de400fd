import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { isErrorCode, type BulkJobDto } from '@rna/domain';
import type { LoadFailure } from '../../components/load-error';
import { SIGNED_IN_PAGE_SIZE, Table, type Column } from '../../components/table';
import { formatDate, formatDateTime, formatInteger } from '../../lib/domain-rules';
import { isDownloadable, isUnderWay, progressPercent } from './bulk-job-rules';

interface BulkJobsTableProps {
  jobs: readonly BulkJobDto[];
  loading: boolean;
  failure: LoadFailure | null;
  /** whether this user may have the PDF (a client without pdfEnabled may not) */
  pdfAllowed: boolean;
  onSheet: (job: BulkJobDto) => void;
  onPdf: (job: BulkJobDto) => void;
  /** the job whose download is under way, if any */
  downloading: string | null;
}

export function BulkProgress({ job, name }: { job: BulkJobDto; name: string }) {
  const { t } = useTranslation();
  const text = t('bulk.progress', {
    done: formatInteger(job.doneCodes),
    total: formatInteger(job.totalCodes),
  });
  return (
    <div className="bulk-progress">
      <div
        className="bulk-progress__track"
        role="progressbar"
        aria-label={t('bulk.progressLabel', { name })}
        aria-valuemin={0}
        aria-valuemax={job.totalCodes}
        aria-valuenow={job.doneCodes}
        aria-valuetext={text}
      >
        <span className="bulk-progress__bar" style={{ width: `${progressPercent(job)}%` }} />
      </div>
      <span className="bulk-progress__text">{text}</span>
    </div>
  );
}

function Outcome({ job, name }: { job: BulkJobDto; name: string }) {
  const { t } = useTranslation();
  if (isUnderWay(job)) return <BulkProgress job={job} name={name} />;
  if (job.status === 'FAILED') {
    const code = isErrorCode(job.failureCode) ? job.failureCode : 'G001';
    return <span className="bulk-job__failure">{t(`errors.${code}`)}</span>;
  }
  if (job.companiesWithAids === null || job.aids === null || job.overCeiling === null) return <>—</>;
  const { companiesWithAids, aids, overCeiling } = job;
  return (
    <ul className="bulk-job__figures">
      <li>
        {t('bulk.companiesWithAids', {
          count: companiesWithAids,
          formatted: formatInteger(companiesWithAids),
        })}
      </li>
      <li>{t('bulk.aids', { count: aids, formatted: formatInteger(aids) })}</li>
      <li className={overCeiling > 0 ? 'bulk-job__over' : undefined}>
        {t('bulk.overCeiling', { count: overCeiling, formatted: formatInteger(overCeiling) })}
      </li>
    </ul>
  );
}

/** The user's jobs, newest first: state, progress or result, cost and downloads (cards on a phone). */
export function BulkJobsTable({
  jobs,
  loading,
  failure,
  pdfAllowed,
  onSheet,
  onPdf,
  downloading,
}: BulkJobsTableProps) {
  const { t } = useTranslation();
  const columns = useMemo((): Column<BulkJobDto>[] => {
    const nameOf = (job: BulkJobDto) => job.sourceName || t('bulk.pastedList');
    return [
      {
        key: 'source',
        header: t('bulk.colSource'),
        render: (job) => <span className="bulk-job__name">{nameOf(job)}</span>,
      },
      {
        key: 'requestedAt',
        header: t('bulk.colRequestedAt'),
        render: (job) => formatDateTime(Date.parse(job.requestedAt)),
      },
      {
        key: 'status',
        header: t('bulk.colStatus'),
        render: (job) => (
          <span className={`badge bulk-status bulk-status--${job.status.toLowerCase()}`}>
            {t(`bulk.status.${job.status}`)}
          </span>
        ),
      },
      {
        key: 'progress',
        header: t('bulk.colProgress'),
        render: (job) => <Outcome job={job} name={nameOf(job)} />,
      },
      {
        key: 'cost',
        header: t('bulk.colCost'),
        render: (job) =>
          job.cost === 0
            ? t('bulk.free')
            : t('bulk.searches', { count: job.cost, formatted: formatInteger(job.cost) }),
      },
      {
        key: 'downloads',
        header: t('bulk.colDownloads'),
        render: (job) => {
          if (job.status === 'EXPIRED' || (job.status === 'COMPLETED' && !isDownloadable(job)))
            return <span className="muted">{t('bulk.noLongerAvailable')}</span>;
          if (!isDownloadable(job)) return <>—</>;
          const busy = downloading === job.jobId;
          return (
            <div className="bulk-job__downloads">
              <div className="row-actions">
                <button
                  type="button"
                  className="button button--secondary button--small"
                  aria-label={t('bulk.downloadSheetOf', { name: nameOf(job) })}
                  disabled={busy}
                  onClick={() => onSheet(job)}
                >
                  {t('bulk.downloadSheet')}
                </button>
                {pdfAllowed && (
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    aria-label={t('bulk.downloadPdfOf', { name: nameOf(job) })}
                    disabled={busy}
                    onClick={() => onPdf(job)}
                  >
                    {t('bulk.downloadPdf')}
                  </button>
                )}
              </div>
              <span className="muted bulk-job__until">
                {t('bulk.availableUntil', {
                  date: formatDate(job.expiresAt ? Date.parse(job.expiresAt) : null),
                })}
              </span>
            </div>
          );
        },
      },
    ];
  }, [t, pdfAllowed, onSheet, onPdf, downloading]);

  return (
    <Table
      caption={t('bulk.jobsTitle')}
      columns={columns}
      rows={jobs}
      rowKey={(job) => job.jobId}
      loading={loading}
      failure={failure}
      pageSize={SIGNED_IN_PAGE_SIZE}
      emptyText={t('bulk.jobsEmpty')}
    />
  );
}
