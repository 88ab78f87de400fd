import { useTranslation } from 'react-i18next';
import type { CodeSourceDto, SearchResultDto } from '@rna/domain';
import { formatDateTime } from '../../lib/domain-rules';

/** The catalogue key that says where one code's rows come from. */
export function codeSourceKey(source: CodeSourceDto): string {
  if (source.source === 'LIVE') return 'documents.source.live';
  if (source.asOf === null) return 'documents.source.noArchive';
  if (source.liveFallback === 'PACED') return 'documents.source.paced';
  if (source.liveFallback === 'UNAVAILABLE') return 'documents.source.unavailable';
  return 'documents.source.archive';
}

/**
 * In live mode, where each code's rows come from: the register answered, or it asks callers to pause
 * (or did not answer) and the rows are the archive's of a given date. The archive mode says its
 * date in the last-update banner already.
 */
export function DataSourcesNotice({ result }: { result: Pick<SearchResultDto, 'dataSource' | 'sources'> }) {
  const { t } = useTranslation();
  if (result.dataSource !== 'LIVE' || !result.sources?.length) return null;
  const fellBack = result.sources.some((source) => source.source !== 'LIVE');
  // what the live answers leave out, once for the whole search (every live answer lacks the same)
  const missing = [...new Set(result.sources.flatMap((source) => source.missingFields ?? []))];
  return (
    <section
      className={`card source-notice${fellBack ? ' source-notice--fallback' : ''}`}
      role="status"
      aria-label={t('documents.source.title')}
    >
      <h2>{t('documents.source.title')}</h2>
      <ul>
        {result.sources.map((source) => (
          <li key={source.taxCode}>
            {t(codeSourceKey(source), { code: source.taxCode, at: formatDateTime(source.asOf) })}
          </li>
        ))}
      </ul>
      {missing.length > 0 && (
        <p className="muted">
          {t('documents.source.liveMissing', {
            fields: missing.map((field) => t(`documents.source.missingField.${field}`)).join(', '),
          })}
        </p>
      )}
      {fellBack && <p className="muted">{t('documents.source.retryHint')}</p>}
    </section>
  );
}
