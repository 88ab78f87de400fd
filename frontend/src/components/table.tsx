import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadError, type LoadFailure } from './load-error';
import { Pager } from './pager';

export type SortDirection = 'asc' | 'desc' | null;

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** value used for sorting; the column is not sortable without it */
  sortValue?: (row: T) => string | number | null;
  width?: string;
}

/** ascending → descending → none */
export function nextSortDirection(current: SortDirection): SortDirection {
  return current === null ? 'asc' : current === 'asc' ? 'desc' : null;
}

export function sortRows<T>(
  rows: readonly T[],
  column: Column<T> | undefined,
  direction: SortDirection,
): T[] {
  if (!column?.sortValue || direction === null) return [...rows];
  const value = column.sortValue;
  const factor = direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === vb) return 0;
    if (va === null) return 1;
    if (vb === null) return -1;
    if (typeof va === 'number' && typeof vb === 'number') return (va - vb) * factor;
    return String(va).localeCompare(String(vb), 'it') * factor;
  });
}

export const SIGNED_IN_PAGE_SIZE = 12;
export const SKELETON_ROWS = 5;

interface TableProps<T> {
  caption: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  loading?: boolean;
  pageSize?: number;
  emptyText?: string;
  /** the rows could not be loaded: said in the table, with a retry, instead of "no data" */
  failure?: LoadFailure | null;
}

/** Sortable, paged table; 5 skeleton rows while loading. */
export function Table<T>({
  caption,
  columns,
  rows,
  rowKey,
  loading,
  pageSize = 10,
  emptyText,
  failure,
}: TableProps<T>) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<{ key: string | null; direction: SortDirection }>({
    key: null,
    direction: null,
  });
  const [page, setPage] = useState(0);

  const sorted = useMemo(
    () =>
      sortRows(
        rows,
        columns.find((c) => c.key === sort.key),
        sort.direction,
      ),
    [rows, columns, sort],
  );
  const pageCount = Math.ceil(sorted.length / pageSize);
  // a filter that leaves fewer pages than the one shown goes back to the first, never to an empty page
  useEffect(() => {
    if (page > 0 && page >= pageCount) setPage(0);
  }, [page, pageCount]);
  const visible = sorted.slice(page * pageSize, page * pageSize + pageSize);

  const toggleSort = (key: string) => {
    setSort((current) => {
      const direction = nextSortDirection(current.key === key ? current.direction : null);
      return { key: direction ? key : null, direction };
    });
    setPage(0);
  };
  const onPageChange = useCallback((next: number) => setPage(next), []);

  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const direction = sort.key === column.key ? sort.direction : null;
              return (
                <th
                  key={column.key}
                  scope="col"
                  style={{ width: column.width, minWidth: '3%' }}
                  aria-sort={
                    direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined
                  }
                >
                  {column.sortValue ? (
                    <button type="button" className="table__sort" onClick={() => toggleSort(column.key)}>
                      {column.header}
                      <span aria-hidden="true" className="table__sort-icon">
                        {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
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
          {loading
            ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <tr key={`skeleton-${i}`} className="table__skeleton" aria-hidden="true">
                  {columns.map((column) => (
                    <td key={column.key}>
                      <span className="skeleton" />
                    </td>
                  ))}
                </tr>
              ))
            : visible.map((row) => (
                <tr key={rowKey(row)}>
                  {columns.map((column) => (
                    <td key={column.key} data-label={column.header}>
                      {column.render(row)}
                    </td>
                  ))}
                </tr>
              ))}
          {!loading && failure && (
            <tr>
              <td colSpan={columns.length} className="table__empty">
                <LoadError failure={failure} compact />
              </td>
            </tr>
          )}
          {!loading && !failure && rows.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="table__empty">
                {emptyText ?? t('common.noData')}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {!loading && pageCount > 1 && <Pager page={page} pageCount={pageCount} onPageChange={onPageChange} />}
    </div>
  );
}
