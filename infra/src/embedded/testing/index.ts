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

/** A method of `target` read through a proxy, bound to the target (class methods need their `this`). */
function boundMember(target: object, key: string | symbol): unknown {
  const value: unknown = Reflect.get(target, key, target);
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}

/**
 * The same store, with some methods of its collections replaced (a read that hangs, a write that
 * fails, a read held until another has happened): what the replacement leaves out is the store's own.
 */
export function withCollectionMethods(
  documents: DocumentStore,
  replace: <T extends Doc>(name: string, inner: Collection<T>) => Partial<Collection<T>>,
): DocumentStore {
  const collection = <T extends Doc>(name: string): Collection<T> => {
    const inner = documents.collection<T>(name);
    const replaced = replace(name, inner);
    return new Proxy(inner, {
      get: (target, key) =>
        typeof key === 'string' && key in replaced
          ? replaced[key as keyof Collection<T>]
          : boundMember(target, key),
    });
  };
  return new Proxy(documents, {
    get: (target, key) => (key === 'collection' ? collection : boundMember(target, key)),
  });
}
