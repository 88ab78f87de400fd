/**
 * Register file names: `OpenData_Aiuti_YYYY_MM[_NNN].xml|zip`. Private helper until the domain's
 * archive-file helpers are merged.
 */
export interface RegisterFileName {
  /** Display name without the open-data prefix and extension: 2024_02 or 2024_02_002. */
  name: string;
  year: number;
  month: number;
  /** 1 for the first (unsuffixed) part. */
  part: number;
}

const FILE_NAME = /^OpenData_Aiuti_(\d{4})_(\d{2})(?:_(\d{3}))?(?:\.(xml|zip))?$/i;
const DISPLAY_NAME = /^(\d{4})_(\d{2})(?:_(\d{3}))?$/;

export function parseRegisterFileName(fileName: string): RegisterFileName | null {
  const match = FILE_NAME.exec(fileName) ?? DISPLAY_NAME.exec(fileName);
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  if (month < 1 || month > 12) return null;
  const part = match[3] ? Number(match[3]) : 1;
  const name = `${match[1]}_${match[2]}${part > 1 || match[3] ? `_${match[3]}` : ''}`;
  return { name, year, month, part };
}

/** Newest first by year, month, then part (the spec's archive order). */
export function compareNewestFirst(a: RegisterFileName, b: RegisterFileName): number {
  return b.year - a.year || b.month - a.month || b.part - a.part;
}
