/**
 * Register archive files (FORMAT.md): one open-data file per month, large months split in parts
 * (`OpenData_Aiuti_2024_02.xml`, `…_2024_02_002.xml`, …); names, newest-first order, sync scopes.
 */
import { addMonthsToYearMonth, romeMonth, type YearMonth } from './dates';

export type SyncScope = 'LAST_YEAR' | 'LAST_3_YEARS' | 'ALL' | 'CUSTOM';

export const SYNC_SCOPES: readonly SyncScope[] = ['LAST_YEAR', 'LAST_3_YEARS', 'ALL', 'CUSTOM'];

export function isSyncScope(value: unknown): value is SyncScope {
  return typeof value === 'string' && (SYNC_SCOPES as readonly string[]).includes(value);
}

/** How many months (ending with the current one) each scope covers; 'ALL' is the last 10 years. */
export const SCOPE_MONTHS: Readonly<Record<Exclude<SyncScope, 'CUSTOM'>, number>> = {
  LAST_YEAR: 12,
  LAST_3_YEARS: 36,
  ALL: 120,
};

export const ARCHIVE_FILE_PREFIX = 'OpenData_Aiuti_';

export interface ArchiveFileName {
  year: number;
  month: number;
  /** 1 for the file without suffix, 2 for `_002`, … */
  part: number;
  /** without the prefix and extension: '2024_02' or '2024_02_002' */
  displayName: string;
  /** as given: 'OpenData_Aiuti_2024_02_002.xml' */
  fileName: string;
}

const FILE_NAME = /^OpenData_Aiuti_(\d{4})_(\d{2})(?:_(\d{3}))?(?:\.(?:xml|zip))?$/i;
const DISPLAY_NAME = /^(\d{4})_(\d{2})(?:_(\d{3}))?$/;

function build(match: RegExpExecArray, fileName: string): ArchiveFileName | null {
  const year = Number(match[1]);
  const month = Number(match[2]);
  const part = match[3] === undefined ? 1 : Number(match[3]);
  if (month < 1 || month > 12 || part < 1) return null;
  const displayName = `${match[1]}_${match[2]}${match[3] === undefined ? '' : `_${match[3]}`}`;
  return { year, month, part, displayName, fileName };
}

/**
 * 'OpenData_Aiuti_2024_02_002.xml' (or .zip, or without extension as in the listing's data-filename)
 * → its parts; null for any other name.
 */
export function parseArchiveFileName(fileName: string): ArchiveFileName | null {
  const match = FILE_NAME.exec(fileName.trim());
  return match ? build(match, fileName.trim()) : null;
}

/** A display name ('2024_02_002') or a file name → its parts; null otherwise. */
export function parseArchiveName(name: string): ArchiveFileName | null {
  const trimmed = name.trim();
  const display = DISPLAY_NAME.exec(trimmed);
  if (display) return build(display, `${ARCHIVE_FILE_PREFIX}${trimmed}.xml`);
  return parseArchiveFileName(trimmed);
}

/** The name shown in the archive screen: without prefix and extension. Other names are shown as they are. */
export function archiveDisplayName(fileName: string): string {
  return parseArchiveFileName(fileName)?.displayName ?? fileName;
}

/** Newest first: year, then month, then part, all descending. */
export function compareArchiveFilesNewestFirst(
  a: Pick<ArchiveFileName, 'year' | 'month' | 'part'>,
  b: Pick<ArchiveFileName, 'year' | 'month' | 'part'>,
): number {
  return b.year - a.year || b.month - a.month || b.part - a.part;
}

export function sortArchiveFilesNewestFirst<T extends Pick<ArchiveFileName, 'year' | 'month' | 'part'>>(
  files: readonly T[],
): T[] {
  return [...files].sort(compareArchiveFilesNewestFirst);
}

/**
 * Names (display or file names, e.g. ArchiveFileDto.name) newest first; names that are not archive
 * names go last, alphabetically.
 */
export function sortArchiveNamesNewestFirst(names: readonly string[]): string[] {
  const parsed = names.map((name) => ({ name, parts: parseArchiveName(name) }));
  return parsed
    .sort((a, b) => {
      if (a.parts && b.parts) return compareArchiveFilesNewestFirst(a.parts, b.parts);
      if (a.parts) return -1;
      if (b.parts) return 1;
      return a.name.localeCompare(b.name);
    })
    .map((entry) => entry.name);
}

/** The months a scope covers, newest first, ending with the current month in Rome; CUSTOM has none. */
export function monthsForScope(scope: SyncScope, now: Date | number): YearMonth[] {
  if (scope === 'CUSTOM') return [];
  const current = romeMonth(now);
  return Array.from({ length: SCOPE_MONTHS[scope] }, (_, back) => addMonthsToYearMonth(current, -back));
}

/**
 * The files a sync of this scope imports, newest first: the files of the scope's months, or for
 * CUSTOM exactly the files named in onlyDocuments. A display name ('2024_02') selects that month
 * part whatever its extension; a file name selects that very file, or, when the listing spells it
 * differently (no extension, .zip for .xml), the file with the same display name. Unknown names
 * select nothing.
 */
export function selectFilesForScope<T extends ArchiveFileName>(
  files: readonly T[],
  scope: SyncScope,
  now: Date | number,
  onlyDocuments: readonly string[] = [],
): T[] {
  if (scope === 'CUSTOM') return sortArchiveFilesNewestFirst(selectNamedFiles(files, onlyDocuments));
  const months = new Set(monthsForScope(scope, now).map(({ year, month }) => year * 100 + month));
  return sortArchiveFilesNewestFirst(files.filter((file) => months.has(file.year * 100 + file.month)));
}

function selectNamedFiles<T extends ArchiveFileName>(files: readonly T[], names: readonly string[]): T[] {
  const selected = new Set<T>();
  for (const raw of names) {
    const name = raw.trim();
    const exact = files.filter((file) => file.fileName === name);
    const parsed = parseArchiveName(name);
    const matches =
      exact.length > 0 ? exact : files.filter((file) => file.displayName === parsed?.displayName);
    matches.forEach((file) => selected.add(file));
  }
  return [...selected];
}
