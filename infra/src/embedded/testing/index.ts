/**
 * The embedded stores (the real SQLite adapters, held to every contract suite) in a temporary
 * folder, for tests that need stores but are not about them. Tests use these rather than in-memory
 * fakes, which no contract suite checks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStores, type Stores } from '../../stores';

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
