/**
 * Euro labels for the PDF: dot thousands, comma decimals, euro sign (SPEC §9).
 * Temporary until the domain's formatter lands on wt-domain; then this delegates to it.
 */
export function formatEuroAmount(euro: number, decimals = 2): string {
  const negative = euro < 0;
  const fixed = Math.abs(euro).toFixed(decimals);
  const [whole = '0', fraction] = fixed.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${negative ? '-' : ''}${grouped}${fraction ? `,${fraction}` : ''} €`;
}
