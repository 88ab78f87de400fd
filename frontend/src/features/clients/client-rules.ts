import type { ClientDto } from '@rna/domain';
import { endDateAtNoon } from '../../lib/domain-rules';

/** ?tabIndex: a number selects that tab; missing or not a number means 0 (SPEC §2). */
export function parseTabIndex(raw: string | null, tabCount = 3): number {
  if (raw === null || raw.trim() === '') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n >= tabCount) return 0;
  return n;
}

/** Case-insensitive email filter of the all and waiting tabs. */
export function filterByEmail<T extends { email: string }>(clients: readonly T[], text: string): T[] {
  const needle = text.trim().toLowerCase();
  return needle ? clients.filter((c) => c.email.toLowerCase().includes(needle)) : [...clients];
}

export const waitingClients = (clients: readonly ClientDto[]): ClientDto[] =>
  clients.filter((c) => !c.active);

/** End dates are stored at 12:00 of the chosen day (SPEC §5). */
export const atNoon = endDateAtNoon;
