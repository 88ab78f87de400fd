import { useTranslation } from 'react-i18next';
import type { CodeSummaryDto } from '@rna/domain';
import { formatEuro, formatInteger } from '../../lib/domain-rules';

/**
 * A search of several companies: each one's own aids, total and de minimis used and left, so one
 * company's allowance is never read off the combined cards.
 */
export function CodeSummaries({ summaries }: { summaries: readonly CodeSummaryDto[] }) {
  const { t } = useTranslation();
  return (
    <div className="card table-wrap code-summaries">
      <table className="table">
        <caption>{t('documents.perCodeTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('columns.taxCode')}</th>
            <th scope="col">{t('columns.beneficiary')}</th>
            <th scope="col" className="numeric">
              {t('documents.perCodeAids')}
            </th>
            <th scope="col" className="numeric">
              {t('documents.perCodeTotal')}
            </th>
            <th scope="col" className="numeric">
              {t('documents.perCodeUsed')}
            </th>
            <th scope="col" className="numeric">
              {t('documents.perCodeRemaining')}
            </th>
          </tr>
        </thead>
        <tbody>
          {summaries.map((summary) => (
            <tr key={summary.taxCode}>
              <th scope="row" data-label={t('columns.taxCode')}>
                {summary.taxCode}
              </th>
              <td data-label={t('columns.beneficiary')}>
                {summary.name || <span className="muted">{t('documents.unknownBeneficiary')}</span>}
              </td>
              <td className="numeric" data-label={t('documents.perCodeAids')}>
                {formatInteger(summary.totalDocuments)}
              </td>
              <td className="numeric" data-label={t('documents.perCodeTotal')}>
                {formatEuro(summary.totalImport)}
              </td>
              <td className="numeric" data-label={t('documents.perCodeUsed')}>
                {formatEuro(summary.deMinimisUsed)}
              </td>
              <td
                className={`numeric${summary.remainingDeMinimis < 0 ? ' danger' : ''}`}
                data-label={t('documents.perCodeRemaining')}
              >
                {/* one value beside its label on a phone: the amount whole, the words under it */}
                <span>
                  {formatEuro(summary.remainingDeMinimis)}
                  {summary.remainingDeMinimis < 0 && (
                    <span className="code-summaries__exceeded"> ({t('documents.perCodeExceeded')})</span>
                  )}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
