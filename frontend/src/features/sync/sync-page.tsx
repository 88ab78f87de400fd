import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SyncScope } from '@rna/domain';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dropdown } from '../../components/dropdown';
import { failureOf, LoadError } from '../../components/load-error';
import { Spinner } from '../../components/spinner';
import { Tabs } from '../../components/tabs';
import { api } from '../../lib/api';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError } from '../../lib/session/status-slice';
import { ArchiveGrid } from './archive-grid';
import { ArchiveStats } from './archive-stats';
import { archiveView, runSignature } from './archive-view';
import { DataSourceSwitch } from './data-source-switch';
import { useGetArchiveFilesQuery, useStartSyncMutation } from './sync-api';
import { SyncHistory } from './sync-history';
import { useSyncTracking } from './use-sync-tracking';

type SyncRequest = { type: SyncScope; onlyDocuments?: string[] };

export default function SyncPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [tab, setTab] = useState(0);
  const [selected, setSelected] = useState<string[]>([]);
  const [confirming, setConfirming] = useState<SyncRequest | null>(null);
  const files = useGetArchiveFilesQuery();
  const filesFailure = failureOf(files);
  const [startSync, starting] = useStartSyncMutation();
  const { status, running, unreadable, follow } = useSyncTracking();

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

  const start = async (body: SyncRequest) => {
    setConfirming(null);
    const result = await startSync(body);
    if (result.error) dispatch(showError(errorCodeOf(result.error)));
    else {
      setSelected([]); // the selection went into this run; files picked during the run are kept for the next
      follow();
    }
  };

  const toggleSelected = (name: string) =>
    setSelected((current) =>
      current.includes(name) ? current.filter((n) => n !== name) : [...current, name],
    );

  return (
    <div className="sync">
      <div className="page-header">
        <h1>{t('sync.title')}</h1>
        <DataSourceSwitch />
      </div>
      <ArchiveStats status={status.data} />
      {unreadable && (
        <p className="card warning-note" role="status">
          {t('sync.statusUnreadable', { seconds: Math.round(unreadable.retryInMs / 1000) })}{' '}
          <button type="button" className="button button--secondary button--small" onClick={unreadable.retry}>
            {t('common.retry')}
          </button>
        </p>
      )}
      <div className="toolbar toolbar--end">
        {running ? (
          <button type="button" className="button button--primary" disabled aria-busy="true">
            <Spinner /> {t('sync.syncing')}
            {/* counts only once the run knows its files: "(0/0)" said nothing */}
            {status.data?.run &&
              status.data.run.total > 0 &&
              ` (${status.data.run.done}/${status.data.run.total})`}
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
          ) : filesFailure ? (
            <LoadError failure={filesFailure} />
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
          <SyncHistory />
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
