/**
 * The HTML of report.pdf. Every value that came from the register or from a user is escaped:
 * register texts are free text, and a client's footer must not be able to inject markup.
 */
import { headroomHtml } from './headroom-report';
import {
  DE_MINIMIS_CEILING_EURO as DE_MINIMIS_CEILING,
  formatItalianDateTime,
  type DeMinimisPointDto,
} from '@rna/domain';
import { formatEuroAmount } from './format';
import {
  dataSourceLines,
  DE_MINIMIS_NOTE,
  safeColour,
  safeHttpUrl,
  deMinimisUsedCard,
  remainingLabel,
  allowanceChartTitle,
  searchedCodesLine,
  totalsHeading,
  verificationLine,
  yesNo,
  type ReportBranding,
  type ReportInput,
  type ReportVerification,
} from './report-input';

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Only an image data URL of a known type may become the logo's src. */
export function safeLogoSrc(dataUrl: string | null): string | null {
  if (!dataUrl) return null;
  return /^data:image\/(png|jpeg|jpg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/=]+$/.test(dataUrl)
    ? dataUrl
    : null;
}

/** 36 bars of used de minimis against the ceiling; over the ceiling turns red. Drawn, not charted. */
export function deMinimisChartSvg(series: readonly DeMinimisPointDto[], colour: string): string {
  const width = 720;
  const height = 220;
  const left = 70;
  const bottom = 30;
  const top = 10;
  const plotHeight = height - bottom - top;
  const maxValue = Math.max(DE_MINIMIS_CEILING, ...series.map((p) => p.total));
  const slot = series.length ? (width - left - 10) / series.length : 0;
  const y = (value: number) => top + plotHeight - (Math.max(0, value) / maxValue) * plotHeight;
  const ticks = [0, 50_000, 100_000, 150_000, 200_000, 250_000, 300_000]
    .map(
      (tick) =>
        `<line x1="${left}" x2="${width - 10}" y1="${y(tick)}" y2="${y(tick)}" stroke="#ddd" stroke-width="0.5"/>` +
        `<text x="${left - 4}" y="${y(tick) + 3}" font-size="8" text-anchor="end">${escapeHtml(formatEuroAmount(tick, 0))}</text>`,
    )
    .join('');
  const bars = series
    .map((point, i) => {
      const x = left + i * slot + slot * 0.15;
      const barHeight = y(0) - y(point.total);
      const fill = point.remaining < 0 ? '#c0392b' : colour;
      const label =
        i % 3 === 0
          ? `<text x="${x + slot * 0.35}" y="${height - bottom + 12}" font-size="7" text-anchor="middle">${escapeHtml(point.month)}</text>`
          : '';
      return (
        `<rect x="${x}" y="${y(point.total)}" width="${slot * 0.7}" height="${barHeight}" fill="${fill}">` +
        `<title>${escapeHtml(point.month)}: ${escapeHtml(formatEuroAmount(point.total))}</title></rect>${label}`
      );
    })
    .join('');
  const ceiling = `<line x1="${left}" x2="${width - 10}" y1="${y(DE_MINIMIS_CEILING)}" y2="${y(DE_MINIMIS_CEILING)}" stroke="#c0392b" stroke-dasharray="4 2"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 ${width} ${height}" role="img" ` +
    `aria-label="De minimis utilizzato negli ultimi 36 mesi">${ticks}${ceiling}${bars}</svg>`
  );
}

/**
 * Chromium's print footer: footers and page numbers on every page (its own small document), with the
 * verification code of a verifiable document under the numbering.
 */
export function pdfFooterTemplate(branding: ReportBranding, verification?: ReportVerification): string {
  const footers = [branding.footer1, branding.footer2]
    .filter((text) => text.trim() !== '')
    .map((text) => `<div>${escapeHtml(text)}</div>`)
    .join('');
  return (
    '<div style="font-size:8px;width:100%;padding:0 10mm;display:flex;justify-content:space-between;color:#555">' +
    `<div>${footers}</div>` +
    '<div style="text-align:right">Pagina <span class="pageNumber"></span> di <span class="totalPages"></span>' +
    (verification ? `<div>${escapeHtml(verificationLine(verification))}</div>` : '') +
    '</div></div>'
  );
}

interface ReportParts {
  /** From <!doctype> to the end of the de minimis note. */
  head: string;
  /** The renewal link, or ''. */
  renew: string;
}

/** A search of several companies: each one's own figures, as on screen. */
function perCodeTable(result: ReportInput['result']): string {
  if (result.perCode.length < 2) return '';
  const rows = result.perCode
    .map(
      (c) =>
        `<tr><td>${escapeHtml(c.taxCode)}</td><td>${escapeHtml(c.name || 'Nessun aiuto trovato')}</td>` +
        `<td class="num">${c.totalDocuments}</td><td class="num">${escapeHtml(formatEuroAmount(c.totalImport))}</td>` +
        `<td class="num">${escapeHtml(formatEuroAmount(c.deMinimisUsed))}</td>` +
        `<td class="num">${escapeHtml(formatEuroAmount(c.remainingDeMinimis))}${c.remainingDeMinimis < 0 ? ' (massimale superato)' : ''}</td></tr>`,
    )
    .join('');
  return `<h2>Riepilogo per impresa</h2>
<table>
  <thead><tr><th>Codice fiscale</th><th>Beneficiario</th><th class="num">Aiuti (ultimi 3 anni)</th>
  <th class="num">Importo (ultimi 3 anni)</th><th class="num">De minimis utilizzato</th><th class="num">De minimis residuo</th></tr></thead>
  <tbody>${rows}</tbody>
</table>`;
}

function reportParts(input: ReportInput): ReportParts {
  const { result, branding } = input;
  const colour = safeColour(branding.primaryColor);
  const logo = safeLogoSrc(branding.logoDataUrl);
  const renewUrl = safeHttpUrl(branding.subRenewUrl);
  const stats = result.stats;
  const parameters: [string, string][] = [
    ...searchedCodesLine(result),
    ['Solo de minimis', yesNo(result.deMinimis)],
    ['Ultimi 3 anni', yesNo(result.last3Years)],
    ...dataSourceLines(result, input.archive),
    ['Data generazione', formatItalianDateTime(input.generatedAt)],
    ...(input.verification ? [['Verifica', verificationLine(input.verification)] as [string, string]] : []),
  ];
  // one company searched: named under the title, as the register writes it
  const company = result.taxCodes.length === 1 ? result.perCode[0]?.name || null : null;
  const [usedLabel, used] = deMinimisUsedCard(result);
  const cards: [string, string][] = [
    ['Numero documenti', String(stats.totalDocuments)],
    ['Importo totale', formatEuroAmount(stats.totalImport)],
    [usedLabel, formatEuroAmount(used)],
    [remainingLabel(result), formatEuroAmount(stats.remainingDeMinimis)],
  ];
  const head = `<!doctype html>
<html lang="it"><head><meta charset="utf-8"><title>Resoconto degli aiuti di Stato</title>
<style>
  body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 10px; color: #222; margin: 0; }
  header { display: flex; align-items: center; justify-content: space-between; border-bottom: 3px solid ${colour}; padding-bottom: 6px; }
  header img { max-height: 48px; max-width: 200px; }
  h1 { color: ${colour}; font-size: 16px; margin: 0; }
  .company { font-size: 12px; font-weight: bold; margin: 2px 0 0; }
  h2 { color: ${colour}; font-size: 12px; margin: 14px 0 6px; }
  h3 { font-size: 10px; margin: 10px 0 4px; }
  dl.params { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0; }
  dl.params dt { font-weight: bold; }
  dl.params dd { margin: 0; }
  .cards { display: flex; gap: 8px; }
  .card { flex: 1; border: 1px solid ${colour}; border-radius: 4px; padding: 6px; }
  .card .label { font-size: 8px; text-transform: uppercase; color: #555; }
  .card .value { font-size: 13px; font-weight: bold; }
  table { width: 100%; border-collapse: collapse; }
  thead { display: table-header-group; }
  th { background: ${colour}; color: #fff; text-align: left; padding: 3px; font-size: 8px; }
  td { border-bottom: 1px solid #ddd; padding: 3px; font-size: 8px; vertical-align: top; }
  tr { page-break-inside: avoid; }
  td.num, th.num { text-align: right; white-space: nowrap; }
  .note { font-size: 8px; color: #444; border-left: 3px solid ${colour}; padding-left: 6px; margin-top: 10px; }
  .renew a { color: ${colour}; }
</style></head>
<body>
<header>
  <div><h1>Resoconto degli aiuti di Stato</h1>${company ? `<p class="company">${escapeHtml(company)}</p>` : ''}</div>
  ${logo ? `<img src="${logo}" alt="Logo">` : ''}
</header>
<h2>Parametri della ricerca</h2>
<dl class="params">${parameters.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>
<h2>${escapeHtml(totalsHeading(result))}</h2>
<div class="cards">${cards
    .map(
      ([k, v]) =>
        `<div class="card"><div class="label">${escapeHtml(k)}</div><div class="value">${escapeHtml(v)}</div></div>`,
    )
    .join('')}</div>
${perCodeTable(result)}
${headroomHtml(input.headrooms ?? [], escapeHtml)}
<h2>${escapeHtml(allowanceChartTitle(result, formatEuroAmount(DE_MINIMIS_CEILING)))}</h2>
${deMinimisChartSvg(result.deMinimisSeries, colour)}
<p class="note">${escapeHtml(DE_MINIMIS_NOTE)}</p>
`;
  const renew = renewUrl
    ? `<p class="renew">Rinnova l’abbonamento: <a href="${escapeHtml(renewUrl)}">${escapeHtml(renewUrl)}</a></p>`
    : '';
  return { head, renew };
}

/**
 * The whole report as one page flow for a single Chromium render: fine for a few hundred rows, but
 * Chromium lays out about 1.5 ms a row. The portal renders pdfSummaryHtml and draws the table itself
 * (pdf-report.ts); this one stays as the reference layout the benchmark compares against.
 */
export function pdfReportHtml(input: ReportInput): string {
  const { head, renew } = reportParts(input);
  const rows = input.result.rows
    .map(
      (row) =>
        `<tr><td>${escapeHtml(row.dataConcessione)}</td><td>${escapeHtml(row.cor ?? '')}</td><td>${escapeHtml(row.denominazioneBeneficiario)}</td>` +
        `<td>${escapeHtml(row.titoloMisura)}</td><td>${escapeHtml(row.soggettoConcedente)}</td>` +
        `<td>${escapeHtml(row.desProcedimento)}</td><td>${escapeHtml(row.codRegolamento || row.desRegolamento)}</td>` +
        `<td class="num">${escapeHtml(formatEuroAmount(Number(row.importoNominale)))}</td>` +
        `<td class="num">${escapeHtml(formatEuroAmount(Number(row.elementoDiAiuto)))}</td></tr>`,
    )
    .join('');
  return `${head}<h2>Documenti (${input.result.rows.length})</h2>
<table>
  <thead><tr><th>Data concessione</th><th>COR</th><th>Beneficiario</th><th>Titolo misura</th><th>Soggetto concedente</th>
  <th>Procedimento</th><th>Regolamento</th><th class="num">Importo nominale</th><th class="num">Elemento di aiuto</th></tr></thead>
  <tbody>${rows || '<tr><td colspan="9">Nessun documento trovato</td></tr>'}</tbody>
</table>
${renew}
</body></html>`;
}

/**
 * The link that marks where the summary ends: Chromium writes it as a link annotation whose
 * rectangle says where on the last page the summary stops, so that the drawn table can go on right
 * under it (pdf-report.ts reads it, then removes it). Never a real address (.invalid).
 */
export const SUMMARY_END_URL = 'https://fine-del-riepilogo.invalid/';

/**
 * The pages Chromium renders for report.pdf: logo, parameters, totals, chart, note and renewal link.
 * The table follows, drawn by pdf-report.ts under the summary's end mark; a search without rows says
 * so here.
 */
export function pdfSummaryHtml(input: ReportInput): string {
  const { head, renew } = reportParts(input);
  const empty = input.result.rows.length === 0 ? '<h2>Documenti (0)</h2><p>Nessun documento trovato</p>' : '';
  return `${head}${renew}${empty}
<a href="${SUMMARY_END_URL}" aria-hidden="true" tabindex="-1" style="display:block;height:1px"></a>
</body></html>`;
}
