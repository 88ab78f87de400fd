/**
 * The HTML of dichiarazione-de-minimis.pdf: a draft of the self-declaration (DPR 445/2000, artt. 46
 * e 47) filled in with what the register knows, and blank lines and boxes for what only the signer
 * can state. Every text from the register, a user or the client's brand is escaped.
 */
import {
  DE_MINIMIS_REGIMES,
  formatEuroCents,
  formatItalianDateTime,
  isoToItalianDay,
  type DeMinimisRegime,
} from '@rna/domain';
import { formatEuroAmount } from '../reports/format';
import { REGIME_LABELS, regimes } from '../reports/headroom-report';
import { escapeHtml as e, safeLogoSrc } from '../reports/pdf-template';
import { archiveExtentLabel, codeSourceLabel, safeColour, verificationLine } from '../reports/report-input';
import type { DeclarationInput } from './declaration';

export const DECLARATION_TITLE = 'Dichiarazione sostitutiva relativa agli aiuti «de minimis»';

/** The regulation each regime's ceiling comes from, as the declaration cites it. */
const REGIME_REGULATIONS: Record<DeMinimisRegime, string> = {
  GENERAL: 'Reg. (UE) 2023/2831',
  AGRICULTURE: 'Reg. (UE) 1408/2013',
  FISHERIES: 'Reg. (UE) 717/2014',
  SIEG: 'Reg. (UE) 2023/2832',
};

export const DRAFT_NOTE =
  'Bozza predisposta con i dati del Registro nazionale degli aiuti di Stato (RNA), da verificare e ' +
  'completare a cura del dichiarante prima della firma. Se il soggetto concedente prevede un proprio ' +
  'modello di dichiarazione, prevale quel modello.';

const euro = (amount: string) => formatEuroAmount(Number(amount));
/** A line to write on by hand. */
const blank = (width = '60mm') => `<span class="blank" style="min-width:${width}"></span>`;
const box = '<span class="box"></span>';
const emptyRows = (columns: number, count: number) =>
  `<tr>${'<td class="write"></td>'.repeat(columns)}</tr>`.repeat(count);

function undertakingHtml(input: DeclarationInput): string {
  const nameOf = (name: string | null) => (name ? e(name) : blank('50mm'));
  if (!input.group && input.companies.length === 1) {
    const company = input.companies[0]!;
    return `<p>dell’impresa <strong>${nameOf(company.name)}</strong>, codice fiscale <strong>${e(company.taxCode)}</strong>,</p>`;
  }
  const title = input.group
    ? `dell’impresa unica «${e(input.group.name)}», composta da:`
    : 'dell’impresa unica composta da:';
  const rows = input.companies
    .map((c) => `<tr><td>${e(c.taxCode)}</td><td>${nameOf(c.name)}</td></tr>`)
    .join('');
  return `<p>${title}</p>
<table class="members"><thead><tr><th>Codice fiscale</th><th>Denominazione (come nel registro)</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function aidsHtml(input: DeclarationInput): string {
  if (input.aids.length === 0) {
    return '<p class="none">Nessun aiuto «de minimis» risulta registrato nel RNA nel periodo.</p>';
  }
  const rows = input.aids
    .map(
      (aid) =>
        `<tr><td>${e(isoToItalianDay(aid.dataConcessione))}</td><td>${e(aid.taxCode)}</td>` +
        `<td>${e(aid.soggettoConcedente)}</td>` +
        `<td>${e(aid.codRegolamento)}${aid.desRegolamento ? `<br><span class="small">${e(aid.desRegolamento)}</span>` : ''}</td>` +
        `<td>${e(aid.cor)}</td><td>${e(REGIME_LABELS[aid.regime])}</td>` +
        `<td class="num">${e(formatEuroCents(aid.elementoDiAiutoCents))}</td></tr>`,
    )
    .join('');
  return `<table class="aids">
<thead><tr><th>Data concessione</th><th>Beneficiario (C.F.)</th><th>Soggetto concedente</th><th>Regolamento</th><th>COR</th><th>Regime</th><th class="num">Elemento di aiuto</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** Each regime the planned grant's limits count: its aids' total; then each limit and what it leaves. */
function totalsHtml(input: DeclarationInput): string {
  const { headroom } = input;
  const counted = DE_MINIMIS_REGIMES.filter((r) => headroom.limits.some((l) => l.regimes.includes(r)));
  const perRegime = counted
    .map((regime) => {
      const count = input.aids.filter((aid) => aid.regime === regime).length;
      return `<tr><td>${e(REGIME_LABELS[regime])}</td><td class="num">${count}</td><td class="num">${e(euro(headroom.usedByRegime[regime]))}</td></tr>`;
    })
    .join('');
  const limits = headroom.limits
    .map(
      (limit) =>
        `<tr><td>${e(regimes(limit.regimes))}</td><td class="num">${e(euro(limit.ceiling))}</td>` +
        `<td class="num">${e(euro(limit.used))}</td><td class="num">${e(euro(limit.remaining))}</td></tr>`,
    )
    .join('');
  return `<h3>Totali per regime</h3>
<table class="totals"><thead><tr><th>Regime</th><th class="num">Aiuti</th><th class="num">Totale</th></tr></thead><tbody>${perRegime}</tbody></table>
<h3>Massimali e residuo</h3>
<table class="totals"><thead><tr><th>Aiuti sommati</th><th class="num">Massimale</th><th class="num">Utilizzato</th><th class="num">Residuo</th></tr></thead><tbody>${limits}</tbody></table>
<p class="headroom">Residuo concedibile al ${e(isoToItalianDay(headroom.date))}: <strong>${e(euro(headroom.headroom))}</strong></p>`;
}

export function declarationHtml(input: DeclarationInput): string {
  const { headroom, branding } = input;
  const colour = safeColour(branding.primaryColor);
  const logo = safeLogoSrc(branding.logoDataUrl);
  const ownCeiling = headroom.limits[0];
  const regime = `${REGIME_LABELS[headroom.regime]}, ${REGIME_REGULATIONS[headroom.regime]}`;
  const unknownCount = headroom.unknownRegulationAids;
  const unknown =
    unknownCount === 1
      ? 'Un aiuto «de minimis» indica un regolamento non riconosciuto: è conteggiato nel regime generale.'
      : unknownCount > 1
        ? `${unknownCount} aiuti «de minimis» indicano un regolamento non riconosciuto: sono conteggiati nel regime generale.`
        : '';
  const fromArchive = input.sources.some((source) => source.source === 'ARCHIVE');
  const sources = [
    ...input.sources.map((source) => `${source.taxCode}: ${codeSourceLabel(source)}`),
    ...(fromArchive && input.archive ? [`Archivio: ${archiveExtentLabel(input.archive)}`] : []),
    ...(input.verification ? [verificationLine(input.verification)] : []),
  ]
    .map((line) => `<li>${e(line)}</li>`)
    .join('');
  return `<!doctype html>
<html lang="it"><head><meta charset="utf-8"><title>${e(DECLARATION_TITLE)}</title>
<style>
  body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 10px; color: #222; margin: 0; line-height: 1.45; }
  header { display: flex; align-items: center; justify-content: space-between; border-bottom: 3px solid ${colour}; padding-bottom: 6px; }
  header img { max-height: 48px; max-width: 200px; }
  h1 { color: ${colour}; font-size: 15px; margin: 0; }
  .law { margin: 2px 0 0; font-size: 9px; }
  h2 { color: ${colour}; font-size: 12px; margin: 14px 0 4px; text-align: center; letter-spacing: 2px; }
  h3 { color: ${colour}; font-size: 10.5px; margin: 12px 0 4px; }
  table { width: 100%; border-collapse: collapse; margin: 4px 0; }
  thead { display: table-header-group; }
  th { background: ${colour}; color: #fff; text-align: left; padding: 3px; font-size: 8px; }
  td { border-bottom: 1px solid #ccc; padding: 3px; font-size: 8.5px; vertical-align: top; }
  tr { page-break-inside: avoid; }
  td.num, th.num { text-align: right; white-space: nowrap; }
  td.write { height: 16px; border-bottom: 1px solid #888; }
  .small { color: #555; font-size: 7.5px; }
  .blank { display: inline-block; border-bottom: 1px solid #444; height: 12px; vertical-align: bottom; }
  .box { display: inline-block; width: 9px; height: 9px; border: 1px solid #444; margin-right: 5px; vertical-align: middle; }
  .draft { border: 1px solid ${colour}; border-left-width: 4px; padding: 5px 8px; margin: 8px 0; font-size: 9px; }
  .note { font-size: 8px; color: #444; border-left: 3px solid ${colour}; padding-left: 6px; margin-top: 8px; }
  .headroom { font-size: 11px; margin: 6px 0; }
  .signature { display: flex; justify-content: space-between; margin-top: 24px; page-break-inside: avoid; }
  .signature div { width: 45%; }
  ul.sources { margin: 2px 0; padding-left: 16px; font-size: 8px; color: #444; }
</style></head>
<body>
<header>
  <div><h1>${e(DECLARATION_TITLE)}</h1>
  <p class="law">resa ai sensi degli artt. 46 e 47 del DPR 28 dicembre 2000, n. 445</p></div>
  ${logo ? `<img src="${logo}" alt="Logo">` : ''}
</header>
<p class="draft">${e(DRAFT_NOTE)}</p>

<p>Il/La sottoscritto/a ${blank('70mm')} nato/a a ${blank('40mm')} il ${blank('25mm')},
codice fiscale ${blank('45mm')}, in qualità di legale rappresentante</p>
${undertakingHtml(input)}
<p>in relazione all’aiuto «de minimis» di cui è prevista la concessione il <strong>${e(isoToItalianDay(headroom.date))}</strong>
nel regime <strong>${e(regime)}</strong>${ownCeiling ? `, massimale ${e(euro(ownCeiling.ceiling))} nell’arco di tre anni` : ''},
consapevole delle sanzioni penali previste dall’art. 76 del DPR 445/2000 per le dichiarazioni mendaci e della
decadenza dai benefici prevista dall’art. 75,</p>
<h2>DICHIARA</h2>

<h3>1. Aiuti «de minimis» ricevuti dall’impresa unica</h3>
<p>che all’impresa unica sono stati concessi, dal ${e(isoToItalianDay(headroom.windowStart))} al ${e(isoToItalianDay(headroom.date))},
i seguenti aiuti «de minimis» registrati nel Registro nazionale degli aiuti di Stato (RNA):</p>
${aidsHtml(input)}
${totalsHtml(input)}
${unknown ? `<p class="note">${e(unknown)}</p>` : ''}

<h3>2. Imprese collegate non indicate</h3>
<p>che l’impresa unica (art. 2, par. 2, ${e(REGIME_REGULATIONS.GENERAL)}) comprende anche le seguenti imprese, non indicate sopra
(lasciare vuoto se nessuna):</p>
<table><thead><tr><th>Codice fiscale</th><th>Denominazione</th><th>Tipo di collegamento</th></tr></thead><tbody>${emptyRows(3, 3)}</tbody></table>

<h3>3. Altri aiuti «de minimis» non presenti nel RNA</h3>
<p>che all’impresa unica sono stati concessi nel periodo anche i seguenti aiuti «de minimis», registrati in altri registri
(SIAN per l’agricoltura, SIPA per la pesca) o non ancora registrati (lasciare vuoto se nessuno):</p>
<table><thead><tr><th>Data concessione</th><th>Beneficiario (C.F.)</th><th>Soggetto concedente</th><th>Regolamento</th><th>Registro</th><th class="num">Importo</th></tr></thead><tbody>${emptyRows(6, 4)}</tbody></table>

<h3>4. Fusioni, acquisizioni e scissioni</h3>
<p>${box}che nel periodo l’impresa non è stata interessata da fusioni, acquisizioni o scissioni;</p>
<p>${box}che nel periodo l’impresa è stata interessata dalle seguenti operazioni (indicare imprese, date e aiuti «de minimis» attribuiti):</p>
<p>${blank('185mm')}</p><p>${blank('185mm')}</p>

<div class="signature">
  <div>Luogo e data<br><br>${blank('70mm')}</div>
  <div>Firma del legale rappresentante<br><br>${blank('80mm')}</div>
</div>
<p class="small">Allegare copia di un documento di identità del dichiarante in corso di validità (art. 38 DPR 445/2000).</p>

<p class="note">Fonte dei dati, generati il ${e(formatItalianDateTime(input.generatedAt))}:</p>
<ul class="sources">${sources}</ul>
</body></html>`;
}
