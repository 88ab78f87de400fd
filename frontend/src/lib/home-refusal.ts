import type { ErrorCode } from '@rna/domain';

/**
 * Refusals after which searching again cannot help (no searches left, subscription expired): the
 * search is abandoned for the home page, which says why and stays there instead of redirecting.
 */
const HOME_REFUSALS = new Set<ErrorCode>(['U004', 'A002']);

export const isHomeRefusal = (code: ErrorCode | null): boolean => code !== null && HOME_REFUSALS.has(code);

/** The router state the home page is reached with after a refusal. */
export interface HomeRefusalState {
  refusal: ErrorCode;
}

export function refusalOf(state: unknown): ErrorCode | null {
  if (typeof state !== 'object' || state === null || !('refusal' in state)) return null;
  const refusal = (state as { refusal: unknown }).refusal;
  return typeof refusal === 'string' && HOME_REFUSALS.has(refusal as ErrorCode)
    ? (refusal as ErrorCode)
    : null;
}
