import type { RegisterFileStatus } from '@rna/domain';

export type StatusTone = 'pending' | 'downloading' | 'parsing' | 'success' | 'error';

const TONES: Record<RegisterFileStatus, StatusTone> = {
  PENDING: 'pending',
  DOWNLOADING: 'downloading',
  PARSING: 'parsing',
  SUCCESS: 'success',
  ERROR: 'error',
};

export interface FileStatusView {
  tone: StatusTone;
  /** catalogue key of the label: sync.fileStatus.<status> */
  labelKey: string;
  /** the percentage while downloading, Italian style with 2 decimals */
  values?: { percent: string };
}

/** SPEC §4 archive file states: white, yellow (percentage, 2 decimals), orange, green, red. */
export function fileStatusView(status: RegisterFileStatus, progress: number): FileStatusView {
  const view: FileStatusView = { tone: TONES[status], labelKey: `sync.fileStatus.${status}` };
  if (status === 'DOWNLOADING') view.values = { percent: progress.toFixed(2).replace('.', ',') };
  return view;
}

/**
 * The colour of a selectable card: the outcome of the file's latest import, green or red. Pending and running
 * states are left out because outside a run they are stale (the run's own cards show those).
 */
export function finishedTone(status: RegisterFileStatus | null): 'success' | 'error' | null {
  if (status === 'SUCCESS') return 'success';
  if (status === 'ERROR') return 'error';
  return null;
}

/** States shown as progress cards while a run is going. */
export const isActiveStatus = (status: RegisterFileStatus | null): boolean =>
  status === 'PENDING' || status === 'DOWNLOADING' || status === 'PARSING';

const OPEN_DATA_PREFIX = /^OpenData_Aiuti?_/i;

/** Names are shown without the open-data prefix. */
export function displayName(name: string): string {
  return name.replace(OPEN_DATA_PREFIX, '').replace(/\.(zip|xml)$/i, '');
}

/** Newest first by year, month, then part (yyyy_mm[_part]). */
export function compareArchiveNames(a: string, b: string): number {
  const parts = (name: string) =>
    displayName(name)
      .split('_')
      .map((p) => Number(p) || 0);
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < 3; i += 1) {
    const diff = (pb[i] ?? 0) - (pa[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
