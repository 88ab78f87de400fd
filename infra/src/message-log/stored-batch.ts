/**
 * How the embedded message log stores one publish: a single row for the whole batch instead of a
 * row per message. A sync publishes aids 2,000 at a time; a row each cost a B-tree insert, an index
 * insert and a delete per aid on the main thread (a third of its time in a profile), where one row
 * of the batch's texts costs about as much as copying them.
 *
 * The values are kept as one text, the JSON texts one after the other, with their lengths (in
 * UTF-16 code units, as JavaScript counts them) to cut it again; keys as a JSON array. A length is
 * kept through SQLite's UTF-8: a lone surrogate (which JSON.stringify never writes) would become
 * U+FFFD, also one unit.
 */
export interface EncodedBatch {
  keys: string;
  lengths: string;
  values: string;
}

export function encodeBatch(messages: readonly { key: string; json: string }[]): EncodedBatch {
  const keys = new Array<string>(messages.length);
  const lengths = new Array<number>(messages.length);
  const values = new Array<string>(messages.length);
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    keys[i] = message.key;
    lengths[i] = message.json.length;
    values[i] = message.json;
  }
  return { keys: JSON.stringify(keys), lengths: JSON.stringify(lengths), values: values.join('') };
}

/** A stored batch read back: message i's key and JSON text. */
export class DecodedBatch {
  readonly count: number;
  private readonly keys: string[];
  /** starts[i]: where message i's text begins in `values`; starts[count] = values.length. */
  private readonly starts: number[];
  private readonly values: string;

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

  json(i: number): string {
    return this.values.slice(this.starts[i], this.starts[i + 1]);
  }
}
