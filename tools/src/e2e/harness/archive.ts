/**
 * A small generated register archive and its ground truth: what the journeys expect to see
 * after a sync, computed from the generator's records, never from the portal's answers.
 */
import { readdir, readFile, utimes } from 'node:fs/promises';
import path from 'node:path';
import { generateArchive, type TruthRecord } from '../../generator/generate';

export interface GeneratedArchive {
  dir: string;
  /** Register file names without prefix, e.g. 2026_09_002. */
  fileNames: string[];
  truth: TruthRecord[];
}

/** The two months before the current one: inside 'last year' and inside the 3-year totals. */
export function recentMonths(now: Date, count = 2): string[] {
  const months: string[] = [];
  for (let back = count; back >= 1; back--) {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    months.push(`${date.getUTCFullYear()}_${String(date.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return months;
}

export async function generateSmallArchive(dir: string, now = new Date()): Promise<GeneratedArchive> {
  const result = await generateArchive({
    outDir: dir,
    months: recentMonths(now),
    aids: 160,
    partSize: 60,
    seed: 7,
    zip: true,
  });
  const text = await readFile(result.truthFile as string, 'utf8');
  const truth = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TruthRecord);
  return { dir, fileNames: result.files.map((file) => file.name), truth };
}

/** Tax codes ordered by how many aid components they received, most first. */
export function taxCodesByAidCount(truth: readonly TruthRecord[]): string[] {
  const counts = new Map<string, number>();
  for (const aid of truth)
    counts.set(aid.codiceFiscaleBeneficiario, (counts.get(aid.codiceFiscaleBeneficiario) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([code]) => code);
}

export function aidsOf(truth: readonly TruthRecord[], taxCodes: readonly string[]): TruthRecord[] {
  const wanted = new Set(taxCodes);
  return truth.filter((aid) => wanted.has(aid.codiceFiscaleBeneficiario));
}

/**
 * The register publishes a new version of one file (same content, a later Last-Modified), so the next
 * sync downloads it again instead of skipping it as unchanged.
 */
export async function republishFile(archive: GeneratedArchive, name: string): Promise<void> {
  const now = new Date();
  const entries = (await readdir(archive.dir)).filter((entry) => entry.includes(`_${name}.`));
  if (entries.length === 0) throw new Error(`no register file ${name} in ${archive.dir}`);
  for (const entry of entries) await utimes(path.join(archive.dir, entry), now, now);
}
