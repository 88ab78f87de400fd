import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatEuro } from '../../lib/domain-rules';
import {
  aidDetails,
  nextAidDetailSort,
  NEWEST_FIRST,
  sortAidDetails,
  type AidDetail,
  type AidDetailsAnswer,
  type AidDetailSort,
  type AidDetailSortKey,
} from './aid-details';
import {
  LABELLED_ROW_HEIGHT,
  SpacerRow,
  useScrollTop,
  VIEWPORT_HEIGHT,
  visibleWindow,
} from './documents-table';

/**
 * Two lines (a name and its code, a regulation's code and text) like a labelled summary row; every row
 * the same height, so that the window knows where each one is.
 */
export const DETAIL_ROW_HEIGHT = LABELLED_ROW_HEIGHT;

interface DetailColumn {
  id: string;
  header: string;
  /** px: the table is wider than a phone and scrolls sideways, its first column staying in view */
  width: number;
  sortKey?: AidDetailSortKey;
  numeric?: boolean;
  render: (row: AidDetail) => ReactNode;
  /** the cell's full text, for a cut one */
  title?: (row: AidDetail) => string;
}

/** An amount column: "999.999.999,99 €" whole, never cut to an ellipsis. */
const AMOUNT_WIDTH = 170;

/** A column of one text, cut to its width, the whole text in the cell's title. */
function textColumn(
  id: string,
  header: string,
  width: number,
  text: (row: AidDetail) => string,
  sortKey?: AidDetailSortKey,
): DetailColumn {
  return { id, header, width, sortKey, render: text, title: text };
}

/** The first column stays in view while the table scrolls sideways; amounts align right. */
function cellClass(index: number, column: DetailColumn, base?: string): string | undefined {
  const names = [base, index === 0 && 'aid-details__sticky', column.numeric && 'numeric'].filter(Boolean);
  return names.length > 0 ? names.join(' ') : undefined;
}

/** A main line and, under it, a smaller one (left out when empty). */
function TwoLines({ main, sub }: { main: string; sub: string }) {
  return (
    <>
      <span className="aid-details__line">{main}</span>
      {sub && <span className="documents-table__who">{sub}</span>}
    </>
  );
}

/**
 * "Dettaglio aiuti": every aid with its references (COR, CAR, CUP), granting body, regulation and both
 * amounts, sortable by its headers, newest first to begin with. Only the rows in view are in the DOM.
 */
export function AidDetailsTable({ answer }: { answer: AidDetailsAnswer }) {
  const { t } = useTranslation();
  const details = useMemo(() => aidDetails(answer), [answer]);
  const [sort, setSort] = useState<AidDetailSort>(NEWEST_FIRST);
  const sorted = useMemo(() => sortAidDetails(details, sort), [details, sort]);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, onScroll, setScrollTop] = useScrollTop();
  const { start, end } = visibleWindow(scrollTop, sorted.length, VIEWPORT_HEIGHT, DETAIL_ROW_HEIGHT);

  const columns: DetailColumn[] = [
    {
      id: 'grantDate',
      header: t('columns.grantDate'),
      width: 118,
      sortKey: 'grantDate',
      render: (row) => row.dataConcessione,
    },
    {
      id: 'beneficiary',
      header: t('columns.beneficiary'),
      width: 220,
      sortKey: 'beneficiary',
      render: (row) => <TwoLines main={row.beneficiary.name} sub={row.beneficiary.taxCode} />,
      title: (row) => `${row.beneficiary.name} ${row.beneficiary.taxCode}`,
    },
    textColumn('grantor', t('columns.provider'), 200, (row) => row.soggettoConcedente, 'grantor'),
    textColumn('measure', t('columns.measureTitle'), 240, (row) => row.titoloMisura, 'measure'),
    textColumn('project', t('columns.projectTitle'), 240, (row) => row.titoloProgetto),
    textColumn(
      'procedure',
      t('columns.procedureDescription'),
      190,
      (row) => row.desProcedimento,
      'procedure',
    ),
    {
      id: 'regulation',
      header: t('columns.regulation'),
      width: 230,
      sortKey: 'regulation',
      render: (row) => (
        <TwoLines
          main={row.regulation.code || row.regulation.text}
          sub={row.regulation.code ? row.regulation.text : ''}
        />
      ),
      title: (row) => `${row.regulation.code} ${row.regulation.text}`.trim(),
    },
    { id: 'cor', header: t('columns.cor'), width: 100, render: (row) => row.cor },
    // one concession (COR) may have several components: the component is what a row is
    {
      id: 'component',
      header: t('columns.componentId'),
      width: 130,
      render: (row) => row.idComponenteAiuto,
    },
    { id: 'car', header: t('columns.car'), width: 90, render: (row) => row.car },
    { id: 'cup', header: t('columns.cup'), width: 170, render: (row) => row.cup },
    {
      id: 'nominalAmount',
      header: t('columns.nominalAmount'),
      width: AMOUNT_WIDTH,
      sortKey: 'nominalAmount',
      numeric: true,
      render: (row) => formatEuro(row.importoNominale),
    },
    {
      id: 'aidElement',
      header: t('columns.aidElement'),
      width: AMOUNT_WIDTH,
      sortKey: 'aidElement',
      numeric: true,
      render: (row) => formatEuro(row.elementoDiAiuto),
    },
  ];
  const tableWidth = columns.reduce((sum, column) => sum + column.width, 0);

  const sortBy = (key: AidDetailSortKey) => {
    setSort((current) => nextAidDetailSort(current, key));
    // the new order is read from its top
    if (scroller.current) scroller.current.scrollTop = 0;
    setScrollTop(0);
  };

  return (
    <div className="card documents-table aid-details">
      <div
        ref={scroller}
        className="documents-table__scroll aid-details__scroll"
        style={{ maxHeight: VIEWPORT_HEIGHT }}
        onScroll={onScroll}
        tabIndex={0}
        aria-label={t('documents.detailsTitle')}
        role="region"
      >
        <table className="table table--fixed" style={{ width: tableWidth }} aria-rowcount={sorted.length + 1}>
          <caption className="visually-hidden">{t('documents.detailsTitle')}</caption>
          <colgroup>
            {columns.map((column) => (
              <col key={column.id} style={{ width: column.width }} />
            ))}
          </colgroup>
          <thead>
            <tr aria-rowindex={1}>
              {columns.map((column, index) => {
                const active = column.sortKey !== undefined && sort.key === column.sortKey;
                return (
                  <th
                    key={column.id}
                    scope="col"
                    className={cellClass(index, column)}
                    aria-sort={active ? sort.direction : undefined}
                  >
                    {column.sortKey ? (
                      <button
                        type="button"
                        className="table__sort"
                        onClick={() => column.sortKey && sortBy(column.sortKey)}
                      >
                        {column.header}
                        <span aria-hidden="true" className="table__sort-icon">
                          {active ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
                        </span>
                      </button>
                    ) : (
                      column.header
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            <SpacerRow rows={start} rowHeight={DETAIL_ROW_HEIGHT} />
            {sorted.slice(start, end).map((row, i) => (
              <tr key={row.key} style={{ height: DETAIL_ROW_HEIGHT }} aria-rowindex={start + i + 2}>
                {columns.map((column, index) => (
                  <td
                    key={column.id}
                    className={cellClass(index, column, 'aid-details__cell')}
                    title={column.title?.(row) || undefined}
                  >
                    {column.render(row)}
                  </td>
                ))}
              </tr>
            ))}
            <SpacerRow rows={sorted.length - end} rowHeight={DETAIL_ROW_HEIGHT} />
            {sorted.length === 0 && (
              <tr>
                <td colSpan={columns.length} className="table__empty">
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
