import { useTranslation } from 'react-i18next';
import type { SyncStatusDto } from '@rna/domain';
import { failureOf, LoadError } from '../../components/load-error';
import { StatCard } from '../../components/stat-card';
import { formatDateTime, formatInteger } from '../../lib/domain-rules';
import { useGetArchiveStatsQuery } from './sync-api';

/** The archive's size and last sync, and what the indexing still owes; a dash, never "0"/"Mai", when unread. */
export function ArchiveStats({ status }: { status: SyncStatusDto | undefined }) {
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
