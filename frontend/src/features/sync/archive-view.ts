import type { ArchiveFileDto } from '@rna/domain';
import { compareArchiveNames } from './file-status';

/**
 * The files the grid shows: the archive list joined with the run's files, newest first. A first sync's files
 * are only in the run until they are imported, and a file the run has just imported may still carry its old
 * date in the list, so the newer import wins: its date and the records it rejected.
 */
export function archiveView(
  list: readonly ArchiveFileDto[],
  runFiles: ReadonlyMap<string, ArchiveFileDto>,
): ArchiveFileDto[] {
  const byName = new Map(list.map((file) => [file.name, file]));
  for (const [name, live] of runFiles) {
    const listed = byName.get(name);
    if (!listed) {
      byName.set(name, live);
      continue;
    }
    const newer = (live.lastUpdate ?? 0) > (listed.lastUpdate ?? 0) ? live : listed;
    const { lastUpdate, recordsRejected, rejected } = newer;
    byName.set(name, { ...listed, lastUpdate, recordsRejected, rejected });
  }
  return [...byName.values()].sort((a, b) => compareArchiveNames(a.name, b.name));
}

/** Changes whenever the run gains a file, a file changes state, or an imported file gets its date. */
export function runSignature(files: readonly ArchiveFileDto[]): string {
  return files.map((file) => `${file.name}:${file.status ?? ''}:${file.lastUpdate ?? ''}`).join('|');
}
