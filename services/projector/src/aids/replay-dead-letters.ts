/**
 * Replays the aid messages the index set aside (`npm run replay-dead-letters`): each copy kept on the
 * dead-letter topic whose dead letter is still recorded is applied again to the aid index through the
 * projector's own code. One that applies now is indexed and its dead letter removed; one that still
 * fails keeps its dead letter (with the new error) and its copy is published again on the topic, for
 * the next replay. A dead letter of an import the index has since replaced whole (the file was imported
 * again and indexed) is removed without applying it: the newer import published that aid anew, and an
 * old copy could bring back an aid the file no longer holds.
 *
 * It may run beside the projector: the index's writes are idempotent by aid id and import order.
 */
import { AIDS_TOPIC, isOlderImport } from '@rna/domain';
import type { AidIndex, ConsumedMessage, DocumentStore, MessageLog } from '@rna/infra';
import {
  attemptsOf,
  DEAD_LETTERS_COLLECTION,
  deadLetterTopic,
  errorText,
  type DeadLetterDoc,
} from '@rna/infra/dead-letters';
import { INDEXED_IMPORTS_COLLECTION, type IndexedImportDoc } from '@rna/read-models';
import { AID_INDEX_GROUP, applyAidMessages } from './aid-index-projection';
import { UnnotedChanges } from './unnoted-changes';

/** The consumer group that reads the dead-letter topic of the aids for replays. */
export const DEAD_LETTER_REPLAY_GROUP = 'replay:aid-index-dead-letters';

export interface DeadLetterReplayDeps {
  messageLog: MessageLog;
  aidIndex: AidIndex;
  documents: DocumentStore;
  now?: () => number;
}

export interface DeadLetterReplaySummary {
  /** Applied to the index now: their dead letters are removed. */
  replayed: DeadLetterDoc[];
  /** Of an import the index has since replaced whole: removed without being applied. */
  superseded: DeadLetterDoc[];
  /** Refused again: kept, with the error of this attempt, and published again for the next replay. */
  stillFailing: DeadLetterDoc[];
  /** Dead letters of the aid index left whose message no replay found (kept, for the operator). */
  withoutMessage: DeadLetterDoc[];
}

/** What applyOrSetAside publishes on the dead-letter topic: the letter, the message's key and text. */
type SetAsideCopy = DeadLetterDoc & { key: string; json: string };

function isSetAsideCopy(value: unknown): value is SetAsideCopy {
  if (typeof value !== 'object' || value === null) return false;
  const copy = value as Partial<SetAsideCopy>;
  return typeof copy.id === 'string' && typeof copy.key === 'string' && typeof copy.json === 'string';
}

/** The set-aside message as the projector consumed it: its value decoded only when read. */
function originalMessage(copy: SetAsideCopy, timestamp: string): ConsumedMessage {
  const [topic = AIDS_TOPIC, partition = '0', offset = ''] = copy.position.split('/');
  return {
    topic,
    partition: Number(partition) || 0,
    offset,
    key: copy.key,
    json: copy.json,
    timestamp,
    get value(): unknown {
      return JSON.parse(copy.json) as unknown;
    },
  };
}

export async function replayDeadLetters(deps: DeadLetterReplayDeps): Promise<DeadLetterReplaySummary> {
  const letters = deps.documents.collection<DeadLetterDoc>(DEAD_LETTERS_COLLECTION);
  const imports = deps.documents.collection<IndexedImportDoc>(INDEXED_IMPORTS_COLLECTION);
  const replayed = new Map<string, DeadLetterDoc>();
  const superseded = new Map<string, DeadLetterDoc>();
  const stillFailing = new Map<string, SetAsideCopy>();
  // codes a replayed aid changed whose note failed: noted by a later one (as by the projection)
  const unnoted = new UnnotedChanges();

  const isSuperseded = async (letter: DeadLetterDoc): Promise<boolean> => {
    if (letter.sourceFile === undefined || letter.importId === undefined) return false;
    const indexed = await imports.find({ sourceFile: letter.sourceFile });
    return indexed.some((later) => isOlderImport(letter.importId!, later.id));
  };

  // A batch that fails for a passing reason (a store down) is handed over again: each step is
  // idempotent (a removed letter is not applied twice, a failing one is noted once by id).
  const handler = async (batch: ConsumedMessage[]): Promise<void> => {
    for (const message of batch) {
      let copy: unknown;
      try {
        copy = message.value;
      } catch {
        continue; // not written by applyOrSetAside
      }
      if (!isSetAsideCopy(copy) || copy.consumer !== AID_INDEX_GROUP) continue;
      const letter = await letters.get(copy.id);
      if (!letter || stillFailing.has(letter.id)) continue; // replayed already, or a second copy
      if (await isSuperseded(letter)) {
        await letters.delete(letter.id);
        superseded.set(letter.id, letter);
        continue;
      }
      const failed = await attemptsOf(() =>
        applyAidMessages([originalMessage(copy, message.timestamp)], { ...deps, unnoted }),
      );
      if (failed) {
        const again = { ...letter, error: errorText(failed.error) };
        await letters.put(again);
        stillFailing.set(letter.id, { ...again, key: copy.key, json: copy.json });
        continue;
      }
      await letters.delete(letter.id);
      replayed.set(letter.id, letter);
    }
  };

  const topic = deadLetterTopic(AIDS_TOPIC);
  const consumer = deps.messageLog.consume({ topic, groupId: DEAD_LETTER_REPLAY_GROUP, handler });
  try {
    await consumer.caughtUp();
  } finally {
    await consumer.stop();
  }
  // Published after the group has moved past the copies read (so this replay does not read them
  // again): the embedded log deletes what every group has read.
  if (stillFailing.size > 0)
    await deps.messageLog.publish(
      topic,
      [...stillFailing.values()].map((copy) => ({ key: copy.key, value: copy })),
    );

  const handled = new Set([...replayed.keys(), ...superseded.keys(), ...stillFailing.keys()]);
  const left = await letters.find({ consumer: AID_INDEX_GROUP });
  const strip = ({ key: _key, json: _json, ...letter }: SetAsideCopy): DeadLetterDoc => letter;
  return {
    replayed: [...replayed.values()],
    superseded: [...superseded.values()],
    stillFailing: [...stillFailing.values()].map(strip),
    withoutMessage: left.filter((letter) => !handled.has(letter.id)),
  };
}
