/**
 * The embedded stores (the real SQLite adapters, held to every contract suite) in a temporary
 * folder, for tests that need stores but are not about them. Tests use these rather than in-memory
 * fakes, which no contract suite checks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Collection, Doc, DocumentStore } from '../../documents/port';
import { openStores, type Stores } from '../../stores';
import { overriding } from '../../fencing';

export interface TemporaryStores extends Stores {
  dir: string;
  /** Closes the stores and removes the folder. */
  dispose(): Promise<void>;
}

export function openTemporaryStores(prefix = 'rna-test-stores-'): TemporaryStores {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const stores = openStores({ dataDir: dir });
  return {
    ...stores,
    dir,
    async dispose() {
      await stores.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The same store, with some methods of its collections replaced (a read that hangs, a write that
 * fails, a read held until another has happened): what the replacement leaves out is the store's own.
 */
export function withCollectionMethods(
  documents: DocumentStore,
  replace: <T extends Doc>(name: string, inner: Collection<T>) => Partial<Collection<T>>,
): DocumentStore {
  return overriding(documents, {
    collection: <T extends Doc>(name: string): Collection<T> => {
      const inner = documents.collection<T>(name);
      return overriding(inner, replace(name, inner));
    },
  });
}

/** Waits until `done()` holds, checking every 10 ms; fails after `timeoutMs` (a generous deadline, not a bound). */
export async function until(done: () => boolean, timeoutMs = 15_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > giveUpAt) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
