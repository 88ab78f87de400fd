import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export const MAX_PAGE_NUMBERS = 5;

/** Up to five page indexes centred on the current one. */
export function visiblePages(page: number, pageCount: number, max: number = MAX_PAGE_NUMBERS): number[] {
  if (pageCount <= 0) return [];
  const count = Math.min(max, pageCount);
  const start = Math.min(Math.max(0, page - Math.floor(count / 2)), pageCount - count);
  return Array.from({ length: count }, (_, i) => start + i);
}

interface PagerProps {
  /** zero-based */
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
}

export function Pager({ page, pageCount, onPageChange }: PagerProps) {
  const { t } = useTranslation();
  useEffect(() => {
    // out of range (e.g. after filtering): back to the first page
    if (page !== 0 && (page < 0 || page >= pageCount)) onPageChange(0);
  }, [page, pageCount, onPageChange]);

  if (pageCount <= 0) return null;
  const last = pageCount - 1;
  return (
    <nav className="pager" aria-label={t('pager.label')}>
      <span className="pager__status">
        {t('pager.pageOf', { page: Math.min(page, last) + 1, total: pageCount })}
      </span>
      <button
        type="button"
        className="pager__button"
        onClick={() => onPageChange(0)}
        disabled={page <= 0}
        aria-label={t('pager.first')}
      >
        «
      </button>
      <button
        type="button"
        className="pager__button"
        onClick={() => onPageChange(page - 1)}
        disabled={page <= 0}
        aria-label={t('pager.previous')}
      >
        ‹
      </button>
      {visiblePages(page, pageCount).map((index) => (
        <button
          key={index}
          type="button"
          className={`pager__button${index === page ? ' pager__button--current' : ''}`}
          aria-current={index === page ? 'page' : undefined}
          aria-label={t('pager.goTo', { page: index + 1 })}
          onClick={() => onPageChange(index)}
        >
          {index + 1}
        </button>
      ))}
      <button
        type="button"
        className="pager__button"
        onClick={() => onPageChange(page + 1)}
        disabled={page >= last}
        aria-label={t('pager.next')}
      >
        ›
      </button>
      <button
        type="button"
        className="pager__button"
        onClick={() => onPageChange(last)}
        disabled={page >= last}
        aria-label={t('pager.last')}
      >
        »
      </button>
    </nav>
  );
}
