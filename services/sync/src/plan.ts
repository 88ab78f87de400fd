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
    const current = monthIndex(now.getUTCFullYear(), now.getUTCMonth() + 1);
    const oldest = current - SCOPE_MONTHS[scope] + 1;
    selected = files.filter((file) => {
      const index = monthIndex(file.year, file.month);
      return index >= oldest && index <= current;
    });
  }
  return [...selected].sort(compareNewestFirst);
}
