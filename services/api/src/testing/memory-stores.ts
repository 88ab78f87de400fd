/**
 * In-memory documents and blobs for API tests, until the embedded SQLite adapters of those two
 * ports land (the event store, message log and aid index already are the embedded ones).
 * Same semantics as the ports: compare-and-set revisions, top-level equality filters.
 */
import { ConflictError, type Collection, type Doc, type DocumentStore, type FindOptions } from '@rna/infra';
import type { BlobStore } from '../http/deps';

class MemoryCollection<T extends Doc> implements Collection<T> {
  private readonly docs = new Map<string, { doc: T; revision: number }>();
  constructor(private readonly name: string) {}

  async get(id: string) {
    const found = this.docs.get(id);
    return found ? structuredClone(found.doc) : null;
  }
  async getWithRevision(id: string) {
    const found = this.docs.get(id);
    return found ? { doc: structuredClone(found.doc), revision: found.revision } : null;
  }
  async put(doc: T, options?: { expectedRevision?: number }) {
    const current = this.docs.get(doc.id)?.revision ?? 0;
    if (options?.expectedRevision !== undefined && options.expectedRevision !== current)
      throw new ConflictError(this.name, doc.id);
    this.docs.set(doc.id, { doc: structuredClone(doc), revision: current + 1 });
    return current + 1;
  }
  async delete(id: string) {
    return this.docs.delete(id);
  }
  async find(filter: Partial<T> = {}, options: FindOptions<T> = {}) {
    let found = [...this.docs.values()]
      .map((d) => d.doc)
      .filter((doc) => Object.entries(filter).every(([k, v]) => doc[k as keyof T] === v));
    if (options.sortBy) {
      const key = options.sortBy;
      const sign = options.order === 'desc' ? -1 : 1;
      found = found.sort((a, b) => (a[key] < b[key] ? -sign : a[key] > b[key] ? sign : 0));
    }
    const offset = options.offset ?? 0;
    return structuredClone(found.slice(offset, options.limit === undefined ? undefined : offset + options.limit));
  }
  async count(filter: Partial<T> = {}) {
    return (await this.find(filter)).length;
  }
  async clear() {
    this.docs.clear();
  }
}

export function memoryDocumentStore(): DocumentStore {
  const collections = new Map<string, MemoryCollection<Doc>>();
  return {
    collection<T extends Doc>(name: string): Collection<T> {
      let collection = collections.get(name);
      if (!collection) {
        collection = new MemoryCollection<Doc>(name);
        collections.set(name, collection);
      }
      return collection as unknown as Collection<T>;
    },
    async close() {},
  };
}

export function memoryBlobStore(): BlobStore & { names(): string[] } {
  const blobs = new Map<string, { bytes: Buffer; contentType: string }>();
  return {
    async put(name, bytes, contentType) {
      blobs.set(name, { bytes: Buffer.from(bytes), contentType });
    },
    async get(name) {
      return blobs.get(name) ?? null;
    },
    async delete(name) {
      return blobs.delete(name);
    },
    async exists(name) {
      return blobs.has(name);
    },
    names: () => [...blobs.keys()],
  };
}
