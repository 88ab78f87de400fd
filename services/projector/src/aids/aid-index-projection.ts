/**
 * Feeds the aid index from the `aids` topic. AidRecorded batches are upserted; a file's
 * SourceFileImported marker withdraws that file's aids the import did not record again (they
 * left the file, or were written by an interrupted earlier import). Idempotent under redelivery.
 * Every tax code touched (new, changed or withdrawn aid) is noted (read-models' aid-changes) for the
 * variation alerts and the API's look-up cache.
 */
import type { AidMessage, AidRecord } from '@rna/domain';
import { AID_RECORDED_PREFIX, aidJsonOfAidRecorded, AIDS_TOPIC, originOfAidMessage } from '@rna/domain';
import {
  INDEXED_IMPORTS_COLLECTION,
  INDEXING_GAPS_COLLECTION,
  type IndexedImportDoc,
  type IndexingGapDoc,
} from '@rna/read-models';
import {
  packTexts,
  type AidIndex,
  type ConsumedMessage,
  type Consumer,
  type DocumentStore,
  type MessageGap,
  type MessageLog,
  type PackedTexts,
} from '@rna/infra';
import {
  attemptsOf,
  deadLetterTopic,
  errorText,
  recordDeadLetter,
  type DeadLetterDoc,
} from '@rna/infra/dead-letters';
import { UnnotedChanges } from './unnoted-changes';

export const AID_INDEX_GROUP = 'projection:aid-index';
export interface AidIndexProjectionDeps {
  messageLog: MessageLog;
  aidIndex: AidIndex;
  /** Where touched tax codes are noted; without it no change is recorded. */
  documents?: DocumentStore;
  now?: () => number;
  /** Messages per handled batch (default 5,000): fewer, bigger index commits during a sync. */
  batchSize?: number;
  /** A message was set aside (the operator should look at it). */
  onDeadLetter?: (letter: DeadLetterDoc) => void;
  /** Messages were lost before the index saw them (recorded in `aid-index-gaps` as well). */
  onGap?: (gap: IndexingGapDoc) => void;
}

/**
 * What applying a batch needs: the index, where notes go, and the codes changed and not yet noted,
 * kept from one batch or attempt to the next by the consumer that applies them (one per call without).
 */
type ApplyDeps = Pick<AidIndexProjectionDeps, 'aidIndex' | 'documents' | 'now'> & {
  unnoted?: UnnotedChanges;
};

/** One write to the index, in the order the batch's messages ask for it. */
type IndexWrite =
  | { kind: 'encoded'; messages: PackedTexts }
  | { kind: 'records'; aids: AidRecord[] }
  | { kind: 'message'; value: AidMessage };

/**
 * Aids a write takes at least (when the batch has that many in a row): a batch is cut in writes of
 * this size so that one write's changes are noted while the next is under way, and the embedded
 * index hands writes of this size to its writer thread.
 */
export const AIDS_PER_WRITE = 1000;

const AID_RECORDED_BYTES = Buffer.from(AID_RECORDED_PREFIX, 'utf8');
/** The closing brace that ends an AidRecorded message's text (after the aid's own object). */
const CLOSING_BRACE = 0x7d;

/**
 * The AidRecorded message's text as it was published — its bytes where the log has them, else its
 * JSON — or null for any other message (or one whose text the log does not give).
 */
function aidRecordedText(message: ConsumedMessage): Uint8Array | string | null {
  const bytes = message.bytes;
  if (bytes !== undefined) {
    const opens = AID_RECORDED_BYTES.equals(bytes.subarray(0, AID_RECORDED_BYTES.length));
    return opens && bytes[bytes.length - 1] === CLOSING_BRACE ? bytes : null;
  }
  const json = message.json;
  return json !== undefined && aidJsonOfAidRecorded(json) !== null ? json : null;
}

/**
 * Cuts a batch into index writes: consecutive AidRecorded messages go in one upsert (as the text
 * they were published as when the index takes it and the message has it), split in parts of at
 * least AIDS_PER_WRITE aids; any other message is a write of its own. Order is kept.
 */
export function planIndexWrites(messages: ConsumedMessage[], takesEncoded: boolean): IndexWrite[] {
  const writes: IndexWrite[] = [];
  // at most one of the two runs has aids at a time
  let encodedRun: (Uint8Array | string)[] = [];
  let recordRun: AidRecord[] = [];
  const endRuns = () => {
    for (const texts of parts(encodedRun)) writes.push({ kind: 'encoded', messages: packTexts(texts) });
    for (const aids of parts(recordRun)) writes.push({ kind: 'records', aids });
    encodedRun = [];
    recordRun = [];
  };
  for (const message of messages) {
    const text = takesEncoded ? aidRecordedText(message) : null;
    if (text !== null) {
      if (recordRun.length > 0) endRuns();
      encodedRun.push(text);
      continue;
    }
    const value = message.value as AidMessage;
    if (value.type === 'AidRecorded') {
      if (encodedRun.length > 0) endRuns();
      recordRun.push(value.aid);
      continue;
    }
    endRuns();
    writes.push({ kind: 'message', value });
  }
  endRuns();
  return writes;
}

/** Near-equal parts, each of at least AIDS_PER_WRITE items when there are that many; none of none. */
function parts<T>(items: T[]): T[][] {
  if (items.length === 0) return [];
  const count = Math.max(1, Math.floor(items.length / AIDS_PER_WRITE));
  // the first `longer` parts take one item more: sizes differ by one at most, none falls short
  const size = Math.floor(items.length / count);
  const longer = items.length % count;
  const result: T[][] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = start + size + (i < longer ? 1 : 0);
    result.push(items.slice(start, end));
    start = end;
  }
  return result;
}

/**
 * Applies one consumed batch, in order. While the index works on a write, the tax codes the
 * writes before it changed are logged (UnnotedChanges.log: appended, one note); the buckets of the
 * codes are raised once, after the batch's last write (UnnotedChanges.raise) — also when a write
 * fails, for the writes made before it. A write of a thousand new codes raised ~640 of the 1,024
 * buckets: five writes in a row raised 3,200 where once after them raises ~1,010.
 * Two encoded writes in a row overlap: the next one is handed to the index before the one under way
 * has ended, so that the index's writer goes on from one to the next instead of waiting for this
 * thread (busy with the notes, the log, the parser's batches) to take a result and send the next
 * write — only the embedded index takes encoded writes, and it applies them in call order.
 * Any other write starts once the one before it has ended. An import's marker is recorded as indexed
 * (`indexed-imports`, what the variation alerts wait for) once every change up to it is logged.
 */
export async function applyAidMessages(messages: ConsumedMessage[], deps: ApplyDeps): Promise<void> {
  const now = deps.now ?? Date.now;
  const { documents } = deps;
  const unnoted = deps.unnoted ?? new UnnotedChanges();
  // without a store nothing is noted, so nothing is kept for later either
  const changed = (taxCodes: string[]) => {
    if (documents) unnoted.changed(taxCodes);
  };
  const log = async () => {
    if (documents) await unnoted.log(documents, now());
  };
  const raise = async () => {
    if (documents) await unnoted.raise(documents, now());
  };
  const started: Promise<void>[] = [];
  try {
    await applyIndexWrites(messages, deps, now, started, changed, log);
  } catch (error) {
    // A write may still be under way (a note failed meanwhile): it is awaited, its codes raised too.
    // The batch's error is the one to report: raising may fail for the same reason.
    await Promise.allSettled(started);
    await raise().catch(() => undefined);
    throw error;
  }
  await raise();
}

/**
 * The batch's writes, in order; each one's codes handed to `changed` once it has committed, and
 * `log` called after each write has ended, while the next one runs. Each write goes in `started`.
 */
async function applyIndexWrites(
  messages: ConsumedMessage[],
  deps: Pick<AidIndexProjectionDeps, 'aidIndex' | 'documents'>,
  now: () => number,
  started: Promise<void>[],
  changed: (taxCodes: string[]) => void,
  log: () => Promise<void>,
): Promise<void> {
  let previous: { writing: Promise<void>; encoded: boolean } | null = null;
  for (const write of planIndexWrites(messages, deps.aidIndex.upsertEncoded !== undefined)) {
    const encoded = write.kind === 'encoded';
    // an encoded write after an encoded one starts at once; any other once the one before has ended
    if (previous && !(encoded && previous.encoded)) await previous.writing;
    const writing = applyIndexWrite(write, deps.aidIndex).then(changed);
    started.push(writing);
    // The handler may leave on a failed write or note while this write is under way: its failure
    // is the batch's failure (retried whole), not an unhandled rejection.
    writing.catch(() => undefined);
    if (previous) {
      await previous.writing;
      await log();
    }
    previous = { writing, encoded };
    if (write.kind === 'message' && write.value.type === 'SourceFileImported') {
      // Every aid of the import came before its marker: the file is searchable whole from here. The
      // variation alerts are checked once it is (notifier.ts): every change up to it is logged first.
      await writing;
      await log();
      previous = null;
      await markImportIndexed(write.value, deps, now);
    }
  }
  if (previous) {
    await previous.writing;
    await log();
  }
}

async function markImportIndexed(
  marker: Extract<AidMessage, { type: 'SourceFileImported' }>,
  deps: Pick<AidIndexProjectionDeps, 'documents'>,
  now: () => number,
): Promise<void> {
  await deps.documents?.collection<IndexedImportDoc>(INDEXED_IMPORTS_COLLECTION).put({
    id: marker.importId,
    sourceFile: marker.sourceFile,
    runId: marker.runId,
    records: marker.records,
    indexedAt: now(),
  });
}

/** One write; the tax codes it touched. */
async function applyIndexWrite(write: IndexWrite, aidIndex: AidIndex): Promise<string[]> {
  if (write.kind === 'encoded') return (await aidIndex.upsertEncoded!(write.messages)).changedTaxCodes;
  if (write.kind === 'records') return (await aidIndex.upsert(write.aids)).changedTaxCodes;
  const value = write.value;
  // an import's marker withdraws the aids of the file's older imports; a withdrawal without an
  // importId (published before imports were ordered) every aid of the file
  if (value.type === 'SourceFileImported' || value.type === 'SourceFileWithdrawn')
    return (await aidIndex.withdrawBySourceFile(value.sourceFile, value.importId)).taxCodes;
  if (value.type === 'AidWithdrawn') return (await aidIndex.withdraw([value.idComponenteAiuto])).taxCodes;
  return [];
}

/**
 * A batch that keeps failing with a record's own error is applied again one message at a time:
 * the messages that still fail are set aside (published on the dead-letter topic with their error and
 * counted in `dead-letters`), the others are indexed, and the projection goes on. A store that is
 * down makes the batch wait instead (the consumer retries it).
 */
export async function applyOrSetAside(
  batch: ConsumedMessage[],
  deps: ApplyDeps & Pick<AidIndexProjectionDeps, 'messageLog' | 'onDeadLetter'>,
): Promise<void> {
  if (!(await attemptsOf(() => applyAidMessages(batch, deps)))) return;
  for (const message of batch) {
    const failed = await attemptsOf(() => applyAidMessages([message], deps));
    if (!failed) continue;
    const position = `${message.topic}/${message.partition}/${message.offset}`;
    const letter: DeadLetterDoc = {
      id: `${AID_INDEX_GROUP}@${position}`,
      consumer: AID_INDEX_GROUP,
      position,
      type: messageType(message),
      error: errorText(failed.error),
      attempts: failed.attempts,
      at: Date.now(),
      ...messageOrigin(message),
    };
    if (deps.documents && !(await recordDeadLetter(deps.documents, letter))) continue;
    await deps.messageLog.publish(deadLetterTopic(message.topic), [
      {
        key: message.key,
        value: { ...letter, key: message.key, json: message.json ?? JSON.stringify(message.value) },
      },
    ]);
    deps.onDeadLetter?.(letter);
  }
}

function messageType(message: ConsumedMessage): string {
  try {
    const type = (message.value as { type?: unknown } | null)?.type;
    return typeof type === 'string' ? type : 'unknown';
  } catch {
    return 'unreadable';
  }
}

/** The file (and import) the message came from, when its value can be read. */
function messageOrigin(message: ConsumedMessage): { sourceFile?: string; importId?: string } {
  try {
    return originOfAidMessage(message.value);
  } catch {
    return {};
  }
}

/**
 * Records messages the index will never apply (the log no longer had them when the consumer got
 * there), so that health and the sync screen say the index is incomplete instead of staying silent.
 */
export async function recordIndexingGap(
  gap: MessageGap,
  deps: Pick<AidIndexProjectionDeps, 'documents' | 'now' | 'onGap'>,
): Promise<void> {
  const doc: IndexingGapDoc = {
    id: `${gap.topic}/${gap.partition}/${gap.fromOffset}`,
    ...gap,
    detectedAt: (deps.now ?? Date.now)(),
  };
  await deps.documents?.collection<IndexingGapDoc>(INDEXING_GAPS_COLLECTION).put(doc);
  deps.onGap?.(doc);
}

/** Forgets what the index applied and missed, for a rebuild that reads the topic again from its start. */
export async function resetIndexingProgress(documents: DocumentStore): Promise<void> {
  await documents.collection(INDEXED_IMPORTS_COLLECTION).clear();
  await documents.collection(INDEXING_GAPS_COLLECTION).clear();
}

export function startAidIndexProjection(deps: AidIndexProjectionDeps): Consumer {
  const unnoted = new UnnotedChanges();
  return deps.messageLog.consume({
    topic: AIDS_TOPIC,
    groupId: AID_INDEX_GROUP,
    batchSize: deps.batchSize ?? 5000,
    handler: (batch) => applyOrSetAside(batch, { ...deps, unnoted }),
    onGap: (gap) => recordIndexingGap(gap, deps),
  });
}
