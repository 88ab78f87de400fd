import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { BulkPreviewDto, ErrorCode } from '@rna/domain';
import { formatInteger } from '../../lib/domain-rules';

interface BulkPreviewProps {
  preview: BulkPreviewDto;
  isAdmin: boolean;
  /** another column was picked: null = the first one */
  onColumn: (column: string | null) => void;
  onConfirm: () => void;
  onCancel: () => void;
  /** a preview with another column, or the confirmation, is under way */
  busy: boolean;
  starting: boolean;
  /** why the confirmation was refused (a catalogue code), or null */
  problem: ErrorCode | null;
}

/** What the list holds and what it costs; the heading takes the focus when a preview arrives. */
export function BulkPreview({
  preview,
  isAdmin,
  onColumn,
  onConfirm,
  onCancel,
  busy,
  starting,
  problem,
}: BulkPreviewProps) {
  const { t } = useTranslation();
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const name = preview.sourceName || t('bulk.pastedList');
  const unaffordableId = `${ids}-unaffordable`;
  const problemId = `${ids}-problem`;

  useEffect(() => {
    heading.current?.focus();
  }, [preview]);

  const free = isAdmin || preview.cost === 0;
  const moreIgnored = preview.ignoredCount - preview.ignored.length;
  const describedBy = [!preview.affordable && unaffordableId, problem && problemId].filter(Boolean).join(' ');

  return (
    <section className="card bulk-preview" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} ref={heading} tabIndex={-1}>
        {t('bulk.previewTitle', { name })}
      </h2>
      <dl className="bulk-preview__figures">
        <div>
          <dt>{t('bulk.codes')}</dt>
          <dd>{formatInteger(preview.taxCodes.length)}</dd>
        </div>
        <div>
          <dt>{t('bulk.duplicates')}</dt>
          <dd>{formatInteger(preview.duplicates)}</dd>
        </div>
        <div>
          <dt>{t('bulk.ignoredCount')}</dt>
          <dd>{formatInteger(preview.ignoredCount)}</dd>
        </div>
        <div>
          <dt>{t('bulk.newToday')}</dt>
          <dd>{formatInteger(preview.newToday)}</dd>
        </div>
        {preview.remainingSearches !== null && (
          <div>
            <dt>{t('bulk.remaining')}</dt>
            <dd>{formatInteger(preview.remainingSearches)}</dd>
          </div>
        )}
      </dl>

      <div className="bulk-preview__cost">
        {free ? (
          <>
            <strong>{t('bulk.free')}</strong>
            <span className="muted">{isAdmin ? t('bulk.freeAdmin') : t('bulk.freeToday')}</span>
          </>
        ) : (
          <strong>
            {t('bulk.costLine', { count: preview.cost, formatted: formatInteger(preview.cost) })}
          </strong>
        )}
      </div>

      {preview.columns.length > 0 && (
        <div className="field bulk-preview__column">
          <label htmlFor={`${ids}-column`}>{t('bulk.column')}</label>
          <select
            id={`${ids}-column`}
            value={preview.column ?? ''}
            disabled={busy || starting}
            onChange={(event) => onColumn(event.target.value === '' ? null : event.target.value)}
          >
            <option value="">{t('bulk.firstColumn')}</option>
            {preview.columns.map((column) => (
              <option key={column} value={column}>
                {column}
              </option>
            ))}
          </select>
        </div>
      )}

      {preview.warnings.length > 0 && (
        <div className="bulk-preview__list field__warning" role="note">
          <h3>{t('bulk.warningsTitle')}</h3>
          <ul aria-label={t('bulk.warningsTitle')}>
            {preview.warnings.map((warning) => (
              <li key={warning.taxCode}>{warning.taxCode}</li>
            ))}
          </ul>
        </div>
      )}

      {preview.ignoredCount > 0 && (
        <div className="bulk-preview__list">
          <h3>{t('bulk.ignoredTitle')}</h3>
          <ul aria-label={t('bulk.ignoredTitle')}>
            {preview.ignored.map((entry, index) => (
              <li key={`${index}-${entry}`}>{entry}</li>
            ))}
            {moreIgnored > 0 && (
              <li className="muted">
                {t('bulk.ignoredMore', { count: moreIgnored, formatted: formatInteger(moreIgnored) })}
              </li>
            )}
          </ul>
        </div>
      )}

      {!preview.affordable && (
        <p id={unaffordableId} className="field__error">
          <span>{t('errors.U004')}</span>{' '}
          <span>
            {t('bulk.unaffordable', {
              remaining: formatInteger(preview.remainingSearches ?? 0),
              cost: formatInteger(preview.cost),
            })}
          </span>
        </p>
      )}
      {problem && (
        <p id={problemId} className="field__error" role="alert">
          {t(`errors.${problem}`)}
        </p>
      )}

      <p className="muted">{t('bulk.leaveHint')}</p>
      <div className="bulk-preview__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={!preview.affordable || busy || starting}
          aria-describedby={describedBy || undefined}
          onClick={onConfirm}
        >
          {starting ? t('bulk.starting') : t('bulk.start')}
        </button>
        <button type="button" className="button button--secondary" disabled={starting} onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </section>
  );
}
