/** What both reports are made of: one search's answer, its parameters, the brand, and when. */
import type { SearchResultDto } from '@rna/domain';

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

export const DE_MINIMIS_NOTE =
  'Regime De Minimis valido dal 1/1/2024 (Regolamento UE 2023/2831): il calcolo è effettuato per anno solare ' +
  'e non è valido per i settori dell’agricoltura e della pesca.';
