import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AidRowDto } from '@rna/domain';
import { formatEuro } from '../../lib/domain-rules';

export const ROW_HEIGHT = 44;
const VIEWPORT_HEIGHT = 560;
const OVERSCAN = 12;

/** Which rows to render for a scroll position: the visible window plus some rows either side. */
export function visibleWindow(
  scrollTop: number,
  total: number,
  viewport = VIEWPORT_HEIGHT,
): { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const end = Math.min(total, Math.ceil((scrollTop + viewport) / ROW_HEIGHT) + OVERSCAN);
  return { start, end };
}

/**
 * All documents, no pagination (SPEC §2). Only the rows in view are in the DOM, with spacer rows keeping the
 * scroll height, so thousands of rows scroll smoothly.
 */
export function DocumentsTable({ rows }: { rows: AidRowDto[] }) {
  const { t } = useTranslation();
  const [scrollTop, setScrollTop] = useState(0);
  const frame = useRef<number | null>(null);
  const { start, end } = visibleWindow(scrollTop, rows.length);

  const onScroll = (event: React.UIEvent<HTMLDivElement>) => {
    const top = event.currentTarget.scrollTop;
    if (frame.current !== null) cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => setScrollTop(top));
  };

  return (
    <div className="card documents-table">
      <div
        className="documents-table__scroll"
        style={{ maxHeight: VIEWPORT_HEIGHT }}
        onScroll={onScroll}
        tabIndex={0}
        aria-label={t('documents.tableTitle')}
        role="region"
      >
        <table className="table table--fixed" aria-rowcount={rows.length + 1}>
          <caption className="visually-hidden">{t('documents.tableTitle')}</caption>
          <thead>
            <tr>
              <th scope="col" style={{ width: '18%' }}>
                {t('columns.grantDate')}
              </th>
              <th scope="col">{t('columns.procedureDescription')}</th>
              <th scope="col" style={{ width: '22%' }} className="numeric">
                {t('columns.aidElement')}
              </th>
            </tr>
          </thead>
          <tbody>
            {start > 0 && <tr aria-hidden="true" style={{ height: start * ROW_HEIGHT }} />}
            {rows.slice(start, end).map((row, i) => (
              <tr key={row.id} style={{ height: ROW_HEIGHT }} aria-rowindex={start + i + 2}>
                <td>{row.dataConcessione}</td>
                <td className="ellipsis" title={row.titoloMisura}>
                  {row.isDeMinimis ? t('documents.deMinimisProcedure') : row.desProcedimento}
                </td>
                <td className="numeric">{formatEuro(row.elementoDiAiuto)}</td>
              </tr>
            ))}
            {end < rows.length && (
              <tr aria-hidden="true" style={{ height: (rows.length - end) * ROW_HEIGHT }} />
            )}
            {rows.length === 0 && (
              <tr>
                <td colSpan={3} className="table__empty">
                  {t('documents.noDocuments')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
