/**
 * Document store on MongoDB (mongoose). One MongoDB collection per port collection, with a generic
 * schema: the document's fields at top level (so that equality filters, sorts and indexes use them
 * directly), `_id` = the document id and `_rev` = its revision.
 *
 * Compare-and-set: findOneAndUpdate with the revision in the filter ({ _id, _rev: expected }); the
 * update is a pipeline that replaces the document and increments `_rev`, so the write and the check
 * are one atomic operation on the server. expectedRevision 0 is an insert (duplicate key = conflict).
 *
 * A lease holder's write (a fence, fencing/) and putMany run in a transaction, so they need a replica
 * set (production runs one; so do compose and the engine tests, as a one-node set).
 */
import mongoose, { Schema, type ClientSession, type Connection, type Model } from 'mongoose';
import { assertFence, FencedError, type Fence } from '../fencing';
import { GridFsBlobStore } from '../blobs/gridfs-blob-store';
import type { BlobStore } from '../blobs/port';
import {
  assertDocumentIds,
  ConflictError,
  type Collection,
  type Doc,
  type DocumentStore,
  type FindOptions,
} from './port';

export interface MongoDocumentStoreOptions {
  uri: string;
  /** Database name (default: the one in the URI). */
  dbName?: string;
  /** Fields to index per collection, for the finds and sorts the features run. */
  indexes?: Readonly<Record<string, readonly string[]>>;
}

interface StoredDoc {
  _id: string;
  _rev: number;
  [field: string]: unknown;
}

const DUPLICATE_KEY = 11000;

/** Where each lease's highest token that wrote to this database is kept (fencing/). */
const FENCES_COLLECTION = '_fences';

/** A transaction reads one snapshot and commits once a majority holds it. */
const TRANSACTION_OPTIONS = {
  readConcern: { level: 'snapshot' },
  writeConcern: { w: 'majority', journal: true },
} as const;

/**
 * Inside the write's transaction: raises the lease's highest token to this one, or refuses the write
 * (FencedError, the transaction aborted) when a later holder wrote. The check always writes the fence
 * document (a counter goes up), so that a former holder's transaction and its successor's always
 * conflict on it and one of them is retried after the other committed: two transactions that only
 * read it could both commit under snapshot isolation, the former holder's write landing after its
 * successor began.
 */
async function checkFence(connection: Connection, fence: Fence, session: ClientSession): Promise<void> {
  assertFence(fence);
  const before = await connection
    .collection<{ _id: string; token: number; checks: number }>(FENCES_COLLECTION)
    .findOneAndUpdate(
      { _id: fence.name },
      { $max: { token: fence.token }, $inc: { checks: 1 } },
      { upsert: true, returnDocument: 'before', session },
    );
  const seen = before?.token ?? 0;
  if (seen > fence.token) throw new FencedError(fence, seen);
}

function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DUPLICATE_KEY;
}

/** The stored shape: fields at top level, without the port's `id` (it is `_id`). */
export function toStored(doc: Doc): Record<string, unknown> {
  const { id: _id, ...fields } = doc as Doc & Record<string, unknown>;
  void _id;
  return fields;
}

export function fromStored<T extends Doc>(stored: StoredDoc): T {
  const { _id, _rev, ...fields } = stored;
  void _rev;
  return { ...fields, id: _id } as unknown as T;
}

/** Equality on top-level fields; undefined values are no condition; `id` is `_id`. */
export function toFilter(filter: Record<string, unknown> = {}): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (field.startsWith('$')) throw new Error(`Invalid filter field ${field}`);
    // $eq keeps an object value an equality test, never an operator expression.
    query[field === 'id' ? '_id' : field] = { $eq: value };
  }
  return query;
}

export function toSort(options: FindOptions<Doc & Record<string, unknown>>): Record<string, 1 | -1> {
  const direction = options.order === 'desc' ? -1 : 1;
  if (options.sortBy === undefined || options.sortBy === 'id') return { _id: options.sortBy ? direction : 1 };
  return { [options.sortBy]: direction, _id: direction };
}

/** Pipeline update: the new fields as literals (a '$…' string stays text), and the revision + 1. */
export function replacementPipeline(doc: Doc): Record<string, unknown>[] {
  return [
    {
      $replaceWith: {
        $mergeObjects: [
          { $literal: toStored(doc) },
          { _id: doc.id, _rev: { $add: [{ $ifNull: ['$_rev', 0] }, 1] } },
        ],
      },
    },
  ];
}

const genericSchema = (collection: string, indexes: readonly string[]) => {
  const schema = new Schema<StoredDoc>(
    { _id: { type: String, required: true }, _rev: { type: Number, required: true } },
    { strict: false, versionKey: false, collection, autoIndex: true, _id: false },
  );
  for (const field of indexes) schema.index({ [field]: 1 });
  return schema;
};

class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly name: string,
    private readonly model: Model<StoredDoc>,
  ) {}

  async get(id: string): Promise<T | null> {
    return (await this.getWithRevision(id))?.doc ?? null;
  }

  async getWithRevision(id: string): Promise<{ doc: T; revision: number } | null> {
    const stored = await this.model.findById(id).lean<StoredDoc>().exec();
    return stored ? { doc: fromStored<T>(stored), revision: stored._rev } : null;
  }

  async put(doc: T, options: { expectedRevision?: number; fence?: Fence } = {}): Promise<number> {
    assertDocumentIds(this.name, [doc]);
    const { expectedRevision: expected, fence } = options;
    for (let attempt = 1; ; attempt++) {
      try {
        if (!fence) return await this.write(doc, expected);
        // the fence check and the write in one transaction: both happen or neither
        return await this.model.db.transaction(async (session) => {
          await checkFence(this.model.db, fence, session);
          return this.write(doc, expected, session);
        }, TRANSACTION_OPTIONS);
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        if (expected === 0) throw new ConflictError(this.name, doc.id);
        // Two unconditional upserts of a new id race on the insert: the loser retries as an update.
        if (expected === undefined && attempt < 3) continue;
        throw error;
      }
    }
  }

  private async write(doc: T, expected: number | undefined, session?: ClientSession): Promise<number> {
    if (expected === 0) {
      await this.model.collection.insertOne({ ...toStored(doc), _id: doc.id, _rev: 1 } as never, { session });
      return 1;
    }
    const filter = expected === undefined ? { _id: doc.id } : { _id: doc.id, _rev: expected };
    const updated = await this.model
      .findOneAndUpdate(filter, replacementPipeline(doc), {
        upsert: expected === undefined,
        new: true,
        projection: { _rev: 1 },
        session,
      })
      .lean<StoredDoc>()
      .exec();
    if (!updated) throw new ConflictError(this.name, doc.id);
    return updated._rev;
  }

  /**
   * One ordered bulk write in a transaction (later documents with the same id win): all or none, also
   * when the server fails halfway. Needs a replica set, as every write concern here does.
   */
  async putMany(docs: T[], options: { fence?: Fence } = {}): Promise<void> {
    // checked before the bulk write: a bad document in the middle must not leave the first ones written
    assertDocumentIds(this.name, docs);
    const { fence } = options;
    const lastById = new Map(docs.map((doc) => [doc.id, doc]));
    if (lastById.size === 0 && !fence) return;
    const writes = [...lastById.values()].map((doc) => ({
      updateOne: { filter: { _id: doc.id }, update: replacementPipeline(doc) as never, upsert: true },
    }));
    await this.model.db.transaction(async (session) => {
      if (fence) await checkFence(this.model.db, fence, session);
      if (writes.length > 0) await this.model.bulkWrite(writes, { ordered: true, session });
    }, TRANSACTION_OPTIONS);
  }

  async increment(id: string, field: keyof T & string): Promise<number> {
    assertDocumentIds(this.name, [{ id }]);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(field) || field === 'id')
      throw new TypeError(`Invalid field name for a counter: ${JSON.stringify(field)}`);
    // $inc is atomic on the primary: concurrent increments from any host all count
    const stored = await this.model.collection.findOneAndUpdate(
      { _id: id } as never,
      { $inc: { [field]: 1, _rev: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    return Number((stored as Record<string, unknown> | null)?.[field]);
  }

  async delete(id: string, options: { fence?: Fence } = {}): Promise<boolean> {
    const { fence } = options;
    if (!fence) return (await this.model.deleteOne({ _id: id }).exec()).deletedCount > 0;
    return this.model.db.transaction(async (session) => {
      await checkFence(this.model.db, fence, session);
      return (await this.model.deleteOne({ _id: id }, { session }).exec()).deletedCount > 0;
    }, TRANSACTION_OPTIONS);
  }

  async find(filter?: Partial<T>, options: FindOptions<T> = {}): Promise<T[]> {
    const conditions = toFilter(filter as Record<string, unknown>);
    if (options.afterId !== undefined)
      conditions._id = { ...(conditions._id as object | undefined), $gt: options.afterId };
    let query = this.model
      .find(conditions)
      .sort(toSort(options as FindOptions<Doc & Record<string, unknown>>));
    if (options.offset) query = query.skip(options.offset);
    if (options.limit !== undefined) query = query.limit(options.limit);
    const stored = await query.lean<StoredDoc[]>().exec();
    return stored.map((s) => fromStored<T>(s));
  }

  async count(filter?: Partial<T>): Promise<number> {
    return this.model.countDocuments(toFilter(filter as Record<string, unknown>)).exec();
  }

  async clear(): Promise<void> {
    await this.model.deleteMany({}).exec();
  }
}

export class MongoDocumentStore implements DocumentStore {
  private readonly models = new Map<string, Model<StoredDoc>>();

  constructor(
    /** Shared with the GridFS blob store, so that one process keeps one connection pool. */
    readonly connection: Connection,
    private readonly indexes: Readonly<Record<string, readonly string[]>>,
  ) {
    // Every declared collection's model now: mongoose builds its indexes as soon as the connection
    // is up (autoIndex), instead of on the first use of the collection.
    for (const name of Object.keys(indexes)) this.collection(name);
  }

  /** The fields indexed on a collection (besides _id). */
  indexedFields(name: string): string[] {
    this.collection(name);
    return this.models
      .get(name)!
      .schema.indexes()
      .flatMap(([fields]) => Object.keys(fields));
  }

  /** Resolves once the indexes of every collection used so far exist on the server. */
  async indexesBuilt(): Promise<void> {
    await Promise.all([...this.models.values()].map((model) => model.init()));
  }

  /** Logos in GridFS, on this store's connection. */
  blobsBeside(): BlobStore {
    return new GridFsBlobStore(this.connection);
  }

  collection<T extends Doc>(name: string): Collection<T> {
    let model = this.models.get(name);
    if (!model) {
      model = this.connection.model<StoredDoc>(name, genericSchema(name, this.indexes[name] ?? []), name);
      this.models.set(name, model);
    }
    return new MongoCollection<T>(name, model);
  }

  async replaceCollection(from: string, to: string): Promise<void> {
    if (!from || !to || from === to) throw new TypeError('replaceCollection needs two different names');
    const db = this.connection.db;
    if (!db) throw new Error('MongoDB is not connected');
    const exists = (await db.listCollections({ name: from }, { nameOnly: true }).toArray()).length > 0;
    // a rename with dropTarget replaces the collection in one step; nothing was written: `to` is emptied
    if (exists) await db.renameCollection(from, to, { dropTarget: true });
    else await db.collection(to).deleteMany({});
    // the renamed collection carries the shadow's indexes (none declared): build the declared ones
    this.collection(to);
    await this.models.get(to)!.createIndexes();
  }

  async dropDatabase(): Promise<void> {
    await this.connection.dropDatabase();
  }

  async close(): Promise<void> {
    await this.connection.close();
  }
}

/**
 * How the store talks to a replica set: a write is acknowledged once a majority holds it (journaled),
 * so a primary that fails over does not take it back; reads go to the primary and see only what a
 * majority holds, so a compare-and-set reads the revision it writes against; a call that hangs on a
 * socket fails after 30 s instead of holding its caller (a lease renewal) for ever.
 */
export function mongoConnectionOptions(dbName: string | undefined): mongoose.ConnectOptions {
  return {
    dbName,
    serverSelectionTimeoutMS: 10_000,
    socketTimeoutMS: 30_000,
    writeConcern: { w: 'majority', journal: true },
    readPreference: 'primary',
    readConcern: { level: 'majority' },
  };
}

/** Opens at once: mongoose buffers operations until the connection is up (and fails them after the timeout). */
export function openMongoDocumentStore(options: MongoDocumentStoreOptions): MongoDocumentStore {
  const connection = mongoose.createConnection(options.uri, mongoConnectionOptions(options.dbName));
  // Connection errors surface on the operations; an unhandled 'error' event must not crash the process.
  connection.on('error', () => undefined);
  return new MongoDocumentStore(connection, options.indexes ?? {});
}
