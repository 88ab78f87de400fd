import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatRunDuration, type SyncResultDto } from '@rna/domain';
import { failureOf } from '../../components/load-error';
import { SIGNED_IN_PAGE_SIZE, Table, type Column } from '../../components/table';
import { formatDateTime, formatInteger } from '../../lib/domain-rules';
import { useGetSyncResultsQuery } from './sync-api';

/** The runs so far, newest first as the server sends them. */
export function SyncHistory() {
  const { t } = useTranslation();
  const results = useGetSyncResultsQuery();
  const columns = useMemo<Column<SyncResultDto>[]>(
    () => [
      {
        key: 'start',
        header: t('sync.start'),
        render: (r) => formatDateTime(r.start),
        sortValue: (r) => r.start,
      },
      { key: 'end', header: t('sync.end'), render: (r) => formatDateTime(r.end), sortValue: (r) => r.end },
      {
        key: 'duration',
        header: t('sync.duration'),
        render: (r) => (r.end === null ? '—' : formatRunDuration(r.end - r.start)),
        sortValue: (r) => (r.end === null ? null : r.end - r.start),
      },
      {
        key: 'type',
        header: t('sync.type'),
        render: (r) => t(`sync.scope.${r.type}`),
        sortValue: (r) => r.type,
      },
      {
        key: 'status',
        header: t('columns.status'),
        render: (r) => t(`sync.runStatus.${r.status}`),
        sortValue: (r) => r.status,
      },
      {
        key: 'files',
        header: t('sync.files'),
        render: (r) =>
          t('sync.filesSummary', { succeeded: r.succeeded, failed: r.failed, skipped: r.skipped }),
      },
      {
        key: 'records',
        header: t('sync.records'),
        // with the records the run's imports rejected, when there were any
        render: (r) =>
          r.recordsRejected > 0
            ? t('sync.recordsWithRejected', {
                count: r.recordsRejected,
                records: formatInteger(r.records),
                formatted: formatInteger(r.recordsRejected),
              })
            : formatInteger(r.records),
        sortValue: (r) => r.records,
      },
    ],
    [t],
  );
  return (
    <Table
      caption={t('sync.tabHistory')}
      columns={columns}
      rows={results.data ?? []}
      rowKey={(r) => `${r.start}-${r.id}`}
      loading={results.isLoading}
      pageSize={SIGNED_IN_PAGE_SIZE}
      failure={failureOf(results)}
    />
  );
}
