/** Documents port: typed JSON collections for read models and credentials. */
import type { BlobStore } from '../blobs/port';
import { overriding, type Fence } from '../fencing';

export interface Doc {
  id: string;
}

export interface FindOptions<T> {
  sortBy?: keyof T & string;
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
  /**
   * Only documents whose id sorts after this one (in id order, without sortBy): pages of a large
   * collection read one after the other, each from where the last ended, at the cost of one page.
   */
  afterId?: string;
}

export interface Collection<T extends Doc> {
  get(id: string): Promise<T | null>;
  /** The document and its revision (1 for the first write), for compare-and-set. */
  getWithRevision(id: string): Promise<{ doc: T; revision: number } | null>;
  /**
   * Writes the document. With expectedRevision, the write happens only if the stored revision
   * equals it (0 = must not exist); otherwise a ConflictError is thrown. Returns the new revision.
   * With a lease holder's fence (fencing/), only if no later holder of the lease wrote to this store
   * (FencedError): the check and the write are one transaction.
   */
  put(doc: T, options?: { expectedRevision?: number; fence?: Fence }): Promise<number>;
  /**
   * Writes several documents (no revision check), all or none: as many put() calls, but one write
   * for stores that can batch (bulk projections). Later documents with the same id win. A fence as
   * for put.
   */
  putMany(docs: T[], options?: { fence?: Fence }): Promise<void>;
  /** Deletes the document, telling whether there was one. A fence as for put. */
  delete(id: string, options?: { fence?: Fence }): Promise<boolean>;
  /** Field equality on top-level fields; all must match. In id order unless sorted by a field. */
  find(filter?: Partial<T>, options?: FindOptions<T>): Promise<T[]>;
  count(filter?: Partial<T>): Promise<number>;
  clear(): Promise<void>;
  /**
   * Adds 1 to a number field of the document, creating the document with only its id and that field
   * when there is none, in one atomic step whoever else increments it at the same time (processes on
   * other hosts included); returns the new value. For counters shared between processes.
   */
  increment(id: string, field: keyof T & string): Promise<number>;
}

export interface DocumentStore {
  collection<T extends Doc>(name: string): Collection<T>;
  /**
   * Where files go when this store can keep them itself (MongoDB's GridFS), so that one process keeps
   * one connection; absent when files belong on disk beside it.
   */
  blobsBeside?(): BlobStore;
  /**
   * In one step, the documents of collection `from` become those of `to` (its old ones gone) and
   * `from` is left empty: readers of `to` see the old documents or the new ones, never none (a
   * read model rebuilt beside the one in service, then put in its place).
   */
  replaceCollection(from: string, to: string): Promise<void>;
  close(): Promise<void>;
}

/** Where a rebuild writes a read model while the one in service is still read. */
export const shadowCollectionName = (name: string): string => `${name}__rebuild`;

/**
 * The store as a rebuild sees it: the collections named in `shadowed` are their shadows
 * (shadowCollectionName), every other collection is the store's own. Once the rebuild is complete,
 * `promoteShadows` puts each shadow in place of its collection.
 */
export function withShadowCollections(
  base: DocumentStore,
  shadowed: Iterable<string>,
): DocumentStore & {
  promoteShadows(): Promise<void>;
  dropShadows(): Promise<void>;
} {
  const names = new Set(shadowed);
  return {
    collection: <T extends Doc>(name: string) =>
      base.collection<T>(names.has(name) ? shadowCollectionName(name) : name),
    replaceCollection: (from, to) => base.replaceCollection(from, to),
    close: async () => undefined,
    async promoteShadows() {
      for (const name of names) await base.replaceCollection(shadowCollectionName(name), name);
    },
    async dropShadows() {
      for (const name of names) await base.collection(shadowCollectionName(name)).clear();
    },
  };
}

/**
 * Read-modify-write with the port's compare-and-set: `change` gets the stored document (null when
 * there is none) and returns the next one, or the same object to leave it as it is. When another
 * writer got there in between, `change` runs again on the newer document: no update is lost.
 */
export async function updateDocument<T extends Doc>(
  collection: Collection<T>,
  id: string,
  change: (current: T | null) => T | null,
  maxAttempts = 20,
): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const stored = await collection.getWithRevision(id);
    const current = stored?.doc ?? null;
    const next = change(current);
    if (next === null || next === current) return;
    try {
      await collection.put(next, { expectedRevision: stored?.revision ?? 0 });
      return;
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= maxAttempts) throw error;
    }
  }
}

/** Every adapter refuses a document without a string id, before it writes anything (TypeError). */
export function assertDocumentIds(collection: string, docs: readonly { id?: unknown }[]): void {
  for (const doc of docs) {
    if (typeof doc?.id !== 'string' || doc.id === '')
      throw new TypeError(`A document of ${collection} needs a string id`);
  }
}

export class ConflictError extends Error {
  readonly code = 'DOCUMENT_CONFLICT' as const;
  constructor(
    public readonly collection: string,
    public readonly id: string,
  ) {
    super(`Revision conflict on ${collection}/${id}`);
    this.name = 'ConflictError';
  }
}

/**
 * The store as a lease holder writes to it: every put, putMany and delete of its collections carries
 * the holder's fence (fencing/), so that none lands once a later holder of the lease has written.
 * Reads go to the store as they are; counters and clear() are not a holder's writes and are not fenced.
 */
export function fencedDocuments(store: DocumentStore, fence: Fence): DocumentStore {
  return overriding(store, {
    collection: <T extends Doc>(name: string): Collection<T> => {
      const collection = store.collection<T>(name);
      return overriding(collection, {
        put: (doc, options) => collection.put(doc, { ...options, fence }),
        putMany: (docs) => collection.putMany(docs, { fence }),
        delete: (id) => collection.delete(id, { fence }),
      });
    },
  });
}
