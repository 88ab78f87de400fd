import { useTranslation } from 'react-i18next';
import { syncRunProgress, type SyncRunDto, type SyncStatusDto } from '@rna/domain';
import { failureOf, LoadError } from '../../components/load-error';
import { StatCard } from '../../components/stat-card';
import { formatDateTime, formatInteger } from '../../lib/domain-rules';
import { useGetArchiveStatsQuery } from './sync-api';

/** A running sync: files done of the run's, aids per second, and when it should end. */
function RunProgress({ run, now }: { run: SyncRunDto; now: number }) {
  const { t } = useTranslation();
  const progress = syncRunProgress(run, now);
  const known = progress.filesTotal > 0;
  const parts = [
    // before the run has listed its files there is nothing to count: "0 file su 0" said nothing
    known
      ? t('sync.runProgressFiles', { done: progress.filesDone, total: progress.filesTotal })
      : t('sync.runListing'),
    ...(progress.aidsPerSecond !== null
      ? [t('sync.runProgressRate', { rate: formatInteger(Math.round(progress.aidsPerSecond)) })]
      : []),
    ...(progress.estimatedEnd !== null
      ? [t('sync.runProgressEnd', { time: formatDateTime(progress.estimatedEnd) })]
      : []),
  ];
  return (
    <section className="card info-note" aria-label={t('sync.runProgressTitle')}>
      <h2 className="visually-hidden">{t('sync.runProgressTitle')}</h2>
      {known ? (
        <progress max={progress.filesTotal} value={progress.filesDone} aria-label={parts[0]} />
      ) : (
        <progress aria-label={parts[0]} />
      )}
      <p>{parts.join(' · ')}</p>
    </section>
  );
}

/** The archive's size and last sync, and what the indexing still owes; a dash, never "0"/"Mai", when unread. */
export function ArchiveStats({
  status,
  now = Date.now(),
}: {
  status: SyncStatusDto | undefined;
  /** the instant the estimate is made at (the page re-renders at each poll) */
  now?: number;
}) {
  const { t } = useTranslation();
  const stats = useGetArchiveStatsQuery();
  const failure = failureOf(stats);
  const unknown = t('common.unavailable');
  const run = status?.run;
  return (
    <>
      <div className="stat-grid stat-grid--two">
        <StatCard
          label={t('sync.totalDocuments')}
          value={stats.data ? formatInteger(stats.data.totalDocuments) : unknown}
        />
        <StatCard
          label={t('sync.lastSync')}
          value={
            !stats.data
              ? unknown
              : stats.data.lastSync
                ? formatDateTime(stats.data.lastSync)
                : t('sync.never')
          }
        />
      </div>
      {failure && <LoadError failure={failure} />}
      {status?.running && run && <RunProgress run={run} now={now} />}
      {run && run.indexed < run.published && (
        <p className="card info-note" role="status">
          {t('sync.indexingProgress', {
            indexed: formatInteger(run.indexed),
            published: formatInteger(run.published),
          })}
        </p>
      )}
      {stats.data && stats.data.missingAids > 0 && (
        <p className="card warning-note" role="alert">
          {t('sync.missingAids', {
            count: stats.data.missingAids,
            formatted: formatInteger(stats.data.missingAids),
          })}
        </p>
      )}
      {stats.data && stats.data.deadLetters > 0 && (
        <p className="card warning-note" role="status">
          {t('sync.deadLetters', { count: stats.data.deadLetters })}
        </p>
      )}
    </>
  );
}
