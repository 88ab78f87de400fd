/**
 * Dead letters: an event or a message a consumer could not apply after a bounded number of attempts.
 * It is set aside with its error, the consumer goes on, and the count is shown (health, sync screen)
 * so that an operator looks at it. Only a failure that the record itself causes, and would cause
 * again on every try, sets it aside (undecodable JSON, a record that breaks the code's or the store's
 * rules); anything else — an engine down, busy or restarting, an error nobody classified — is
 * retried with back-off for as long as it takes and shows as lag, never as lost records.
 */
import type { DocumentStore } from '../documents/port';
import { isStorageError } from '../storage-errors';

export const DEAD_LETTERS_COLLECTION = 'dead-letters';
/** Where poison messages of a topic are published, with their error. */
export const deadLetterTopic = (topic: string): string => `${topic}.dead-letters`;
/** The event-store stream where a projection's poison events are recorded. */
export const deadLetterStream = (consumer: string): string =>
  `dead-letters-${consumer.replace(/[^\w.-]/g, '_')}`;

export interface DeadLetterDoc {
  /** `<consumer>@<position>`: one record however often it is met again */
  id: string;
  /** the projection or consumer group that gave up */
  consumer: string;
  /** event: global position; message: `<topic>/<partition>/<offset>` */
  position: string;
  type: string;
  error: string;
  attempts: number;
  at: number;
  /**
   * The register file an aid message came from, and the import that published it, when the message
   * could be read (undecodable JSON has none): the next sync imports that file again, as after a gap.
   */
  sourceFile?: string;
  importId?: string;
}

/** Attempts at one record before it is set aside. */
export const MAX_ATTEMPTS = 3;

const NOT_TRANSIENT = /SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/;

/**
 * A record its store refuses for what it holds (Elasticsearch: a mapping or a field it cannot take):
 * refused again on every try, so it is set aside.
 */
export class RecordRejectedError extends Error {
  override readonly name = 'RecordRejectedError';
}

/** What the record's own content makes the code throw: the same on every try. */
const DETERMINISTIC = new Set(['SyntaxError', 'TypeError', 'RangeError', 'RecordRejectedError']);

/**
 * Whether an error is the record's own (set it aside) rather than one that may pass (wait and retry):
 * JSON that does not parse, a record the code or the store's rules refuse. Everything else, known or
 * not, is retried — an Elasticsearch 429 or 503 during a rolling restart must never set aids aside.
 */
export function isPoisonError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (isStorageError(error)) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && NOT_TRANSIENT.test(code);
  }
  const name = (error as { name?: unknown }).name;
  return typeof name === 'string' && DETERMINISTIC.has(name);
}

export function errorText(error: unknown): string {
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 2_000);
}

/** Records a dead letter (idempotent by id); false when it was recorded already. */
export async function recordDeadLetter(documents: DocumentStore, letter: DeadLetterDoc): Promise<boolean> {
  const letters = documents.collection<DeadLetterDoc>(DEAD_LETTERS_COLLECTION);
  if (await letters.get(letter.id)) return false;
  await letters.put(letter);
  return true;
}

export function countDeadLetters(documents: DocumentStore): Promise<number> {
  return documents.collection<DeadLetterDoc>(DEAD_LETTERS_COLLECTION).count();
}

/**
 * Runs `attempt` up to MAX_ATTEMPTS times while it fails with the record's own error (a short pause
 * between tries); a transient storage error is thrown at once, for the consumer's own retry loop.
 * Resolves to the last error when the record should be set aside, or null when it was applied.
 */
export async function attemptsOf(
  attempt: () => Promise<void>,
  pauseMs = (n: number) => 50 * 4 ** (n - 1),
): Promise<{ error: unknown; attempts: number } | null> {
  for (let attempts = 1; ; attempts += 1) {
    try {
      await attempt();
      return null;
    } catch (error) {
      if (!isPoisonError(error)) throw error;
      if (attempts >= MAX_ATTEMPTS) return { error, attempts };
      await new Promise((resolve) => setTimeout(resolve, pauseMs(attempts)));
    }
  }
}
