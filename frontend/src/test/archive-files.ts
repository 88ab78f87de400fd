import type { ArchiveFileDto, SyncStatusDto } from '@rna/domain';

/** An archive file as the API lists it, never imported unless the test says otherwise. */
export const archiveFile = (name: string, over: Partial<ArchiveFileDto> = {}): ArchiveFileDto => ({
  name,
  lastUpdate: null,
  rnaLastUpdate: null,
  status: null,
  progress: 0,
  records: 0,
  error: null,
  recordsRejected: 0,
  rejected: [],
  ...over,
});

/** The status of a run of two files going on, with these files (those SUCCESS counted as done). */
export function runningStatus(files: ArchiveFileDto[]): SyncStatusDto {
  return {
    running: true,
    run: {
      id: 'r1',
      type: 'LAST_YEAR',
      start: 1,
      end: null,
      status: 'RUNNING',
      files: files.map((file) => ({ recordsSetAside: 0, ...file })),
      done: files.filter((f) => f.status === 'SUCCESS').length,
      total: 2,
      records: 0,
      recordsRejected: 0,
      recordsSetAside: 0,
      published: 0,
      indexed: 0,
      succeeded: 0,
      failed: 0,
      skipped: 0,
    },
    indexing: false,
  };
}
