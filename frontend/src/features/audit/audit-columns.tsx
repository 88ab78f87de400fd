import { useMemo } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { AuditEntryDto } from '@rna/domain';
import type { Column } from '../../components/table';
import { formatDate, formatDateTime, formatInteger } from '../../lib/domain-rules';

/** The lines of a history: what happened, who did it, on what, at what cost, and what was left after. */
export function useAuditColumns(): Column<AuditEntryDto>[] {
  const { t } = useTranslation();
  return useMemo<Column<AuditEntryDto>[]>(
    () => [
      { key: 'at', header: t('audit.at'), render: (e) => formatDateTime(e.at), sortValue: (e) => e.at },
      {
        key: 'kind',
        header: t('audit.kind'),
        render: (e) => t(`audit.kinds.${e.kind}`),
        sortValue: (e) => e.kind,
      },
      { key: 'by', header: t('audit.by'), render: (e) => actorOf(e.by, t), sortValue: (e) => e.by.email },
      {
        key: 'codes',
        header: t('audit.codes'),
        render: (e) => <TaxCodes codes={e.taxCodes} />,
        sortValue: (e) => e.taxCodes.length,
      },
      {
        key: 'results',
        header: t('audit.results'),
        render: (e) => (e.resultCount === null ? t('common.unavailable') : formatInteger(e.resultCount)),
      },
      {
        key: 'cost',
        header: t('audit.cost'),
        render: (e) => formatInteger(e.cost),
        sortValue: (e) => e.cost,
      },
      { key: 'detail', header: t('audit.detail'), render: (e) => detailOf(e, t) },
      {
        key: 'remaining',
        header: t('audit.remainingAfter'),
        render: (e) => formatInteger(e.remainingSearches),
        sortValue: (e) => e.remainingSearches,
      },
    ],
    [t],
  );
}

/** Up to this many codes are read at a glance; more (a multiple search) fold into a count. */
const INLINE_CODES = 3;

/** A few codes in line; many as their count, which opens on the whole list. */
function TaxCodes({ codes }: { codes: readonly string[] }) {
  const { t } = useTranslation();
  if (codes.length === 0) return t('common.unavailable');
  if (codes.length <= INLINE_CODES) return codes.join(', ');
  return (
    <details className="audit__codes">
      <summary>{t('audit.codesCount', { count: codes.length })}</summary>
      <ul className="audit__code-list">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </details>
  );
}

/** 'mario@studio.it (Cliente)': the address the auditor knows, never an id; the system by its role alone. */
function actorOf({ email, role }: AuditEntryDto['by'], t: TFunction): string {
  const roleLabel = t(`audit.roles.${role}`);
  return role === 'SYSTEM' || !email ? roleLabel : t('audit.actor', { email, role: roleLabel });
}

function detailOf(entry: AuditEntryDto, t: TFunction): string {
  if (entry.allowance)
    return t('audit.allowanceDetail', {
      remaining: formatInteger(entry.allowance.remainingSearches),
      yearly: formatInteger(entry.allowance.availableYearlySearches),
      date: formatDate(entry.allowance.endDate),
    });
  if (entry.kind === 'REFUSAL' && entry.detail) return `${entry.detail}: ${t(`errors.${entry.detail}`)}`;
  if (entry.kind === 'DOWNLOAD' && entry.detail) return t(`audit.downloads.${entry.detail}`);
  if (entry.kind === 'SEARCH' && entry.dataSource) return t(`audit.sources.${entry.dataSource}`);
  return entry.detail ?? t('common.unavailable');
}
