import { logAidChanges, raiseAidChangeBuckets } from '@rna/read-models';
import type { DocumentStore } from '@rna/infra';

/**
 * Tax codes the index changed whose notes are not made yet: the change log's (what alerts read) and
 * the cache buckets' (what the API's look-ups read). The projection keeps them across batches and
 * their attempts: a write whose note failed is not made again by the batch's retry (its aids are
 * stored by then, the retry changes nothing), so its codes are noted by the next note that succeeds.
 * A code changed again while its note is being made stays for the next one. Held in memory: a process
 * that dies between the index's commit and the note still loses that note.
 */
export class UnnotedChanges {
  // code → the last change's number, so that a note removes only the changes it carried
  private readonly unlogged = new Map<string, number>();
  private readonly unraised = new Map<string, number>();
  private changes = 0;

  /** A write's changed codes, once the index has committed it. */
  changed(taxCodes: Iterable<string>): void {
    const change = ++this.changes;
    for (const code of taxCodes) {
      this.unlogged.set(code, change);
      this.unraised.set(code, change);
    }
  }

  /** Logs every code not logged yet, in one note (logAidChanges); on failure they stay. */
  log(documents: DocumentStore, changedAt: number): Promise<void> {
    return noteAll(this.unlogged, (codes) => logAidChanges(documents, codes, changedAt));
  }

  /** Raises the buckets of every code whose bucket is not raised yet (raiseAidChangeBuckets). */
  raise(documents: DocumentStore, changedAt: number): Promise<void> {
    return noteAll(this.unraised, (codes) => raiseAidChangeBuckets(documents, codes, changedAt));
  }
}

async function noteAll(
  pending: Map<string, number>,
  note: (taxCodes: string[]) => Promise<void>,
): Promise<void> {
  if (pending.size === 0) return;
  const carried = [...pending];
  await note(carried.map(([code]) => code));
  for (const [code, change] of carried) if (pending.get(code) === change) pending.delete(code);
}
