/**
 * Small in-memory implementations of the ports, for the sync tests until the embedded SQLite
 * adapters are merged. They honour the port contracts the sync code relies on (expected
 * versions, checkpoints, consumer-group offsets, revisions), nothing more.
 */
import type { AidRecord } from '@rna/domain';
import {
  ConcurrencyError,
  ConflictError,
  type AidIndex,
  type AidSearch,
  type AppendResult,
  type BatchHandler,
  type Collection,
  type ConsumedMessage,
  type Consumer,
  type Doc,
  type DocumentStore,
  type EventStore,
  type EventToAppend,
  type EventsHandler,
  type ExpectedVersion,
  type MessageLog,
  type MessageToPublish,
  type ReadStreamResult,
  type RecordedEvent,
  type Subscription,
} from '../../index';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

export class InMemoryEventStore implements EventStore {
  private readonly all: RecordedEvent[] = [];
  private readonly versions = new Map<string, number>();
  private readonly checkpoints = new Map<string, number>();

  async appendToStream(
    stream: string,
    events: EventToAppend[],
    options: { expectedVersion?: ExpectedVersion } = {},
  ): Promise<AppendResult> {
    const current = this.versions.get(stream) ?? -1;
    const expected = options.expectedVersion ?? 'any';
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && current === -1) ||
      (expected === 'stream_exists' && current >= 0) ||
      expected === current;
    if (!ok) throw new ConcurrencyError(stream, expected, current);
    let version = current;
    for (const event of events) {
      version++;
      this.all.push({
        streamName: stream,
        streamVersion: version,
        globalPosition: this.all.length + 1,
        type: event.type,
        data: structuredClone(event.data),
        metadata: event.metadata ?? {},
        createdAt: new Date().toISOString(),
      });
    }
    this.versions.set(stream, version);
    return { nextExpectedVersion: version, lastGlobalPosition: this.all.length };
  }

  async readStream<Data = unknown>(
    stream: string,
    options: { fromVersion?: number } = {},
  ): Promise<ReadStreamResult<Data>> {
    const events = this.all.filter(
      (e) => e.streamName === stream && e.streamVersion >= (options.fromVersion ?? 0),
    );
    return { currentVersion: this.versions.get(stream) ?? -1, events: events as RecordedEvent<Data>[] };
  }

  async readAll(options: { after: number; maxCount: number }): Promise<RecordedEvent[]> {
    return this.all.slice(options.after, options.after + options.maxCount);
  }
  async getCheckpoint(subscriberId: string): Promise<number> {
    return this.checkpoints.get(subscriberId) ?? 0;
  }
  async storeCheckpoint(subscriberId: string, position: number): Promise<void> {
    this.checkpoints.set(subscriberId, position);
  }

  subscribeToAll(options: {
    subscriberId: string;
    handler: EventsHandler;
    batchSize?: number;
  }): Subscription {
    let stopped = false;
    let position = -1;
    const loop = (async () => {
      position = await this.getCheckpoint(options.subscriberId);
      while (!stopped) {
        const batch = await this.readAll({ after: position, maxCount: options.batchSize ?? 100 });
        if (batch.length === 0) {
          await tick();
          continue;
        }
        await options.handler(batch);
        position = (batch[batch.length - 1] as RecordedEvent).globalPosition;
        await this.storeCheckpoint(options.subscriberId, position);
      }
    })();
    return {
      stop: async () => {
        stopped = true;
        await loop;
      },
      caughtUp: async () => {
        const target = this.all.length;
        while (position < target && !stopped) await tick();
      },
    };
  }
  async close(): Promise<void> {}
}

export class InMemoryMessageLog implements MessageLog {
  private readonly topics = new Map<string, ConsumedMessage[]>();
  private readonly offsets = new Map<string, number>();
  published = 0;

  private topic(name: string): ConsumedMessage[] {
    const messages = this.topics.get(name) ?? [];
    this.topics.set(name, messages);
    return messages;
  }
  async publish(topic: string, messages: MessageToPublish[]): Promise<void> {
    const log = this.topic(topic);
    for (const message of messages) {
      log.push({
        topic,
        partition: 0,
        offset: String(log.length),
        key: message.key,
        value: 'json' in message ? JSON.parse(message.json) : structuredClone(message.value),
        timestamp: new Date().toISOString(),
      });
      this.published++;
    }
  }
  consume(options: { topic: string; groupId: string; handler: BatchHandler; batchSize?: number }): Consumer {
    const key = `${options.topic}/${options.groupId}`;
    const log = this.topic(options.topic);
    let stopped = false;
    const loop = (async () => {
      while (!stopped) {
        const from = this.offsets.get(key) ?? 0;
        const batch = log.slice(from, from + (options.batchSize ?? 500));
        if (batch.length === 0) {
          await tick();
          continue;
        }
        try {
          await options.handler(batch);
          this.offsets.set(key, from + batch.length);
        } catch {
          await tick(); // retried, as the port promises
        }
      }
    })();
    return {
      stop: async () => {
        stopped = true;
        await loop;
      },
      caughtUp: async () => {
        const target = log.length;
        while ((this.offsets.get(key) ?? 0) < target && !stopped) await tick();
      },
    };
  }
  async resetGroup(topic: string, groupId: string): Promise<void> {
    this.offsets.delete(`${topic}/${groupId}`);
  }
  async close(): Promise<void> {}
}

const content = (aid: AidRecord) => JSON.stringify({ ...aid, importId: undefined });

export class InMemoryAidIndex implements AidIndex {
  readonly aids = new Map<string, AidRecord>();

  async upsert(records: AidRecord[]): Promise<{ changed: number; changedTaxCodes: string[] }> {
    const taxCodes = new Set<string>();
    let changed = 0;
    for (const record of records) {
      const previous = this.aids.get(record.idComponenteAiuto);
      if (!previous || content(previous) !== content(record)) {
        changed++;
        taxCodes.add(record.codiceFiscaleBeneficiario);
      }
      this.aids.set(record.idComponenteAiuto, { ...record });
    }
    return { changed, changedTaxCodes: [...taxCodes] };
  }
  async withdraw(ids: string[]): Promise<{ count: number; taxCodes: string[] }> {
    const taxCodes = new Set<string>();
    let count = 0;
    for (const id of ids) {
      const aid = this.aids.get(id);
      if (!aid) continue;
      this.aids.delete(id);
      count++;
      taxCodes.add(aid.codiceFiscaleBeneficiario);
    }
    return { count, taxCodes: [...taxCodes] };
  }
  async withdrawBySourceFile(
    sourceFile: string,
    keepImportId?: string,
  ): Promise<{ count: number; taxCodes: string[] }> {
    const ids = [...this.aids.values()]
      .filter((aid) => aid.sourceFile === sourceFile && aid.importId !== keepImportId)
      .map((aid) => aid.idComponenteAiuto);
    return this.withdraw(ids);
  }
  async search(query: AidSearch): Promise<AidRecord[]> {
    const found = [...this.aids.values()]
      .filter((aid) => query.taxCodes.includes(aid.codiceFiscaleBeneficiario))
      .filter((aid) => !query.dateFrom || aid.dataConcessione >= query.dateFrom)
      .filter((aid) => !query.deMinimisOnly || aid.codProcedimento === '1')
      .sort(
        (a, b) =>
          b.dataConcessione.localeCompare(a.dataConcessione) ||
          b.idComponenteAiuto.localeCompare(a.idComponenteAiuto),
      );
    return query.limit ? found.slice(0, query.limit) : found;
  }
  async get(id: string): Promise<AidRecord | null> {
    return this.aids.get(id) ?? null;
  }
  async count(): Promise<number> {
    return this.aids.size;
  }
  async statsBySourceFile(): Promise<{ sourceFile: string; count: number }[]> {
    const counts = new Map<string, number>();
    for (const aid of this.aids.values()) counts.set(aid.sourceFile, (counts.get(aid.sourceFile) ?? 0) + 1);
    return [...counts].map(([sourceFile, count]) => ({ sourceFile, count }));
  }
  async clear(): Promise<void> {
    this.aids.clear();
  }
  async close(): Promise<void> {}
}

class InMemoryCollection<T extends Doc> implements Collection<T> {
  private readonly docs = new Map<string, { doc: T; revision: number }>();
  constructor(private readonly name: string) {}
  async get(id: string): Promise<T | null> {
    const entry = this.docs.get(id);
    return entry ? structuredClone(entry.doc) : null;
  }
  async getWithRevision(id: string): Promise<{ doc: T; revision: number } | null> {
    const entry = this.docs.get(id);
    return entry ? { doc: structuredClone(entry.doc), revision: entry.revision } : null;
  }
  async put(doc: T, options: { expectedRevision?: number } = {}): Promise<number> {
    const current = this.docs.get(doc.id)?.revision ?? 0;
    if (options.expectedRevision !== undefined && options.expectedRevision !== current) {
      throw new ConflictError(this.name, doc.id);
    }
    this.docs.set(doc.id, { doc: structuredClone(doc), revision: current + 1 });
    return current + 1;
  }
  async putMany(docs: T[]): Promise<void> {
    if (docs.some((doc) => typeof doc?.id !== 'string' || doc.id === '')) {
      throw new TypeError(`A document of ${this.name} needs a string id`);
    }
    for (const doc of docs) await this.put(doc);
  }
  async delete(id: string): Promise<boolean> {
    return this.docs.delete(id);
  }
  async find(
    filter: Partial<T> = {},
    options: { sortBy?: keyof T & string; order?: 'asc' | 'desc'; limit?: number; offset?: number } = {},
  ): Promise<T[]> {
    let found = [...this.docs.values()]
      .map((entry) => entry.doc)
      .filter((doc) =>
        Object.entries(filter).every(([key, value]) => (doc as Record<string, unknown>)[key] === value),
      );
    if (options.sortBy) {
      const key = options.sortBy;
      const direction = options.order === 'desc' ? -1 : 1;
      found = found.sort((a, b) => (a[key] < b[key] ? -direction : a[key] > b[key] ? direction : 0));
    }
    const offset = options.offset ?? 0;
    return structuredClone(
      found.slice(offset, options.limit === undefined ? undefined : offset + options.limit),
    );
  }
  async count(filter: Partial<T> = {}): Promise<number> {
    return (await this.find(filter)).length;
  }
  async clear(): Promise<void> {
    this.docs.clear();
  }
}

export class InMemoryDocumentStore implements DocumentStore {
  private readonly collections = new Map<string, InMemoryCollection<Doc>>();
  collection<T extends Doc>(name: string): Collection<T> {
    const existing = this.collections.get(name) ?? new InMemoryCollection<Doc>(name);
    this.collections.set(name, existing);
    return existing as unknown as Collection<T>;
  }
  async close(): Promise<void> {}
}
