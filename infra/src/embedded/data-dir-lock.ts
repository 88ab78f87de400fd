/**
 * One standalone process per data directory: SQLite would survive two, but two sync workers and two
 * projectors writing the same read models would not. The lock is a file created with O_EXCL holding
 * the owner's pid; a lock left by a process that no longer exists is taken over.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const LOCK_FILE_NAME = 'rna.lock';

interface LockContent {
  pid: number;
  owner: string;
  host: string;
  since: string;
}

export class DataDirLockedError extends Error {
  readonly code = 'DATA_DIR_LOCKED' as const;
  constructor(
    public readonly dataDir: string,
    public readonly holder: LockContent,
  ) {
    super(
      `Data directory ${dataDir} is already in use by ${holder.owner} (pid ${holder.pid} on ${holder.host}, since ${holder.since}). ` +
        'Stop that process first, or give this one another DATA_DIR.',
    );
    this.name = 'DataDirLockedError';
  }
}

function readLock(file: string): LockContent | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockContent>;
    if (typeof parsed.pid !== 'number') return null;
    return {
      pid: parsed.pid,
      owner: String(parsed.owner ?? 'unknown'),
      host: String(parsed.host ?? 'unknown'),
      since: String(parsed.since ?? 'unknown'),
    };
  } catch {
    return null;
  }
}

/** A pid is alive if signal 0 reaches it (EPERM: it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderIsAlive(holder: LockContent): boolean {
  // A pid from another host (shared volume) cannot be checked: assume it is alive.
  if (holder.host !== os.hostname()) return true;
  return isProcessAlive(holder.pid);
}

/**
 * Takes the data directory for this process, or throws DataDirLockedError naming the holder.
 * Returns the release function (also run on process exit).
 */
export function acquireDataDirLock(dataDir: string, owner: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE_NAME);
  const content: LockContent = {
    pid: process.pid,
    owner,
    host: os.hostname(),
    since: new Date().toISOString(),
  };

  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(content), { flag: 'wx' });
      return makeRelease(file, content);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readLock(file);
    if (holder && holderIsAlive(holder)) throw new DataDirLockedError(dataDir, holder);
    // Stale (its process is gone) or unreadable (a crash mid-write): remove it and try again.
    fs.rmSync(file, { force: true });
  }
  const holder = readLock(file);
  throw new DataDirLockedError(
    dataDir,
    holder ?? { pid: -1, owner: 'unknown', host: 'unknown', since: 'unknown' },
  );
}

function makeRelease(file: string, mine: LockContent): () => void {
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.removeListener('exit', release);
    // Only remove the lock if it is still ours (it may have been taken over as stale).
    const current = readLock(file);
    if (current && current.pid === mine.pid && current.since === mine.since) fs.rmSync(file, { force: true });
  };
  process.on('exit', release);
  return release;
}
