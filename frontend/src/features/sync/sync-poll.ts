/** How the archive screen follows a run: every second, and slower while the status cannot be read. */
export const SYNC_POLL_MS = 1000;
export const SYNC_POLL_MAX_MS = 30_000;

/** The wait before the next status check after `failures` failed ones in a row (1 s, 2 s, 4 s … 30 s). */
export function syncPollDelay(failures: number): number {
  if (failures <= 0) return SYNC_POLL_MS;
  return Math.min(SYNC_POLL_MAX_MS, SYNC_POLL_MS * 2 ** failures);
}
