import { useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientDto } from '@rna/domain';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormField } from '../../components/form-field';
import { failureOf } from '../../components/load-error';
import { StatCard } from '../../components/stat-card';
import { SIGNED_IN_PAGE_SIZE, Table } from '../../components/table';
import { Tabs } from '../../components/tabs';
import { errorCodeOf } from '../../lib/errors';
import { useAppDispatch } from '../../lib/hooks';
import { showError, showSuccess } from '../../lib/session/status-slice';
import { ClientSettingsDialog } from './client-settings-dialog';
import { filterByEmail, waitingClients } from './client-rules';
import { useClientColumns } from './clients-columns';
import {
  useDeleteClientMutation,
  useExportClientsMutation,
  useGetClientsQuery,
  useInviteClientMutation,
} from './clients-api';
import { InviteDialog } from './invite-dialog';
import { useSaveClientSettings } from './use-save-client-settings';
import { useTabIndexParam } from './use-tab-index';

type DialogState =
  | { kind: 'NONE' }
  /** invited: the invitation just sent, its code shown this once */
  | { kind: 'INVITE_CLIENT'; invited?: { email: string; invitationCode: string } }
  | { kind: 'CLIENT_SETTINGS'; client: ClientDto }
  | { kind: 'DELETE_CLIENT_CONFIRM'; clientId: string };

interface ClientsPageProps {
  logos: { id: number; name: string }[];
  /** the logos tab content, composed by the app */
  logosTab: ReactNode;
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

  const all = clients.data ?? [];
  const failure = failureOf(clients);
  // while the list loads there is no count yet: a dash, never a "0" that reads as no clients
  const loading = clients.isLoading;
  const countOrDash = (n: number) => (failure ? t('common.unavailable') : loading ? '—' : n);
  const waiting = waitingClients(all);
  const closeDialog = () => setDialog({ kind: 'NONE' });
  /**
   * An answer acts on the dialog it belongs to only while that one is still open: the user may have
   * closed it, or opened another, before a slow answer came.
   */
  const whileOpen = (belongs: (current: DialogState) => boolean, next: DialogState) =>
    setDialog((current) => (belongs(current) ? next : current));
  const settingsOf = (clientId: string) => (current: DialogState) =>
    current.kind === 'CLIENT_SETTINGS' && current.client.id === clientId;
  const fail = (error: unknown) => dispatch(showError(errorCodeOf(error)));

  const openSettings = useCallback((client: ClientDto) => setDialog({ kind: 'CLIENT_SETTINGS', client }), []);
  const openDelete = useCallback(
    (client: ClientDto) => setDialog({ kind: 'DELETE_CLIENT_CONFIRM', clientId: client.id }),
    [],
  );
  const { allColumns, waitingColumns } = useClientColumns({ onSettings: openSettings, onDelete: openDelete });

  const { saveSettings, saving } = useSaveClientSettings({
    onSaved: (client) => {
      dispatch(showSuccess('clients.settingsUpdated'));
      whileOpen(settingsOf(client.id), { kind: 'NONE' });
    },
    onFailed: fail,
  });

  return (
    <div className="clients">
      <h1>{t('clients.title')}</h1>
      <div className="stat-grid stat-grid--two">
        <StatCard label={t('clients.totalClients')} value={countOrDash(all.length)} />
        <StatCard
          label={t('clients.waitingClients')}
          value={
            failure
              ? t('common.unavailable')
              : loading
                ? '—'
                : t('clients.ofTotal', { waiting: waiting.length, total: all.length })
          }
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
            failure={failure}
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
            failure={failure}
          />
        )}
        {tab === 2 && logosTab}
      </Tabs>

      {dialog.kind === 'INVITE_CLIENT' && (
        <InviteDialog
          busy={inviting.isLoading}
          invited={dialog.invited ?? null}
          onClose={closeDialog}
          onInvite={async (body) => {
            const result = await invite(body);
            if (result.error) fail(result.error);
            else {
              dispatch(showSuccess('clients.inviteSuccess'));
              const { email, invitationCode } = result.data;
              // the code is shown once, in the dialog; the list never has it
              whileOpen((current) => current.kind === 'INVITE_CLIENT', {
                kind: 'INVITE_CLIENT',
                invited: { email, invitationCode },
              });
            }
          }}
        />
      )}
      {dialog.kind === 'CLIENT_SETTINGS' && (
        <ClientSettingsDialog
          key={dialog.client.endDate}
          client={dialog.client}
          logos={logos}
          busy={saving}
          onClose={closeDialog}
          onSave={(settings) => void saveSettings(dialog.client, settings)}
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
            const { clientId } = dialog;
            const result = await remove(clientId);
            whileOpen(
              (current) => current.kind === 'DELETE_CLIENT_CONFIRM' && current.clientId === clientId,
              { kind: 'NONE' },
            );
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
