/**
 * `npm run audit -- --client <email> [--at <date>]`: replays a client's quota stream and prints
 * every search, download, refusal and allowance change with who and when, and the remaining
 * searches as of the given date (default: now).
 */
import { parseArgs } from 'node:util';
import {
  clientAuditHistory,
  findAdminIdByEmail,
  findClientIdByEmail,
  userAuditHistory,
  type ClientAuditHistory,
} from '@rna/api/audit';
import { formatItalianDate, formatItalianDateTime, romeWallTimeToEpochMs } from '@rna/domain';
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
  let values: { client?: string; at?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { client: { type: 'string' }, at: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${usageProblem(error)}\n${USAGE}`);
  }
  if (!values.client) throw new UsageError(USAGE);
  if (values.at === undefined) return { client: values.client, at: null };
  const text = values.at;
  const at = /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? romeWallTimeToEpochMs(text, 23, 59) + 59_999
    : Date.parse(text);
  if (!Number.isFinite(at)) throw new UsageError(`Data non valida: ${text}\n${USAGE}`);
  return { client: values.client, at };
}

/** parseArgs' errors, said in Italian: a flag without its value, or a flag the command does not know. */
function usageProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const flag = /'(--?[\w-]+)/.exec(message ?? '')?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${flag} richiede un valore`;
  return `Argomento sconosciuto: ${flag}`;
}

/** The heading of a report: who, and the state as of the date asked for. */
export function formatAuditHeading(email: string, history: ClientAuditHistory, who = 'Cliente'): string {
  return [
    `${who} ${email} (id ${history.clientId})`,
    `Situazione ${history.asOf === null ? 'attuale' : `al ${formatItalianDateTime(history.asOf)}`}: ` +
      `ricerche residue ${history.remainingSearches} su ${history.availableYearlySearches}` +
      (history.endDate === null ? '' : `, scadenza ${formatItalianDateTime(history.endDate)}`) +
      ` (${history.totalEntries} eventi)`,
    '',
    ['#', 'quando', 'chi', 'evento', 'codici fiscali', 'dettagli', 'costo', 'residue'].join('\t'),
  ].join('\n');
}

/** One line per entry of a page. */
export function formatAuditEntries(entries: ClientAuditHistory['entries']): string {
  return entries
    .map((entry) => {
      const flags =
        entry.deMinimis === null ? '' : `deMinimis=${entry.deMinimis} last3Years=${entry.last3Years}`;
      const allowance =
        entry.allowance &&
        `${entry.allowance.remainingSearches}/${entry.allowance.availableYearlySearches} fino al ${formatItalianDate(entry.allowance.endDate)}`;
      const details = [
        allowance,
        entry.detail,
        entry.dataSource,
        entry.resultCount === null ? null : `${entry.resultCount} risultati`,
        flags,
      ]
        .filter(Boolean)
        .join(' ');
      return [
        entry.version,
        formatItalianDateTime(entry.at),
        `${entry.by.email} (${entry.by.role})`,
        entry.kind,
        entry.taxCodes.join(','),
        details,
        entry.cost,
        entry.remainingSearches,
      ].join('\t');
    })
    .join('\n');
}

type HistoryReader = (from: number) => Promise<ClientAuditHistory>;

/** Prints the heading, then the history a page at a time: a long history is never held whole. */
async function printHistory(
  email: string,
  who: string,
  read: HistoryReader,
  print: (text: string) => void,
): Promise<void> {
  let page = await read(0);
  print(formatAuditHeading(email, page, who));
  for (;;) {
    if (page.entries.length > 0) print(formatAuditEntries(page.entries));
    if (page.nextFrom === null) return;
    page = await read(page.nextFrom);
  }
}

/** A client's quota stream, or an administrator's audit stream (its look-ups are recorded too). */
export async function runAudit(
  eventStore: EventStore,
  args: AuditArgs,
  print: (text: string) => void,
): Promise<void> {
  const clientId = await findClientIdByEmail(eventStore, args.client);
  if (clientId) {
    return printHistory(
      args.client,
      'Cliente',
      (from) => clientAuditHistory(eventStore, clientId, args.at, { from }),
      print,
    );
  }
  const adminId = await findAdminIdByEmail(eventStore, args.client);
  if (adminId) {
    return printHistory(
      args.client,
      'Amministratore',
      (from) => userAuditHistory(eventStore, adminId, args.at, { from }),
      print,
    );
  }
  throw new UsageError(`Nessun cliente né amministratore con email ${args.client}`);
}
