/**
 * Thin wrapper over the pure rules owned by `domain/` (branch wt-domain). Until that branch lands these are
 * local; the screens import only from here so pointing them at `@rna/domain` is a one-file change.
 */
import type { ClientStatusLabel } from '@rna/domain';

export const MIN_TAX_CODE_LENGTH = 11;
export const MIN_PASSWORD_LENGTH = 8;
export const DE_MINIMIS_CEILING = 300_000;

/** Tax codes are compared uppercase and without blanks. */
export function normaliseTaxCode(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase();
}

export function isTaxCodeLongEnough(code: string): boolean {
  return normaliseTaxCode(code).length >= MIN_TAX_CODE_LENGTH;
}

/** Euro amounts: dot thousands separator, comma decimals, euro sign (SPEC §9). */
export function formatEuro(value: number | string | null | undefined): string {
  const amount = typeof value === 'string' ? Number(value) : (value ?? 0);
  if (!Number.isFinite(amount)) return '—';
  const negative = amount < 0;
  const [intPart = '0', decimals = '00'] = Math.abs(amount).toFixed(2).split('.');
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${negative ? '-' : ''}${grouped},${decimals} €`;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** dd-mm-yyyy */
export function formatDate(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  return `${pad(d.getDate())}-${pad(d.getMonth() + 1)}-${d.getFullYear()}`;
}

/** dd-mm-yyyy hh:mm */
export function formatDateTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  return `${formatDate(ms)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** SPEC §4: Scaduto at or past endDate, else Attivo when active, else In attesa. */
export function clientStatusLabel(
  client: { active: boolean; endDate: number },
  now: number = Date.now(),
): ClientStatusLabel {
  if (now >= client.endDate) return 'Scaduto';
  return client.active ? 'Attivo' : 'In attesa';
}
