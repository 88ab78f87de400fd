/**
 * How the embedded message log stores one publish: a single row for the whole batch instead of a
 * row per message. A sync publishes aids 2,000 at a time; a row each cost a B-tree insert, an index
 * insert and a delete per aid on the main thread (a third of its time in a profile), where one row
 * of the batch's texts costs about as much as copying them.
 *
 * The values are kept as one blob, the UTF-8 bytes of the JSON texts one after the other, with their
 * lengths in bytes to cut it again; keys as a JSON array. Bytes rather than one text: a batch's
 * text is ~2 MB, and a JavaScript string that large (joined to be written, made again when read)
 * is allocated apart from V8's heap pages, which cost the main thread ~4 µs an aid each way in a
 * profile; each message's text is written into the blob and read out of it on its own.
 *
 * Batches stored before kept one text, with lengths in UTF-16 code units; they read back the same.
 */
import { adjacentBytes, packTexts } from '../packed-texts/packed-texts';

export interface EncodedBatch {
  keys: string;
  lengths: string;
  /** UTF-8 bytes; a string (lengths in UTF-16 code units) in a batch stored before. */
  values: Buffer | string;
}

/** A message as stored: its JSON text, or that text's UTF-8 bytes (copied as they are). */
export type MessageText = { key: string; json: string } | { key: string; bytes: Uint8Array };

export function encodeBatch(messages: readonly MessageText[]): EncodedBatch {
  const texts = messages.map((m) => ('bytes' in m ? m.bytes : m.json));
  // a batch published as it was packed (a sync's aids) is stored as it lies, without a copy
  const adjacent = adjacentBytes(texts);
  const packed = adjacent ? { bytes: adjacent, lengths: texts.map((text) => text.length) } : packTexts(texts);
  return {
    keys: JSON.stringify(messages.map((m) => m.key)),
    lengths: JSON.stringify(packed.lengths),
    values: Buffer.from(packed.bytes.buffer, packed.bytes.byteOffset, packed.bytes.length),
  };
}

/** A stored batch read back: message i's key and JSON text. */
export class DecodedBatch {
  readonly count: number;
  private readonly keys: string[];
  /** starts[i]: where message i's text begins in `values`; starts[count] = its length. */
  private readonly starts: number[];
  private readonly values: Buffer | string;

  constructor(encoded: EncodedBatch) {
    this.values = encoded.values;
    const keys = JSON.parse(encoded.keys) as unknown;
    const lengths = JSON.parse(encoded.lengths) as unknown;
    if (!Array.isArray(keys) || !Array.isArray(lengths) || keys.length !== lengths.length)
      throw new Error('stored message batch is damaged: keys and lengths do not match');
    this.keys = keys as string[];
    this.count = keys.length;
    this.starts = new Array<number>(this.count + 1);
    let at = 0;
    for (let i = 0; i < this.count; i++) {
      this.starts[i] = at;
      at += lengths[i] as number;
    }
    this.starts[this.count] = at;
    if (at !== this.values.length)
      throw new Error('stored message batch is damaged: its lengths do not add up to its text');
  }

  key(i: number): string {
    return this.keys[i]!;
  }

  /** Message i's text as UTF-8 bytes (a view into the batch), or null in a batch stored as one text. */
  bytes(i: number): Uint8Array | null {
    const values = this.values;
    return typeof values === 'string' ? null : values.subarray(this.starts[i], this.starts[i + 1]);
  }

  json(i: number): string {
    const values = this.values;
    return typeof values === 'string'
      ? values.slice(this.starts[i], this.starts[i + 1])
      : values.toString('utf8', this.starts[i], this.starts[i + 1]);
  }
}
