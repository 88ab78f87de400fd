/** Euro labels for the PDF (SPEC §9: dot thousands, comma decimals, euro sign), from the domain's formatter. */
import { formatEuro, formatInteger } from '@rna/domain';

export function formatEuroAmount(euro: number, decimals: 0 | 2 = 2): string {
  return decimals === 0 ? `${formatInteger(euro)} €` : formatEuro(euro);
}
