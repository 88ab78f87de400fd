import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientDto } from '@rna/domain';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormField } from '../../components/form-field';
import { StatCard } from '../../components/stat-card';
import { SIGNED_IN_PAGE_SIZE, Table, type Column } from '../../components/table';
import { Tabs } from '../../components/tabs';
import { clientStatusLabel, formatDate, formatDateTime } from '../../lib/domain-rules';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError, showSuccess } from '../../lib/session/status-slice';
import { ClientSettingsDialog, type ClientSettings } from './client-settings-dialog';
import { filterByEmail, waitingClients } from './client-rules';
import {
  useChangeLogoMutation,
  useDeleteClientMutation,
  useExportClientsMutation,
  useGetClientsQuery,
  useInviteClientMutation,
  useRemoveFixedTaxCodeMutation,
  useRenewClientMutation,
  useSetFixedTaxCodeMutation,
  useSetLimitsMutation,
  useSetPdfEnabledMutation,
  useSetVariationAlertsMutation,
} from './clients-api';
import { InviteDialog } from './invite-dialog';
import { useTabIndexParam } from './use-tab-index';

type DialogState =
  | { kind: 'NONE' }
  | { kind: 'INVITE_CLIENT' }
  | { kind: 'CLIENT_SETTINGS'; client: ClientDto }
  | { kind: 'DELETE_CLIENT_CONFIRM'; clientId: string };

interface ClientsPageProps {
  logos: { id: number; name: string }[];
  /** the logos tab content, composed by the app */
  logosTab: ReactNode;
}

export function StatusBadge({ client }: { client: Pick<ClientDto, 'active' | 'endDate'> }) {
  const label = clientStatusLabel(client);
  const tone = label === 'Scaduto' ? 'danger' : label === 'Attivo' ? 'success' : 'warning';
  return <span className={`badge badge--${tone}`}>{label}</span>;
}

export function ClientsPage({ logos, logosTab }: ClientsPageProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [tab, selectTab] = useTabIndexParam(3);
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<DialogState>({ kind: 'NONE' });
  const clients = useGetClientsQuery();
  const [exportClients, exporting] = useExportClientsMutation();
  const [invite, inviting] = useInviteClientMutation();
  const [remove, removing] = useDeleteClientMutation();
  const [changeLogo] = useChangeLogoMutation();
  const [setFixed] = useSetFixedTaxCodeMutation();
  const [removeFixed] = useRemoveFixedTaxCodeMutation();
  const [setLimits] = useSetLimitsMutation();
  const [setPdf] = useSetPdfEnabledMutation();
  const [setAlerts] = useSetVariationAlertsMutation();
  const [renew, renewing] = useRenewClientMutation();
  const [saving, setSaving] = useState(false);

  const all = clients.data ?? [];
  const waiting = waitingClients(all);
  const closeDialog = () => setDialog({ kind: 'NONE' });
  const fail = (error: unknown) => dispatch(showError(errorCodeOf(error)));

  const allColumns = useMemo<Column<ClientDto>[]>(
    () => [
      {
        key: 'email',
        header: t('columns.email'),
        render: (c) => c.email,
        sortValue: (c) => c.email.toLowerCase(),
      },
      {
        key: 'status',
        header: t('columns.status'),
        render: (c) => <StatusBadge client={c} />,
        sortValue: (c) => clientStatusLabel(c),
      },
      { key: 'invitationCode', header: t('columns.invitationCode'), render: (c) => c.invitationCode ?? '—' },
      {
        key: 'activation',
        header: t('columns.activationDate'),
        render: (c) => formatDateTime(c.activationTime),
        sortValue: (c) => c.activationTime,
      },
      {
        key: 'lastAccess',
        header: t('columns.lastAccess'),
        render: (c) => formatDateTime(c.lastAccessTime),
        sortValue: (c) => c.lastAccessTime,
      },
      {
        key: 'expiration',
        header: t('columns.expiration'),
        render: (c) => formatDate(c.endDate),
        sortValue: (c) => c.endDate,
      },
      {
        key: 'logo',
        header: t('columns.logo'),
        render: (c) => c.logo?.name ?? '—',
        sortValue: (c) => c.logo?.name ?? null,
      },
      {
        key: 'actions',
        header: t('columns.actions'),
        render: (c) => (
          <span className="row-actions">
            <button
              type="button"
              className="button button--secondary button--small"
              aria-label={t('clients.openSettings', { email: c.email })}
              onClick={() => setDialog({ kind: 'CLIENT_SETTINGS', client: c })}
            >
              {t('clients.settings')}
            </button>
            <button
              type="button"
              className="button button--danger button--small"
              aria-label={t('clients.deleteClient', { email: c.email })}
              onClick={() => setDialog({ kind: 'DELETE_CLIENT_CONFIRM', clientId: c.id })}
            >
              {t('common.delete')}
            </button>
          </span>
        ),
      },
    ],
    [t],
  );
  const waitingColumns = useMemo<Column<ClientDto>[]>(
    () => [
      { key: 'id', header: t('columns.id'), render: (c) => c.id, sortValue: (c) => c.id },
      {
        key: 'status',
        header: t('columns.status'),
        render: (c) => <StatusBadge client={c} />,
        sortValue: (c) => clientStatusLabel(c),
      },
      {
        key: 'email',
        header: t('columns.email'),
        render: (c) => c.email,
        sortValue: (c) => c.email.toLowerCase(),
      },
    ],
    [t],
  );

  const saveSettings = async (client: ClientDto, s: ClientSettings) => {
    setSaving(true);
    const calls: Promise<{ error?: unknown }>[] = [];
    if (
      s.availableYearlySearches !== client.availableYearlySearches ||
      s.remainingSearches !== client.remainingSearches ||
      s.endDate !== client.endDate
    ) {
      calls.push(
        setLimits({
          id: client.id,
          availableYearlySearches: s.availableYearlySearches,
          remainingSearches: s.remainingSearches,
          endDate: s.endDate,
        }),
      );
    }
    if (s.taxCode !== (client.taxCode ?? '')) {
      // an emptied field removes the fixed tax code (SPEC §5)
      calls.push(s.taxCode ? setFixed({ id: client.id, code: s.taxCode }) : removeFixed(client.id));
    }
    if (s.logoId !== null && s.logoId !== (client.logo?.id ?? null))
      calls.push(changeLogo({ id: client.id, logoId: s.logoId }));
    if (s.pdfEnabled !== client.pdfEnabled) calls.push(setPdf({ id: client.id, enabled: s.pdfEnabled }));
    if (s.enableVariationAlerts !== client.enableVariationAlerts)
      calls.push(setAlerts({ id: client.id, enable: s.enableVariationAlerts }));
    const results = await Promise.all(calls);
    setSaving(false);
    const failed = results.find((r) => r.error);
    if (failed) fail(failed.error);
    else {
      dispatch(showSuccess('clients.settingsUpdated'));
      closeDialog();
    }
  };

  return (
    <div className="clients">
      <h1>{t('clients.title')}</h1>
      <div className="stat-grid stat-grid--two">
        <StatCard label={t('clients.totalClients')} value={all.length} />
        <StatCard
          label={t('clients.waitingClients')}
          value={t('clients.ofTotal', { count: waiting.length, total: all.length })}
        />
      </div>
      <div className="toolbar">
        <FormField
          id="clients-search"
          label={t('clients.search')}
          fieldClassName="toolbar__search"
          type="search"
          value={search}
          onChange={setSearch}
          placeholder={t('clients.searchPlaceholder')}
        />
        <button
          type="button"
          className="button button--secondary"
          disabled={exporting.isLoading}
          // a failed export is deliberately silent (SPEC §8)
          onClick={() => void exportClients().catch(() => undefined)}
        >
          {t('clients.export')}
        </button>
        <button
          type="button"
          className="button button--primary"
          onClick={() => setDialog({ kind: 'INVITE_CLIENT' })}
        >
          {t('clients.add')}
        </button>
      </div>
      <Tabs
        label={t('clients.tabsLabel')}
        selected={tab}
        onSelect={selectTab}
        tabs={[
          { key: 'all', label: t('clients.tabAll') },
          { key: 'waiting', label: t('clients.tabWaiting') },
          { key: 'logos', label: t('clients.tabLogos') },
        ]}
      >
        {tab === 0 && (
          <Table
            caption={t('clients.tabAll')}
            columns={allColumns}
            rows={filterByEmail(all, search)}
            rowKey={(c) => c.id}
            loading={clients.isLoading}
            pageSize={SIGNED_IN_PAGE_SIZE}
          />
        )}
        {tab === 1 && (
          <Table
            caption={t('clients.tabWaiting')}
            columns={waitingColumns}
            rows={filterByEmail(waiting, search)}
            rowKey={(c) => c.id}
            loading={clients.isLoading}
            pageSize={SIGNED_IN_PAGE_SIZE}
          />
        )}
        {tab === 2 && logosTab}
      </Tabs>

      {dialog.kind === 'INVITE_CLIENT' && (
        <InviteDialog
          busy={inviting.isLoading}
          onClose={closeDialog}
          onInvite={async (body) => {
            const result = await invite(body);
            if (result.error) fail(result.error);
            else {
              dispatch(showSuccess('clients.inviteSuccess'));
              closeDialog();
            }
          }}
        />
      )}
      {dialog.kind === 'CLIENT_SETTINGS' && (
        <ClientSettingsDialog
          key={dialog.client.endDate}
          client={dialog.client}
          logos={logos}
          busy={saving || renewing.isLoading}
          onClose={closeDialog}
          onSave={(settings) => void saveSettings(dialog.client, settings)}
          onRenew={async () => {
            const result = await renew(dialog.client.id);
            if (result.error) fail(result.error);
            else {
              dispatch(showSuccess('clients.settingsUpdated'));
              setDialog({ kind: 'CLIENT_SETTINGS', client: result.data });
            }
          }}
        />
      )}
      {dialog.kind === 'DELETE_CLIENT_CONFIRM' && (
        <ConfirmDialog
          title={t('clients.deleteTitle')}
          danger
          busy={removing.isLoading}
          confirmLabel={t('common.delete')}
          onClose={closeDialog}
          onConfirm={async () => {
            const result = await remove(dialog.clientId);
            closeDialog();
            if (result.error) fail(result.error);
            else dispatch(showSuccess('clients.removeSuccess'));
          }}
        >
          {t('clients.deleteConfirm', { email: all.find((c) => c.id === dialog.clientId)?.email ?? '' })}
        </ConfirmDialog>
      )}
    </div>
  );
}
