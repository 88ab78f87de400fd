import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArchiveFileDto, RegisterRecordRejection } from '@rna/domain';
import { Dialog } from '../../components/dialog';
import { Table, type Column } from '../../components/table';
import { formatInteger } from '../../lib/domain-rules';
import { displayName } from './file-status';

/** A listed rejection and its place in the list (a broken file may repeat an id). */
type Row = RegisterRecordRejection & { position: number };

/**
 * The records a file's last import rejected, with their reasons: the server lists the first 100, the count is
 * whole. The reason is the catalogue's label; the detail is the server's message, which quotes the bad value.
 */
export function RejectedRecordsDialog({ file, onClose }: { file: ArchiveFileDto; onClose: () => void }) {
  const { t } = useTranslation();
  const columns = useMemo<Column<Row>[]>(
    () => [
      {
        key: 'id',
        header: t('sync.rejectedId'),
        render: (r) => r.idComponenteAiuto,
        sortValue: (r) => r.idComponenteAiuto,
      },
      {
        key: 'reason',
        header: t('sync.rejectedReason'),
        render: (r) => t(`sync.rejectionReason.${r.reason}`),
        sortValue: (r) => r.reason,
      },
      { key: 'detail', header: t('sync.rejectedDetail'), render: (r) => r.message },
    ],
    [t],
  );
  const rows = useMemo(() => file.rejected.map((r, position) => ({ ...r, position })), [file.rejected]);
  const count = file.recordsRejected;
  return (
    <Dialog title={t('sync.rejectedTitle', { name: displayName(file.name) })} onClose={onClose} size="large">
      <p>
        {t('sync.rejectedIntro', { count, formatted: formatInteger(count) })}
        {count > file.rejected.length && ` ${t('sync.rejectedListed', { listed: file.rejected.length })}`}
      </p>
      <Table
        caption={t('sync.rejectedCaption')}
        columns={columns}
        rows={rows}
        rowKey={(r) => String(r.position)}
      />
    </Dialog>
  );
}
