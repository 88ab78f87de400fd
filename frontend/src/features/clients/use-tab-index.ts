import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { parseTabIndex } from './client-rules';

/** The selected tab lives in ?tabIndex so that it survives reloads and can be linked. */
export function useTabIndexParam(tabCount: number): [number, (index: number) => void] {
  const [params, setParams] = useSearchParams();
  const tab = parseTabIndex(params.get('tabIndex'), tabCount);
  const select = useCallback(
    (index: number) =>
      setParams((current) => {
        const next = new URLSearchParams(current);
        next.set('tabIndex', String(index));
        return next;
      }),
    [setParams],
  );
  return [tab, select];
}
