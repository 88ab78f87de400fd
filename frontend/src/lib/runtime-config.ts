import type { RuntimeConfigDto } from '@rna/domain';
import { isEmail } from './validation';

/**
 * What the front end reads from /config.json: the shared DTO plus optional publisher details for the footer.
 * The publisher details are not part of the DTO, so a deployment adds them to config.json when it has them;
 * without them the footer shows no VAT number and no contact link rather than a made-up one.
 */
export interface PortalConfig extends RuntimeConfigDto {
  /** the publisher's VAT number (partita IVA, 11 digits) */
  vatNumber: string | null;
  contactEmail: string | null;
}

/** Defaults used when /config.json is unreachable (e.g. `vite dev` without the server). */
const defaults: PortalConfig = {
  version: 'dev',
  apiBaseUrl: '/api',
  forcedLastUpdate: null,
  vatNumber: null,
  contactEmail: null,
};

let current: PortalConfig = defaults;

const ITALIAN_VAT = /^\d{11}$/;

/** Keeps only well-formed values; an all-zero VAT number is a placeholder, not a number. */
export function parseRuntimeConfig(body: Record<string, unknown>): PortalConfig {
  const vat = typeof body.vatNumber === 'string' ? body.vatNumber.trim() : '';
  const email = typeof body.contactEmail === 'string' ? body.contactEmail.trim() : '';
  return {
    version: typeof body.version === 'string' ? body.version : defaults.version,
    apiBaseUrl:
      typeof body.apiBaseUrl === 'string' ? body.apiBaseUrl.replace(/\/$/, '') : defaults.apiBaseUrl,
    forcedLastUpdate: typeof body.forcedLastUpdate === 'number' ? body.forcedLastUpdate : null,
    vatNumber: ITALIAN_VAT.test(vat) && !/^0+$/.test(vat) ? vat : null,
    contactEmail: isEmail(email) ? email : null,
  };
}

/** Read once at start from the server, so one build serves every environment. */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<PortalConfig> {
  try {
    const response = await fetchImpl('/config.json', { cache: 'no-store' });
    if (response.ok) {
      const body: unknown = await response.json();
      current = parseRuntimeConfig(body && typeof body === 'object' ? (body as Record<string, unknown>) : {});
    }
  } catch {
    current = defaults;
  }
  return current;
}

export function getRuntimeConfig(): PortalConfig {
  return current;
}

export function setRuntimeConfig(config: Partial<PortalConfig>): void {
  current = { ...defaults, ...config };
}

export function imageUrl(fileName: string): string {
  return `${current.apiBaseUrl}/images/${encodeURIComponent(fileName)}`;
}
