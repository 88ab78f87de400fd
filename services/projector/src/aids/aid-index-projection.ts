/**
 * Feeds the aid index from the `aids` topic. AidRecorded batches are upserted; a file's
 * SourceFileImported marker withdraws that file's aids the import did not record again (they
 * left the file, or were written by an interrupted earlier import). Idempotent under redelivery.
 * Every tax code touched (new, changed or withdrawn aid) is noted in `aid-changes` for alerts.
 */
import type { AidMessage, AidRecord } from '@rna/domain';
import { aidJsonOfAidRecorded, AIDS_TOPIC, originOfAidMessage } from '@rna/domain';
import {
  INDEXED_IMPORTS_COLLECTION,
  INDEXING_GAPS_COLLECTION,
  type IndexedImportDoc,
  type IndexingGapDoc,
  AID_CHANGES_COLLECTION,
  type AidChangeDoc,
} from '@rna/read-models';
import type { AidIndex, ConsumedMessage, Consumer, DocumentStore, MessageGap, MessageLog } from '@rna/infra';
import {
  attemptsOf,
  deadLetterTopic,
  errorText,
  recordDeadLetter,
  type DeadLetterDoc,
} from '@rna/infra/dead-letters';

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

/** Applies one consumed batch, in order; consecutive AidRecorded messages go in one upsert. */
export async function applyAidMessages(
  messages: ConsumedMessage[],
  deps: Pick<AidIndexProjectionDeps, 'aidIndex' | 'documents' | 'now'>,
): Promise<void> {
  const now = deps.now ?? Date.now;
  const changes = deps.documents?.collection<AidChangeDoc>(AID_CHANGES_COLLECTION);
  const touched = new Map<string, string>(); // tax code → source file
  // An index that stores JSON takes the aids as the text they were published as (not decoded here).
  const upsertEncoded = deps.aidIndex.upsertEncoded?.bind(deps.aidIndex);
  let pending: AidRecord[] = [];
  let pendingJson: string[] = [];
  const flush = async () => {
    if (pendingJson.length > 0 && upsertEncoded) {
      const { changedTaxCodes, sourceFiles } = await upsertEncoded(pendingJson);
      changedTaxCodes.forEach((taxCode, i) => touched.set(taxCode, sourceFiles[i] ?? ''));
      pendingJson = [];
    }
    if (pending.length === 0) return;
    const { changedTaxCodes } = await deps.aidIndex.upsert(pending);
    const fileOf = new Map(pending.map((aid) => [aid.codiceFiscaleBeneficiario, aid.sourceFile]));
    for (const taxCode of changedTaxCodes) touched.set(taxCode, fileOf.get(taxCode) ?? '');
    pending = [];
  };
  for (const message of messages) {
    const aidJson = upsertEncoded && message.json !== undefined ? aidJsonOfAidRecorded(message.json) : null;
    if (aidJson !== null) {
      if (pending.length > 0) await flush(); // keeps the upserts in message order
      pendingJson.push(aidJson);
      continue;
    }
    const value = message.value as AidMessage;
    if (value.type === 'AidRecorded') {
      if (pendingJson.length > 0) await flush();
      pending.push(value.aid);
      continue;
    }
    await flush();
    if (value.type === 'SourceFileImported') {
      const { taxCodes } = await deps.aidIndex.withdrawBySourceFile(value.sourceFile, value.importId);
      for (const taxCode of taxCodes) touched.set(taxCode, value.sourceFile);
      // Every aid of the import came before its marker: the file is searchable whole from here.
      await deps.documents?.collection<IndexedImportDoc>(INDEXED_IMPORTS_COLLECTION).put({
        id: value.importId,
        sourceFile: value.sourceFile,
        runId: value.runId,
        records: value.records,
        indexedAt: now(),
      });
    } else if (value.type === 'SourceFileWithdrawn') {
      // without an importId (published before imports were ordered) every aid of the file goes
      const { taxCodes } = await deps.aidIndex.withdrawBySourceFile(value.sourceFile, value.importId);
      for (const taxCode of taxCodes) touched.set(taxCode, value.sourceFile);
    } else if (value.type === 'AidWithdrawn') {
      const { taxCodes } = await deps.aidIndex.withdraw([value.idComponenteAiuto]);
      for (const taxCode of taxCodes) touched.set(taxCode, value.sourceFile);
    }
  }
  await flush();
  if (changes && touched.size > 0) {
    const changedAt = now();
    // One write for the batch's tax codes (thousands per batch during a sync), not one each.
    await changes.putMany(
      [...touched].map(([taxCode, sourceFile]) => ({ id: taxCode, changedAt, sourceFile })),
    );
  }
}

/**
 * A batch that keeps failing with a record's own error is applied again one message at a time:
 * the messages that still fail are set aside (published on the dead-letter topic with their error and
 * counted in `dead-letters`), the others are indexed, and the projection goes on. A store that is
 * down makes the batch wait instead (the consumer retries it).
 */
export async function applyOrSetAside(
  batch: ConsumedMessage[],
  deps: Pick<AidIndexProjectionDeps, 'aidIndex' | 'documents' | 'now' | 'messageLog' | 'onDeadLetter'>,
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
  return deps.messageLog.consume({
    topic: AIDS_TOPIC,
    groupId: AID_INDEX_GROUP,
    batchSize: deps.batchSize ?? 5000,
    handler: (batch) => applyOrSetAside(batch, deps),
    onGap: (gap) => recordIndexingGap(gap, deps),
  });
}
