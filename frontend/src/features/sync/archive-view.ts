import type { ArchiveFileDto } from '@rna/domain';
import { compareArchiveNames } from './file-status';

const newer = (a: number | null, b: number | null): number | null =>
  a === null ? b : b === null ? a : Math.max(a, b);

/**
 * The files the grid shows: the archive list joined with the run's files, newest first. A first sync's files
 * are only in the run until they are imported, and a file the run has just imported may still carry its old
 * date in the list, so the newer of the two dates wins.
 */
export function archiveView(
  list: readonly ArchiveFileDto[],
  runFiles: ReadonlyMap<string, ArchiveFileDto>,
): ArchiveFileDto[] {
  const byName = new Map(list.map((file) => [file.name, file]));
  for (const [name, live] of runFiles) {
    const listed = byName.get(name);
    byName.set(name, listed ? { ...listed, lastUpdate: newer(listed.lastUpdate, live.lastUpdate) } : live);
  }
  return [...byName.values()].sort((a, b) => compareArchiveNames(a.name, b.name));
}

/** Changes whenever the run gains a file, a file changes state, or an imported file gets its date. */
export function runSignature(files: readonly ArchiveFileDto[]): string {
  return files.map((file) => `${file.name}:${file.status ?? ''}:${file.lastUpdate ?? ''}`).join('|');
}
