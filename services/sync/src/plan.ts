/** Which register files a sync scope covers (private until the domain helper is merged). */
import type { SyncScope } from '@rna/domain';
import { compareNewestFirst, parseRegisterFileName, type RegisterFileInfo } from '@rna/infra/register';

/** Months covered, counting the current one: last year 12, last 3 years 36, all = last 10 years. */
const SCOPE_MONTHS: Record<Exclude<SyncScope, 'CUSTOM'>, number> = {
  LAST_YEAR: 12,
  LAST_3_YEARS: 36,
  ALL: 120,
};

const monthIndex = (year: number, month: number) => year * 12 + (month - 1);

/** Whether a register file's month falls inside a (non-custom) scope at `now`. */
function withinScope(
  file: { year: number; month: number },
  scope: Exclude<SyncScope, 'CUSTOM'>,
  now: Date,
): boolean {
  const current = monthIndex(now.getUTCFullYear(), now.getUTCMonth() + 1);
  const index = monthIndex(file.year, file.month);
  return index >= current - SCOPE_MONTHS[scope] + 1 && index <= current;
}

/** More than this share of the known files missing at once is a fault of the register, not news. */
export const MAX_SHARE_OF_FILES_GONE = 1 / 5;

export type FilesGone = { gone: string[]; fault: null } | { gone: []; fault: string };

/**
 * Files imported before that a complete listing (a full-scope run) no longer has, inside the scope:
 * they left the register and their aids must go. An empty listing, or one that loses more than a fifth
 * of the known files at once, is taken as the register's fault and nothing is withdrawn.
 */
export function filesGoneFromRegister(
  listed: readonly string[],
  imported: readonly string[],
  now: Date,
): FilesGone {
  const known = imported.flatMap((name) => {
    const parsed = parseRegisterFileName(name);
    return parsed && withinScope(parsed, 'ALL', now) ? [parsed.name] : [];
  });
  if (known.length === 0) return { gone: [], fault: null };
  if (listed.length === 0) return { gone: [], fault: 'elenco dei file RNA vuoto' };
  const present = new Set(listed);
  const gone = known.filter((name) => !present.has(name));
  if (gone.length > known.length * MAX_SHARE_OF_FILES_GONE)
    return {
      gone: [],
      fault: `elenco dei file RNA incompleto: mancano ${gone.length} dei ${known.length} file importati`,
    };
  return { gone, fault: null };
}

export function planFiles(
  files: RegisterFileInfo[],
  scope: SyncScope,
  onlyDocuments: string[],
  now: Date,
): RegisterFileInfo[] {
  let selected: RegisterFileInfo[];
  if (scope === 'CUSTOM') {
    const wanted = new Set(
      onlyDocuments.map((name) => parseRegisterFileName(name.trim())?.name ?? name.trim()),
    );
    selected = files.filter((file) => wanted.has(file.name));
  } else {
    selected = files.filter((file) => withinScope(file, scope, now));
  }
  return [...selected].sort(compareNewestFirst);
}
