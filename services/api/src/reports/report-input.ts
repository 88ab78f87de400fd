/** What both reports are made of: one search's answer, its parameters, the brand, and when. */
import {
  DE_MINIMIS_WINDOW_NOTE,
  formatItalianDateTime,
  formatReportCode,
  type CodeSourceDto,
  type HeadroomDto,
  type LiveMissingField,
  type SearchResultDto,
} from '@rna/domain';

export interface ReportBranding {
  /** data: URL of the client's logo image, or null for none. */
  logoDataUrl: string | null;
  /** #RRGGBB */
  primaryColor: string;
  footer1: string;
  footer2: string;
  /** Where the client renews the subscription ('' = not shown). */
  subRenewUrl: string;
  /** the organisation the brand is (its logo's name): what a report's verification names */
  organisation: string;
}

/** How anyone can check that the portal issued a report: its code, and the page that says so. */
export interface ReportVerification {
  /** stored form (report-codes.ts); printed as XXXX-XXXX-XXXX-C */
  code: string;
  /** the public verification page of this code */
  url: string;
}

/** The archive a report's data came from: how many register files, from which month to which. */
export interface ArchiveExtent {
  files: number;
  /** register file names (2015_01, 2025_02_003) */
  oldest: string;
  newest: string;
}

export interface ReportInput {
  result: SearchResultDto;
  generatedAt: Date;
  branding: ReportBranding;
  /** the de minimis headroom at a planned date: a group's, or each searched company's own */
  headrooms?: HeadroomDto[];
  /** printed on every page (absent: a report made outside a download, e.g. a preview in a test) */
  verification?: ReportVerification;
  /** the register files the archive held when the report was made (null: none, or live data only) */
  archive?: ArchiveExtent | null;
}

export const DEFAULT_BRANDING: ReportBranding = {
  logoDataUrl: null,
  primaryColor: '#1F4E79',
  footer1: '',
  footer2: '',
  subRenewUrl: '',
  organisation: '',
};

/** A colour safe to put in CSS: 6 hex digits with or without '#', else the default. */
export function safeColour(value: string): string {
  const match = /^#?([0-9a-fA-F]{6})$/.exec(value.trim());
  return match ? `#${match[1]}` : DEFAULT_BRANDING.primaryColor;
}

/** Only http(s) links are printed as links (never javascript: or data: URLs). */
export function safeHttpUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

export const yesNo = (flag: boolean): string => (flag ? 'Sì' : 'No');

/** The searched codes, with the company's name when one company was searched (as the register writes it). */
export function searchedCodesLine(result: SearchResultDto): [string, string][] {
  const name = result.taxCodes.length === 1 ? result.perCode[0]?.name : '';
  return [
    ['Codici fiscali', result.taxCodes.join(', ')],
    ...(name ? [['Beneficiario', name] as [string, string]] : []),
  ];
}

/** Whose allowance a search's remaining figure and chart are: several unrelated companies are never summed. */
const allowanceOwner = (result: SearchResultDto): string | null =>
  result.deMinimisOf ? result.deMinimisOf.name || result.deMinimisOf.taxCode : null;

/** "De minimis residuo", or "De minimis residuo di X (il più basso)" for several unrelated companies. */
export function remainingLabel(result: SearchResultDto): string {
  const owner = allowanceOwner(result);
  return owner ? `De minimis residuo di ${owner} (il più basso)` : 'De minimis residuo';
}

/**
 * The de minimis used card: for several unrelated companies, the used amount of the company the
 * remaining card names (used + remaining = its ceiling), as on the screen; otherwise the total.
 */
export function deMinimisUsedCard(result: SearchResultDto): [string, number] {
  const owner = allowanceOwner(result);
  const used = result.deMinimisOf
    ? result.perCode.find((summary) => summary.taxCode === result.deMinimisOf?.taxCode)?.deMinimisUsed
    : undefined;
  return owner && used !== undefined
    ? [`De minimis utilizzato di ${owner}`, used]
    : ['Totale de minimis', result.stats.totalImportDeMinimis];
}

/**
 * The heading of the four totals, from the search's parameters. The totals count the aids granted
 * in the last 3 years whatever the filter (SPEC: "only documents whose grant date is within the last
 * 3 years count"); without the filter the list below them holds every year found, and the heading
 * says so, so that a reader does not take the totals for the list's.
 */
export function totalsHeading(result: Pick<SearchResultDto, 'last3Years'>): string {
  return result.last3Years
    ? 'Totali (ultimi 3 anni)'
    : 'Totali degli ultimi 3 anni (l’elenco dei documenti comprende tutti gli anni trovati)';
}

/** The chart's heading, naming the company it is when several unrelated companies were searched. */
export function allowanceChartTitle(result: SearchResultDto, ceiling: string): string {
  const owner = allowanceOwner(result);
  return owner
    ? `De minimis di ${owner}: andamento su 36 mesi (massimale ${ceiling} per impresa; le imprese non si sommano)`
    : `De minimis: andamento su 36 mesi (massimale ${ceiling})`;
}

export const dataSourceLabel = (source: 'ARCHIVE' | 'LIVE'): string =>
  source === 'LIVE' ? 'Dati in tempo reale (RNA)' : 'Archivio';

/** How a report names the fields a live answer leaves out. */
const LIVE_FIELD_LABELS: Record<LiveMissingField, string> = {
  soggettoConcedente: 'soggetto concedente',
  cup: 'CUP',
  importoNominale: 'importo nominale (indicato pari all’elemento di aiuto)',
  desRegolamento: 'descrizione del regolamento',
  desObiettivo: 'obiettivo',
  settoreAttivita: 'settore di attività',
};

/** Where one code's rows come from, as the screen says it: live, or the archive of a date and why. */
export function codeSourceLabel(source: CodeSourceDto): string {
  if (source.source === 'LIVE') {
    const missing = (source.missingFields ?? []).map((field) => LIVE_FIELD_LABELS[field]);
    return (
      `Registro (RNA) in tempo reale, consultato il ${formatItalianDateTime(source.asOf ?? 0)}` +
      (missing.length > 0 ? ` (la risposta non riporta: ${missing.join(', ')})` : '')
    );
  }
  const archive =
    source.asOf === null
      ? 'Archivio mai aggiornato: nessun dato'
      : `Archivio aggiornato al ${formatItalianDateTime(source.asOf)}`;
  if (source.liveFallback === 'PACED') {
    return `${archive} (il registro impone una pausa tra le consultazioni: la consultazione in tempo reale è in coda)`;
  }
  if (source.liveFallback === 'UNAVAILABLE') return `${archive} (il registro non ha risposto)`;
  return archive;
}

/** The archive's extent as a reader cites it: how many register files, from which to which. */
export function archiveExtentLabel(archive: ArchiveExtent): string {
  const files = archive.files === 1 ? '1 file del registro' : `${archive.files} file del registro`;
  return archive.oldest === archive.newest
    ? `${files} (${archive.oldest})`
    : `${files}, dal ${archive.oldest} al ${archive.newest}`;
}

/** The report's "data source" lines: the portal's mode, each code's own source, the archive's files. */
export function dataSourceLines(result: SearchResultDto, archive?: ArchiveExtent | null): [string, string][] {
  const fromArchive = result.sources.some((source) => source.source === 'ARCHIVE');
  return [
    ['Fonte dati', dataSourceLabel(result.dataSource)],
    ...result.sources.map((source): [string, string] => [`Fonte ${source.taxCode}`, codeSourceLabel(source)]),
    ...(fromArchive && archive ? [['Archivio', archiveExtentLabel(archive)] as [string, string]] : []),
  ];
}

/** XXXX-XXXX-XXXX-C at <url>: the line every page of a verifiable report carries. */
export function verificationLine(verification: ReportVerification): string {
  return `Codice di verifica ${formatReportCode(verification.code)} · ${verification.url}`;
}

/** The one text that says how de minimis is counted (domain de-minimis.ts). */
export const DE_MINIMIS_NOTE = DE_MINIMIS_WINDOW_NOTE;
