/**
 * The order of a register file's imports. Each import of a file is named by a sequence number taken
 * from the shared store when it begins, so that every reader can tell which of two imports is newer
 * whatever order their messages arrive in (a process paused past its lease and resumed, a redelivery,
 * another partition). An aid written by a newer import is never replaced by an older import's copy,
 * and an import's marker (or a file's withdrawal) removes only the aids older imports wrote.
 *
 * Ids written before this order existed (`<runId>:<file>:<random>`) have none: between two of them
 * the last write wins, as it did; every ordered id sorts after them.
 */

const ORDERED = /^i\d{12}:/;

/** i000000000042:<runId>:<file> — sorts as text in the order the sequence was taken. */
export function orderedImportId(sequence: number, runId: string, sourceFile: string): string {
  if (!Number.isSafeInteger(sequence) || sequence < 0 || sequence >= 1e12)
    throw new Error(`Import sequence out of range: ${sequence}`);
  return `i${String(sequence).padStart(12, '0')}:${runId}:${sourceFile}`;
}

export function isOrderedImportId(importId: string): boolean {
  return ORDERED.test(importId);
}

/**
 * Whether an aid written by `incoming` must leave the copy written by `stored` in place: both
 * imports are ordered and `incoming` began before `stored`.
 */
export function isOlderImport(incoming: string, stored: string): boolean {
  return isOrderedImportId(incoming) && isOrderedImportId(stored) && incoming < stored;
}
