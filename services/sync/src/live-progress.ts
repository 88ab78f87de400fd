/**
 * Download progress of the file being imported. Kept in memory and mirrored to a documents
 * record at most ~4 times a second: an event per chunk would flood the event store.
 */
import type { DocumentStore } from '@rna/infra';
import { LIVE_PROGRESS_ID, SYNC_PROGRESS_COLLECTION, type LiveProgress } from '@rna/read-models';

export { LIVE_PROGRESS_ID, SYNC_PROGRESS_COLLECTION, type LiveProgress };

export const percentage = (received: number, total: number | null): number =>
  total && total > 0 ? Math.min(100, Math.round((received / total) * 10000) / 100) : 0;

export class ProgressTracker {
  private current: LiveProgress | null = null;
  private lastWrite = 0;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly documents: DocumentStore,
    private readonly now: () => number,
    private readonly intervalMs = 250,
  ) {}

  get(): LiveProgress | null {
    return this.current ? { ...this.current } : null;
  }

  update(next: Omit<LiveProgress, 'id' | 'updatedAt'>, force = false): void {
    const at = this.now();
    this.current = { ...next, id: LIVE_PROGRESS_ID, updatedAt: at };
    if (force || at - this.lastWrite >= this.intervalMs) {
      this.lastWrite = at;
      const doc = this.current;
      // Writes are chained so that a slow store never sees them out of order.
      this.writing = this.writing
        .then(() => this.documents.collection<LiveProgress>(SYNC_PROGRESS_COLLECTION).put(doc))
        .catch(() => undefined);
    }
  }

  async clear(): Promise<void> {
    this.current = null;
    await this.writing;
    await this.documents.collection<LiveProgress>(SYNC_PROGRESS_COLLECTION).delete(LIVE_PROGRESS_ID);
  }

  async flushed(): Promise<void> {
    await this.writing;
  }
}
