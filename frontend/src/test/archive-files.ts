import type { ArchiveFileDto } from '@rna/domain';

/** An archive file as the API lists it, never imported unless the test says otherwise. */
export const archiveFile = (name: string, over: Partial<ArchiveFileDto> = {}): ArchiveFileDto => ({
  name,
  lastUpdate: null,
  rnaLastUpdate: null,
  status: null,
  progress: 0,
  records: 0,
  error: null,
  ...over,
});
