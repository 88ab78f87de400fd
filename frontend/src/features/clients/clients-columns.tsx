import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientDto } from '@rna/domain';
import type { Column } from '../../components/table';
import { clientStatusLabel, formatDate, formatDateTime } from '../../lib/domain-rules';

export function StatusBadge({ client }: { client: Pick<ClientDto, 'active' | 'endDate'> }) {
  const label = clientStatusLabel(client);
  const tone = label === 'Scaduto' ? 'danger' : label === 'Attivo' ? 'success' : 'warning';
  return <span className={`badge badge--${tone}`}>{label}</span>;
}

/** The columns of the two client lists; the actions open the dialogs the page owns. */
export function useClientColumns({
  onSettings,
  onDelete,
}: {
  onSettings: (client: ClientDto) => void;
  onDelete: (client: ClientDto) => void;
}) {
  const { t } = useTranslation();
  // the invitation code is never shown here: only whether the client chose its password yet
  const invitationColumn = useMemo<Column<ClientDto>>(
    () => ({
      key: 'invitation',
      header: t('columns.invitation'),
      render: (c) =>
        c.active
          ? t('clients.firstSignInDone')
          : t('clients.awaitingFirstSignIn', { date: formatDate(c.invitedAt) }),
      sortValue: (c) => c.invitedAt,
    }),
    [t],
  );
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
      invitationColumn,
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
        key: 'searches',
        header: t('columns.searches'),
        // what is left of the year's allowance, beside the allowance itself
        render: (c) =>
          t('clients.searchesLeft', { remaining: c.remainingSearches, yearly: c.availableYearlySearches }),
        sortValue: (c) => c.remainingSearches,
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
              onClick={() => onSettings(c)}
            >
              {t('clients.settings')}
            </button>
            <button
              type="button"
              className="button button--danger-quiet button--small"
              aria-label={t('clients.deleteClient', { email: c.email })}
              onClick={() => onDelete(c)}
            >
              {t('common.delete')}
            </button>
          </span>
        ),
      },
    ],
    [t, invitationColumn, onSettings, onDelete],
  );
  const waitingColumns = useMemo<Column<ClientDto>[]>(
    () => [
      // who is waiting leads the row: the e-mail the invitation went to, not an internal id
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
      invitationColumn,
    ],
    [t, invitationColumn],
  );

  return { allColumns, waitingColumns };
}
