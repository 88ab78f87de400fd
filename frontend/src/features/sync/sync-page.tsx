import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SyncResultDto, SyncScope } from '@rna/domain';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dropdown } from '../../components/dropdown';
import { Spinner } from '../../components/spinner';
import { StatCard } from '../../components/stat-card';
import { Switch } from '../../components/switch';
import { SIGNED_IN_PAGE_SIZE, Table, type Column } from '../../components/table';
import { Tabs } from '../../components/tabs';
import { api } from '../../lib/api';
import { formatDateTime, formatInteger } from '../../lib/domain-rules';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError, showSuccess } from '../../lib/session/status-slice';
import { ArchiveGrid } from './archive-grid';
import { archiveView, runSignature } from './archive-view';
import {
  useGetArchiveFilesQuery,
  useGetArchiveStatsQuery,
  useGetDataSourceStatusQuery,
  useGetSyncResultsQuery,
  useGetSyncStatusQuery,
  useStartSyncMutation,
  useSetDataSourceMutation,
} from './sync-api';

export const SYNC_POLL_MS = 1000;

export default function SyncPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [tab, setTab] = useState(0);
  const [selected, setSelected] = useState<string[]>([]);
  const [confirming, setConfirming] = useState<{ type: SyncScope; onlyDocuments?: string[] } | null>(null);
  const [tracking, setTracking] = useState(true);
  const files = useGetArchiveFilesQuery();
  const stats = useGetArchiveStatsQuery();
  const results = useGetSyncResultsQuery();
  const dataSource = useGetDataSourceStatusQuery();
  const [setDataSource, toggling] = useSetDataSourceMutation();
  const [startSync, starting] = useStartSyncMutation();
  // on opening, one status check; while a run is going it is polled every second (resumes a run in progress)
  const status = useGetSyncStatusQuery(undefined, { pollingInterval: tracking ? SYNC_POLL_MS : 0 });
  const running = Boolean(status.data?.running);
  // after the run, the index may still be applying its aids: the screen follows until it has
  const indexing = Boolean(status.data?.indexing);
  const wasRunning = useRef(false);
  const wasIndexing = useRef(false);

  useEffect(() => {
    if (status.isError) {
      // a failed check stops the tracking and is only logged (SPEC §8)
      console.warn('sync status check failed', status.error);
      setTracking(false);
      return;
    }
    if (!status.data) return;
    if (running) {
      wasRunning.current = true;
      setTracking(true);
    } else {
      if (wasRunning.current) {
        wasRunning.current = false;
        dispatch(showSuccess('sync.completed'));
        dispatch(api.util.invalidateTags(['ArchiveFile', 'ArchiveStats', 'SyncResult', 'LastUpdate']));
      }
      if (indexing) setTracking(true);
      else {
        if (wasIndexing.current) dispatch(api.util.invalidateTags(['ArchiveStats', 'LastUpdate']));
        setTracking(false);
      }
      wasIndexing.current = indexing;
    }
  }, [status.data, status.isError, status.error, running, indexing, dispatch]);

  const runFiles = useMemo(
    () => new Map((status.data?.run?.files ?? []).map((f) => [f.name, f])),
    [status.data],
  );
  const shownFiles = useMemo(() => archiveView(files.data ?? [], runFiles), [files.data, runFiles]);

  // While a run goes, the list is read again when it starts and whenever its files or their states change, so
  // that an imported file shows its new date at once (the run's own view has no date until it is projected).
  const signature = useMemo(() => runSignature(status.data?.run?.files ?? []), [status.data]);
  const seenSignature = useRef<string | null>(null);
  useEffect(() => {
    if (!running) {
      seenSignature.current = null;
      return;
    }
    if (seenSignature.current === signature) return;
    seenSignature.current = signature;
    dispatch(api.util.invalidateTags(['ArchiveFile', 'ArchiveStats']));
  }, [running, signature, dispatch]);

  const start = async (body: { type: SyncScope; onlyDocuments?: string[] }) => {
    setConfirming(null);
    const result = await startSync(body);
    if (result.error) dispatch(showError(errorCodeOf(result.error)));
    else {
      setSelected([]); // the selection went into this run; files picked during the run are kept for the next
      wasRunning.current = true;
      setTracking(true);
    }
  };

  const toggleSelected = (name: string) =>
    setSelected((current) =>
      current.includes(name) ? current.filter((n) => n !== name) : [...current, name],
    );

  const historyColumns = useMemo<Column<SyncResultDto>[]>(
    () => [
      {
        key: 'start',
        header: t('sync.start'),
        render: (r) => formatDateTime(r.start),
        sortValue: (r) => r.start,
      },
      { key: 'end', header: t('sync.end'), render: (r) => formatDateTime(r.end), sortValue: (r) => r.end },
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
        render: (r) => formatInteger(r.records),
        sortValue: (r) => r.records,
      },
    ],
    [t],
  );

  const useLive = dataSource.data?.useLiveData ?? false;

  return (
    <div className="sync">
      <div className="page-header">
        <h1>{t('sync.title')}</h1>
        <div className="data-source">
          <span className="muted">{t('sync.dataSource')}</span>
          <Switch
            label={useLive ? t('sync.live') : t('sync.archived')}
            checked={useLive}
            disabled={toggling.isLoading || dataSource.isFetching}
            onChange={async () => {
              // the state the switch now shows, not a flip of whatever the server holds
              const result = await setDataSource({ useLiveData: !useLive });
              if (result.error) dispatch(showError(errorCodeOf(result.error)));
            }}
          />
          {(toggling.isLoading || dataSource.isFetching) && <Spinner />}
        </div>
      </div>
      <div className="stat-grid stat-grid--two">
        <StatCard label={t('sync.totalDocuments')} value={formatInteger(stats.data?.totalDocuments ?? 0)} />
        <StatCard
          label={t('sync.lastSync')}
          value={stats.data?.lastSync ? formatDateTime(stats.data.lastSync) : t('sync.never')}
        />
      </div>
      {status.data?.run && status.data.run.indexed < status.data.run.published && (
        <p className="card info-note" role="status">
          {t('sync.indexingProgress', {
            indexed: formatInteger(status.data.run.indexed),
            published: formatInteger(status.data.run.published),
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
      <div className="toolbar toolbar--end">
        {running ? (
          <button type="button" className="button button--primary" disabled aria-busy="true">
            <Spinner /> {t('sync.syncing')}
            {status.data?.run && ` (${status.data.run.done}/${status.data.run.total})`}
          </button>
        ) : selected.length > 0 ? (
          <button
            type="button"
            className="button button--primary"
            disabled={starting.isLoading}
            onClick={() => setConfirming({ type: 'CUSTOM', onlyDocuments: selected })}
          >
            {t('sync.syncSelected', { count: selected.length })}
          </button>
        ) : (
          <Dropdown
            label={t('sync.syncMenu')}
            align="right"
            disabled={starting.isLoading}
            items={(['LAST_YEAR', 'LAST_3_YEARS', 'ALL'] as const).map((type) => ({
              key: type,
              label: t(`sync.scope.${type}`),
              onSelect: () => setConfirming({ type }),
            }))}
          />
        )}
      </div>
      <Tabs
        label={t('sync.tabsLabel')}
        selected={tab}
        onSelect={setTab}
        tabs={[
          { key: 'list', label: t('sync.tabList') },
          { key: 'history', label: t('sync.tabHistory') },
        ]}
      >
        {tab === 0 ? (
          files.isLoading ? (
            <Spinner />
          ) : (
            <ArchiveGrid
              files={shownFiles}
              runFiles={runFiles}
              running={running}
              selected={selected}
              onToggle={toggleSelected}
            />
          )
        ) : (
          <Table
            caption={t('sync.tabHistory')}
            columns={historyColumns}
            rows={results.data ?? []}
            rowKey={(r) => `${r.start}-${r.id}`}
            loading={results.isLoading}
            pageSize={SIGNED_IN_PAGE_SIZE}
          />
        )}
      </Tabs>
      {confirming && (
        <ConfirmDialog
          title={t('sync.confirmTitle', { scope: t(`sync.scope.${confirming.type}`) })}
          onClose={() => setConfirming(null)}
          onConfirm={() => void start(confirming)}
        >
          {t('sync.confirmText')}
        </ConfirmDialog>
      )}
    </div>
  );
}
