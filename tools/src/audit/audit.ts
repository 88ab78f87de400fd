/**
 * `npm run audit -- --client <email> [--at <date>]`: replays a client's quota stream and prints
 * every search, download, refusal and allowance change with who and when, and the remaining
 * searches as of the given date (default: now).
 */
import {
  clientAuditHistory,
  findAdminIdByEmail,
  findClientIdByEmail,
  userAuditHistory,
  type ClientAuditHistory,
} from '@rna/api/audit';
import { formatItalianDateTime, romeWallTimeToEpochMs } from '@rna/domain';
import type { EventStore } from '@rna/infra';

export interface AuditArgs {
  client: string;
  /** ms, or null for now */
  at: number | null;
}

export class UsageError extends Error {}

export const USAGE = 'Uso: npm run audit -- --client <email> [--at <YYYY-MM-DD | data ISO>]';

/** '2025-03-03' is the end of that day in Rome; an ISO instant is taken as given. */
export function parseAuditArgs(argv: readonly string[]): AuditArgs {
  let client: string | null = null;
  let at: number | null = null;
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const value = argv[i + 1];
    if ((flag === '--client' || flag === '--at') && (value === undefined || value.startsWith('--'))) {
      throw new UsageError(`${flag} richiede un valore\n${USAGE}`);
    }
    if (flag === '--client') client = value ?? null;
    else if (flag === '--at') {
      const text = value ?? '';
      at = /^\d{4}-\d{2}-\d{2}$/.test(text) ? romeWallTimeToEpochMs(text, 23, 59) + 59_999 : Date.parse(text);
      if (!Number.isFinite(at)) throw new UsageError(`Data non valida: ${text}\n${USAGE}`);
    } else throw new UsageError(`Argomento sconosciuto: ${flag}\n${USAGE}`);
    i += 1;
  }
  if (!client) throw new UsageError(USAGE);
  return { client, at };
}

export function formatAuditReport(email: string, history: ClientAuditHistory, who = 'Cliente'): string {
  const lines = [
    `${who} ${email} (id ${history.clientId})`,
    `Situazione ${history.asOf === null ? 'attuale' : `al ${formatItalianDateTime(history.asOf)}`}: ` +
      `ricerche residue ${history.remainingSearches} su ${history.availableYearlySearches}` +
      (history.endDate === null ? '' : `, scadenza ${formatItalianDateTime(history.endDate)}`),
    '',
    ['#', 'quando', 'chi', 'evento', 'codici fiscali', 'dettagli', 'costo', 'residue'].join('\t'),
  ];
  for (const entry of history.entries) {
    const flags =
      entry.deMinimis === null ? '' : `deMinimis=${entry.deMinimis} last3Years=${entry.last3Years}`;
    const details = [
      entry.detail,
      entry.dataSource,
      entry.resultCount === null ? null : `${entry.resultCount} risultati`,
      flags,
    ]
      .filter(Boolean)
      .join(' ');
    lines.push(
      [
        entry.version,
        formatItalianDateTime(entry.at),
        `${entry.by.email} (${entry.by.role})`,
        entry.kind,
        entry.taxCodes.join(','),
        details,
        entry.cost,
        entry.remainingSearches,
      ].join('\t'),
    );
  }
  return lines.join('\n');
}

/** A client's quota stream, or an administrator's audit stream (its look-ups are recorded too). */
export async function runAudit(eventStore: EventStore, args: AuditArgs): Promise<string> {
  const clientId = await findClientIdByEmail(eventStore, args.client);
  if (clientId)
    return formatAuditReport(args.client, await clientAuditHistory(eventStore, clientId, args.at));
  const adminId = await findAdminIdByEmail(eventStore, args.client);
  if (adminId)
    return formatAuditReport(
      args.client,
      await userAuditHistory(eventStore, adminId, args.at),
      'Amministratore',
    );
  throw new UsageError(`Nessun cliente né amministratore con email ${args.client}`);
}
