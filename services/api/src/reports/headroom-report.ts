/**
 * The de minimis headroom at a planned date in the reports: for a group (impresa unica) the group's,
 * with each member's share; for a search of several unrelated companies each company's own (their aids
 * are never added up against one ceiling). The figures are the API's (domain/de-minimis-regimes.ts).
 */
import { isoToItalianDay, type DeMinimisRegime, type HeadroomDto } from '@rna/domain';
import { formatEuroAmount } from './format';

export const REGIME_LABELS: Record<DeMinimisRegime, string> = {
  GENERAL: 'Generale',
  AGRICULTURE: 'Agricoltura',
  FISHERIES: 'Pesca',
  SIEG: 'SIEG (servizi di interesse economico generale)',
};

/** The reading of the rules the figures follow, in one text for both reports. */
export const HEADROOM_NOTE =
  'Residuo alla data: conta ogni aiuto de minimis concesso dopo la data meno tre anni e fino alla data stessa, ' +
  'di qualunque regolamento; il massimale SIEG di 750.000 € vale per SIEG e generale insieme. ' +
  'Gli aiuti agricoli e della pesca sono registrati per lo più nel SIAN e nel SIPA: le cifre di quei regimi ' +
  'tratte dal solo RNA possono essere incomplete.';

const euro = (amount: string) => formatEuroAmount(Number(amount));
export const regimes = (list: readonly DeMinimisRegime[]) => list.map((r) => REGIME_LABELS[r]).join(' + ');

/** Who a headroom is of: the group's name, else the company's name and code. */
export function undertakingLabel(headroom: HeadroomDto): string {
  if (headroom.group) return `Impresa unica «${headroom.group.name}»`;
  const company = headroom.perCompany[0];
  return company
    ? `${company.name ?? 'Nessun aiuto trovato'} (${company.taxCode})`
    : headroom.taxCodes.join(', ');
}

/** The PDF section, already escaped by `escape`. */
export function headroomHtml(headrooms: readonly HeadroomDto[], escape: (text: string) => string): string {
  if (headrooms.length === 0) return '';
  const blocks = headrooms.map((headroom) => {
    const limits = headroom.limits
      .map(
        (limit) =>
          `<tr><td>${escape(regimes(limit.regimes))}</td><td class="num">${escape(euro(limit.ceiling))}</td>` +
          `<td class="num">${escape(euro(limit.used))}</td><td class="num">${escape(euro(limit.remaining))}</td></tr>`,
      )
      .join('');
    const shares =
      headroom.perCompany.length > 1
        ? `<table><thead><tr><th>Impresa</th><th class="num">Generale</th><th class="num">Agricoltura</th><th class="num">SIEG</th></tr></thead><tbody>${headroom.perCompany
            .map(
              (c) =>
                `<tr><td>${escape(`${c.name ?? 'Nessun aiuto trovato'} (${c.taxCode})`)}</td><td class="num">${escape(euro(c.usedByRegime.GENERAL))}</td>` +
                `<td class="num">${escape(euro(c.usedByRegime.AGRICULTURE))}</td><td class="num">${escape(euro(c.usedByRegime.SIEG))}</td></tr>`,
            )
            .join('')}</tbody></table>`
        : '';
    const releases = headroom.releases.length
      ? `<p>${headroom.releases.map((r) => escape(`si liberano ${euro(r.amount)} il ${isoToItalianDay(r.date)}`)).join('; ')}</p>`
      : '';
    return `<h3>${escape(undertakingLabel(headroom))}: ${escape(euro(headroom.headroom))}</h3>
<p>${escape(`Regime ${REGIME_LABELS[headroom.regime]}, concessione prevista il ${isoToItalianDay(headroom.date)}; aiuti contati dal ${isoToItalianDay(headroom.windowStart)}`)}</p>
<table><thead><tr><th>Limite</th><th class="num">Massimale</th><th class="num">Utilizzato</th><th class="num">Residuo</th></tr></thead><tbody>${limits}</tbody></table>
${shares}${releases}`;
  });
  return `<h2>Residuo de minimis alla data</h2>${blocks.join('')}<p class="note">${escape(HEADROOM_NOTE)}</p>`;
}
