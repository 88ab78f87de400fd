/**
 * A sync worker against the register mirror on temporary embedded stores, with the aid-index
 * consumer and the archive projections running: what the sync tests in this folder share.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { streams, type Actor, type SyncEvent, type SyncScope } from '@rna/domain';
import { HttpRegisterClient, RegisterArchive, type RegisterClient } from '@rna/infra/register';
import { openTemporaryStores, type TemporaryStores } from '@rna/infra/embedded/testing';
import { unpackTexts } from '@rna/infra';
import { startProjections, type RunningProjections } from '@rna/read-models';
import { startAidIndexProjection } from '@rna/projector/aids';
import { archiveProjections } from '@rna/read-models/archive';
import { requestSync } from '@rna/api';
import { startSyncWorker, type SyncWorker, type SyncWorkerDeps } from '@rna/sync';
import type { AidIndex, Consumer, DocumentStore, EventStore, MessageLog } from '@rna/infra';
import { RecordRejectedError } from '@rna/infra/dead-letters';
import { generateArchive, type GenerateOptions, type TruthRecord } from '../generator/generate';
import { startMirror, type RunningMirror } from './server';

export const admin: Actor = { userId: 'u-admin', email: 'admin@example.it', role: 'ADMIN' };
export const clock = { now: () => new Date('2024-03-15T10:00:00Z') };

export interface Harness {
  dir: string;
  mirror: RunningMirror;
  stores: TemporaryStores;
  eventStore: EventStore;
  messageLog: MessageLog;
  aidIndex: AidIndex;
  documents: DocumentStore;
  /** Aid messages published on the topic so far. */
  published(): number;
  register: RegisterClient;
  worker: SyncWorker;
  consumer: Consumer;
  projections: RunningProjections;
  generate(options?: Partial<GenerateOptions>): Promise<string>;
  sync(scope?: SyncScope, onlyDocuments?: string[]): Promise<string>;
  settle(): Promise<void>;
  /** A worker on the harness's stores; `overrides` replace some of its ports or settings. */
  newWorker(overrides?: Partial<SyncWorkerDeps>): SyncWorker;
  /** Stops the aid-index consumer and starts it again on `index` (default: the harness's own). */
  restartConsumer(index?: AidIndex): Promise<void>;
}

/**
 * The index as a store whose rules refuse one aid (as Elasticsearch refuses a field it cannot map):
 * every write that holds it fails with the record's own error, so the projector sets it aside.
 */
export function refusingAid(index: AidIndex, idComponenteAiuto: string): AidIndex {
  const refusing = Object.create(index) as AidIndex;
  const refuse = () => Promise.reject(new RecordRejectedError(`aid ${idComponenteAiuto} refused`));
  refusing.upsert = (records) =>
    records.some((aid) => aid.idComponenteAiuto === idComponenteAiuto) ? refuse() : index.upsert(records);
  const upsertEncoded = index.upsertEncoded?.bind(index);
  if (upsertEncoded) {
    const needle = `"idComponenteAiuto":${JSON.stringify(idComponenteAiuto)}`;
    refusing.upsertEncoded = (messages) =>
      unpackTexts(messages).some((json) => json.includes(needle)) ? refuse() : upsertEncoded(messages);
  }
  return refusing;
}

export const baseGeneration = {
  months: ['2024_01', '2024_02'],
  aids: 160,
  partSize: 60,
  seed: 42,
  zip: true,
};
/** 80 components a month in parts of 60 (a part closes after the concession that reaches 60). */
export const ALL_FILES = ['2024_01', '2024_01_002', '2024_02', '2024_02_002'];
export interface HarnessOptions {
  preferZip?: boolean;
  batchSize?: number;
  /** The worker's parserThreads (default 1: files one after another). */
  parserThreads?: number;
  /** The worker's lease, as its holder sees it (default: always held). */
  leaseValid?: () => boolean;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sync-e2e-'));
  const mirror = await startMirror({ dir });
  // the embedded SQLite adapters, as the portal runs them (held to every contract suite)
  const stores = openTemporaryStores('sync-e2e-stores-');
  const { eventStore, messageLog, aidIndex, documents } = stores;
  let published = 0;
  const publish = messageLog.publish.bind(messageLog);
  messageLog.publish = async (topic, messages, publishOptions) => {
    published += messages.length;
    return publish(topic, messages, publishOptions);
  };
  const register = new HttpRegisterClient({ baseUrl: mirror.url, attempts: 2, backoffMs: 5 });
  const newWorker = (overrides: Partial<SyncWorkerDeps> = {}) =>
    startSyncWorker({
      eventStore,
      messageLog,
      aidIndex,
      documents,
      register,
      archive: new RegisterArchive(stores.blobs),
      clock,
      batchSize: options.batchSize ?? 25,
      retryDelayMs: 5,
      preferZip: options.preferZip,
      parserThreads: options.parserThreads,
      leaseValid: options.leaseValid,
      ...overrides,
    });
  const h: Harness = {
    dir,
    mirror,
    stores,
    published: () => published,
    eventStore,
    messageLog,
    aidIndex,
    documents,
    register,
    worker: newWorker(),
    consumer: startAidIndexProjection({ messageLog, aidIndex, documents }),
    projections: startProjections(archiveProjections, eventStore, { documents, aidIndex }),
    async generate(extra = {}) {
      const result = await generateArchive({ ...baseGeneration, outDir: dir, ...extra });
      return result.truthFile as string;
    },
    async settle() {
      await h.consumer.caughtUp();
      await h.projections.caughtUp();
    },
    async sync(scope = 'LAST_YEAR', onlyDocuments = []) {
      const request = await requestSync(eventStore, { scope, onlyDocuments, by: admin, now: clock.now() });
      await h.worker.runPending();
      await h.settle();
      return request.runId;
    },
    newWorker,
    async restartConsumer(index = aidIndex) {
      await h.consumer.stop();
      h.consumer = startAidIndexProjection({ messageLog, aidIndex: index, documents });
    },
  };
  return h;
}

export async function readTruth(file: string): Promise<TruthRecord[]> {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TruthRecord);
}

/** Every indexed aid equals its ground-truth record, and nothing else is indexed. */
export async function expectIndexMatches(index: AidIndex, truth: TruthRecord[]): Promise<void> {
  const taxCodes = [...new Set(truth.map((aid) => aid.codiceFiscaleBeneficiario))];
  const found = taxCodes.length > 0 ? await index.search({ taxCodes }) : [];
  const indexed = found.map(({ importId: _importId, ...rest }) => rest);
  const byId = (a: { idComponenteAiuto: string }, b: { idComponenteAiuto: string }) =>
    a.idComponenteAiuto.localeCompare(b.idComponenteAiuto);
  expect(await index.count()).toBe(truth.length);
  expect(indexed.sort(byId)).toEqual([...truth].sort(byId));
}

export async function runEvents(h: Harness, runId: string): Promise<SyncEvent[]> {
  return (await h.eventStore.readStream(streams.sync(runId))).events as unknown as SyncEvent[];
}

export async function controlEvents(h: Harness): Promise<SyncEvent[]> {
  return (await h.eventStore.readStream(streams.syncControl)).events as unknown as SyncEvent[];
}

/** Stops everything the harness started and removes its files. */
export async function disposeHarness(h: Harness): Promise<void> {
  await h.worker.stop();
  await h.consumer.stop();
  await h.projections.stop();
  await h.mirror.close();
  await h.stores.dispose();
  await rm(h.dir, { recursive: true, force: true });
}
