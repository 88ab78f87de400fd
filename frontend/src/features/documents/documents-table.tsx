import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SearchAnswerDto } from '@rna/domain';
import { formatEuro } from '../../lib/domain-rules';
import { NARROW_QUERY, useMediaQuery } from '../../lib/use-media-query';

export const ROW_HEIGHT = 44;
/** a row that also says whose aid it is takes a second line */
export const LABELLED_ROW_HEIGHT = 64;
/**
 * At 768 px or less a row is a card: the procedure on up to two lines, then the date and the amount, each
 * under its label; up to two more lines when the card says whose aid it is (a long name and its tax code).
 */
export const CARD_ROW_HEIGHT = 116;
export const LABELLED_CARD_ROW_HEIGHT = 160;
export const VIEWPORT_HEIGHT = 560;
const OVERSCAN = 12;

/** Which rows to render for a scroll position: the visible window plus some rows either side. */
export function visibleWindow(
  scrollTop: number,
  total: number,
  viewport = VIEWPORT_HEIGHT,
  rowHeight = ROW_HEIGHT,
): { start: number; end: number } {
  const start = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const end = Math.min(total, Math.ceil((scrollTop + viewport) / rowHeight) + OVERSCAN);
  return { start, end };
}

/** The scroll position of a windowed table's scroll container, read once per animation frame. */
/** The height of `rows` rows out of view, so that the scroll bar tells the whole table (none: nothing). */
export function SpacerRow({ rows, rowHeight }: { rows: number; rowHeight: number }) {
  return rows > 0 ? <tr aria-hidden="true" style={{ height: rows * rowHeight }} /> : null;
}

export function useScrollTop(): [number, (event: React.UIEvent<HTMLElement>) => void, (top: number) => void] {
  const [scrollTop, setScrollTop] = useState(0);
  const frame = useRef<number | null>(null);
  const onScroll = useCallback((event: React.UIEvent<HTMLElement>) => {
    const top = event.currentTarget.scrollTop;
    if (frame.current !== null) cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => setScrollTop(top));
  }, []);
  return [scrollTop, onScroll, setScrollTop];
}

interface DocumentsTableProps {
  /** the rows, and the measure titles and beneficiaries they point at */
  answer: Pick<SearchAnswerDto, 'rows' | 'measures' | 'beneficiaries'>;
  /** several companies searched: every row says whose it is (a column, or a label on narrow screens) */
  showBeneficiary?: boolean;
}

/**
 * All documents, no pagination (SPEC §2). Only the rows in view are in the DOM, with spacer rows keeping the
 * scroll height, so thousands of rows scroll smoothly. On a phone each row is a card (labels from the
 * cells' data-label): three columns cut the date to three lines and the amount short at 390 px.
 */
export function DocumentsTable({ answer, showBeneficiary = false }: DocumentsTableProps) {
  const { t } = useTranslation();
  const { rows, measures, beneficiaries } = answer;
  const narrow = useMediaQuery(NARROW_QUERY);
  const [scrollTop, onScroll] = useScrollTop();
  const beneficiaryColumn = showBeneficiary && !narrow;
  const beneficiaryLabel = showBeneficiary && narrow;
  const rowHeight = narrow
    ? showBeneficiary
      ? LABELLED_CARD_ROW_HEIGHT
      : CARD_ROW_HEIGHT
    : showBeneficiary
      ? LABELLED_ROW_HEIGHT
      : ROW_HEIGHT;
  const { start, end } = visibleWindow(scrollTop, rows.length, VIEWPORT_HEIGHT, rowHeight);
  const columns = beneficiaryColumn ? 4 : 3;

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
        <table
          className={`table table--fixed${narrow ? ' documents-table--cards' : ''}`}
          aria-rowcount={rows.length + 1}
        >
          <caption className="visually-hidden">{t('documents.tableTitle')}</caption>
          <thead>
            <tr>
              <th scope="col" style={{ width: beneficiaryColumn ? '15%' : '18%' }}>
                {t('columns.grantDate')}
              </th>
              {beneficiaryColumn && (
                <th scope="col" style={{ width: '30%' }}>
                  {t('columns.beneficiary')}
                </th>
              )}
              <th scope="col">{t('columns.procedureDescription')}</th>
              <th scope="col" style={{ width: '20%' }} className="numeric">
                {t('columns.aidElement')}
              </th>
            </tr>
          </thead>
          <tbody>
            <SpacerRow rows={start} rowHeight={rowHeight} />
            {rows.slice(start, end).map((row, i) => {
              const title = measures[row.measure] ?? '';
              const beneficiary = beneficiaries[row.beneficiary] ?? { taxCode: '', name: '' };
              return (
                <tr
                  key={`${row.idComponenteAiuto}-${start + i}`}
                  style={{ height: rowHeight }}
                  aria-rowindex={start + i + 2}
                >
                  <td className="documents-table__date" data-label={t('columns.grantDate')}>
                    {row.dataConcessione}
                  </td>
                  {beneficiaryColumn && (
                    <td className="ellipsis" title={beneficiary.name}>
                      {beneficiary.name}
                      <span className="documents-table__who">{beneficiary.taxCode}</span>
                    </td>
                  )}
                  <td className="ellipsis documents-table__what" title={title}>
                    {beneficiaryLabel && (
                      <span className="documents-table__who">
                        {t('documents.rowOf', { name: beneficiary.name, code: beneficiary.taxCode })}
                      </span>
                    )}
                    <span className="documents-table__procedure">
                      {row.isDeMinimis ? t('documents.deMinimisProcedure') : row.desProcedimento}
                    </span>
                  </td>
                  <td className="numeric documents-table__amount" data-label={t('columns.aidElement')}>
                    {formatEuro(row.elementoDiAiuto)}
                  </td>
                </tr>
              );
            })}
            <SpacerRow rows={rows.length - end} rowHeight={rowHeight} />
            {rows.length === 0 && (
              <tr>
                <td colSpan={columns} className="table__empty">
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
