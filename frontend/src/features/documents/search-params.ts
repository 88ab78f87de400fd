import { normaliseTaxCode } from '../../lib/domain-rules';

export interface DocumentsQuery {
  taxCodes: string[];
  deMinimis: boolean;
  last3Years: boolean;
}

/**
 * Reads taxCode (comma-separated), deMinimis and last3Years from the address. A fixed tax code replaces the
 * codes (SPEC §2). Returns null when there is no tax code at all (T001).
 */
export function readDocumentsQuery(
  params: URLSearchParams,
  fixedTaxCode?: string | null,
): DocumentsQuery | null {
  const taxCodes = fixedTaxCode
    ? [normaliseTaxCode(fixedTaxCode)]
    : (params.get('taxCode') ?? '')
        .split(',')
        .map(normaliseTaxCode)
        .filter((code) => code !== '');
  if (taxCodes.length === 0) return null;
  return {
    taxCodes,
    deMinimis: params.get('deMinimis') === 'true',
    last3Years: params.get('last3Years') === 'true',
  };
}

/**
 * The group (impresa unica) the searched codes come from (`group=<id>`, set by the groups screen): the
 * headroom is then asked for the group. Ignored for a user with a fixed tax code, who may use only that.
 */
export function readGroupParam(params: URLSearchParams, fixedTaxCode?: string | null): string | null {
  const group = params.get('group')?.trim() ?? '';
  return fixedTaxCode || group === '' ? null : group;
}

/** A saved search or alert matches when it holds the same codes (order aside) and, for searches, the same flags. */
export function sameCodes(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const sorted = [...b].map(normaliseTaxCode).sort();
  return [...a]
    .map(normaliseTaxCode)
    .sort()
    .every((code, i) => code === sorted[i]);
}
