/** What both reports are made of: one search's answer, its parameters, the brand, and when. */
import {
  formatItalianDateTime,
  type CodeSourceDto,
  type HeadroomDto,
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
}

export interface ReportInput {
  result: SearchResultDto;
  generatedAt: Date;
  branding: ReportBranding;
  /** the de minimis headroom at a planned date: a group's, or each searched company's own */
  headrooms?: HeadroomDto[];
}

export const DEFAULT_BRANDING: ReportBranding = {
  logoDataUrl: null,
  primaryColor: '#1F4E79',
  footer1: '',
  footer2: '',
  subRenewUrl: '',
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

export const dataSourceLabel = (source: 'ARCHIVE' | 'LIVE'): string =>
  source === 'LIVE' ? 'Dati in tempo reale (RNA)' : 'Archivio';

/** Where one code's rows come from, as the screen says it: live, or the archive of a date and why. */
export function codeSourceLabel(source: CodeSourceDto): string {
  if (source.source === 'LIVE') {
    return `Registro (RNA) in tempo reale, consultato il ${formatItalianDateTime(source.asOf ?? 0)}`;
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

/** The report's "data source" lines: the portal's mode, then each code's own source. */
export function dataSourceLines(result: SearchResultDto): [string, string][] {
  return [
    ['Fonte dati', dataSourceLabel(result.dataSource)],
    ...result.sources.map((source): [string, string] => [`Fonte ${source.taxCode}`, codeSourceLabel(source)]),
  ];
}

export const DE_MINIMIS_NOTE =
  'Regime De Minimis valido dal 1/1/2024 (Regolamento UE 2023/2831): il calcolo è effettuato per anno solare ' +
  'e non è valido per i settori dell’agricoltura e della pesca.';
