/** Documents port: typed JSON collections for read models and credentials. */

export interface Doc {
  id: string;
}

export interface FindOptions<T> {
  sortBy?: keyof T & string;
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

export interface Collection<T extends Doc> {
  get(id: string): Promise<T | null>;
  /** The document and its revision (1 for the first write), for compare-and-set. */
  getWithRevision(id: string): Promise<{ doc: T; revision: number } | null>;
  /**
   * Writes the document. With expectedRevision, the write happens only if the stored revision
   * equals it (0 = must not exist); otherwise a ConflictError is thrown. Returns the new revision.
   */
  put(doc: T, options?: { expectedRevision?: number }): Promise<number>;
  /**
   * Writes several documents (no revision check), all or none: as many put() calls, but one write
   * for stores that can batch (bulk projections). Later documents with the same id win.
   */
  putMany(docs: T[]): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Field equality on top-level fields; all must match. */
  find(filter?: Partial<T>, options?: FindOptions<T>): Promise<T[]>;
  count(filter?: Partial<T>): Promise<number>;
  clear(): Promise<void>;
}

export interface DocumentStore {
  collection<T extends Doc>(name: string): Collection<T>;
  close(): Promise<void>;
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
