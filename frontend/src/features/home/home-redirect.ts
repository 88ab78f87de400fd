import type { SavedSearchDto } from '@rna/domain';
import { documentsUrl } from '../../components/search-form';

/** SPEC §2 home on load: a fixed tax code wins (both flags false), else the first saved search, else stay. */
export function homeRedirect(
  fixedTaxCode: string | null | undefined,
  saved: SavedSearchDto[] | undefined,
): string | null {
  if (fixedTaxCode) return documentsUrl({ taxCodes: [fixedTaxCode], deMinimis: false, last3Years: false });
  const first = saved?.[0];
  if (first && first.taxCodes.length > 0) return documentsUrl(first);
  return null;
}
