import type { ErrorCode } from '@rna/domain';
import type { SearchQuery } from '../components/search-form';

/**
 * Refusals after which searching again cannot help (no searches left, subscription expired): the
 * search is abandoned for the home page, which says why and stays there instead of redirecting.
 */
const HOME_REFUSALS = new Set<ErrorCode>(['U004', 'A002']);

export const isHomeRefusal = (code: ErrorCode | null): boolean => code !== null && HOME_REFUSALS.has(code);

/** The router state the home page is reached with after a refusal. */
export interface HomeRefusalState {
  refusal: ErrorCode;
  /** the search refused, put back in the search box: the codes typed are not lost */
  query?: SearchQuery;
}

/** The search that was refused, when the state carries one. */
export function refusedQueryOf(state: unknown): SearchQuery | null {
  if (refusalOf(state) === null) return null;
  const query = (state as { query?: unknown }).query as Partial<SearchQuery> | undefined;
  if (!query || !Array.isArray(query.taxCodes)) return null;
  return {
    taxCodes: query.taxCodes.filter((code): code is string => typeof code === 'string'),
    deMinimis: query.deMinimis === true,
    last3Years: query.last3Years === true,
  };
}

export function refusalOf(state: unknown): ErrorCode | null {
  if (typeof state !== 'object' || state === null || !('refusal' in state)) return null;
  const refusal = (state as { refusal: unknown }).refusal;
  return typeof refusal === 'string' && HOME_REFUSALS.has(refusal as ErrorCode)
    ? (refusal as ErrorCode)
    : null;
}
