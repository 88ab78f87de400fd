/**
 * Texts packed as their UTF-8 bytes one after the other, cut again by their lengths in bytes: how a
 * sync's aid messages travel from the parser's thread to the message log and from the log to the
 * index's writer thread. One buffer moves between threads without a copy (its memory is handed
 * over) and lies outside the JavaScript heap; 2,000 strings were copied at each crossing, and a
 * batch of them waiting to be posted outlived the young generation of the thread that held it (a
 * fifth of the parser's time went to garbage collection in a profile).
 */
export interface PackedTexts {
  /** The texts' UTF-8 bytes, one after the other. Its buffer is its own: it can be transferred. */
  bytes: Uint8Array;
  /** Each text's length in bytes, in order. */
  lengths: number[];
}

const decoder = new TextDecoder();

/** Each text's bytes, in order: views into `packed.bytes`, no copy. */
export function* eachTextBytes(packed: PackedTexts): Generator<Uint8Array> {
  let start = 0;
  for (const length of packed.lengths) {
    yield packed.bytes.subarray(start, start + length);
    start += length;
  }
}

/** The texts of `packed` in order, each decoded only when it is reached. */
export function* eachText(packed: PackedTexts): Generator<string> {
  for (const bytes of eachTextBytes(packed)) yield decoder.decode(bytes);
}

/** Every text of `packed`, in order. */
export function unpackTexts(packed: PackedTexts): string[] {
  return [...eachText(packed)];
}

/**
 * Packs texts as they come, into a buffer that grows by doubling. `take()` hands the texts packed so
 * far in a buffer of their own and starts a new one the size the last one needed.
 */
export class TextPacker {
  private buffer: Buffer;
  private used = 0;
  private lengths: number[] = [];

  constructor(private capacity = 64 * 1024) {
    this.buffer = Buffer.allocUnsafeSlow(capacity);
  }

  get count(): number {
    return this.lengths.length;
  }

  /** Appends `parts` joined as one text (no joined string is made). */
  add(...parts: string[]): void {
    let length = 0;
    for (const part of parts) {
      // at most three bytes per UTF-16 unit: room for the worst case, then written and counted (a
      // lone surrogate, which JSON.stringify never writes, is written as U+FFFD, 3 bytes)
      this.reserve(length + part.length * 3);
      length += this.buffer.write(part, this.used + length, 'utf8');
    }
    this.used += length;
    this.lengths.push(length);
  }

  /** Appends a text given as its UTF-8 bytes. */
  addBytes(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
    this.lengths.push(bytes.length);
  }

  /** The texts added since the last take, or null when there are none. */
  take(): PackedTexts | null {
    if (this.lengths.length === 0) return null;
    // an exact copy: the buffer handed over holds no spare room, and the next batch starts afresh
    const bytes = new Uint8Array(this.used);
    bytes.set(this.buffer.subarray(0, this.used));
    const packed = { bytes, lengths: this.lengths };
    this.used = 0;
    this.lengths = [];
    return packed;
  }

  /** Makes room for `more` bytes after those in use. */
  private reserve(more: number): void {
    const needed = this.used + more;
    if (needed <= this.buffer.length) return;
    while (this.capacity < needed) this.capacity *= 2;
    const grown = Buffer.allocUnsafeSlow(this.capacity);
    // all of it: the parts of a text being added lie past `used` until the text is complete
    this.buffer.copy(grown);
    this.buffer = grown;
  }
}

/**
 * The bytes of `texts` as one view, no copy, when every one is bytes and they lie one after the other
 * in the same buffer (the texts of one packed batch, cut by eachTextBytes), else null. Packing them
 * again needs no packer: every copy of a batch on the sync's main thread is memory outside V8's heap,
 * which, as we read V8, brings its next full collection nearer (~400 per million aids before).
 */
export function adjacentBytes(texts: readonly (string | Uint8Array)[]): Uint8Array | null {
  const first = texts[0];
  if (first === undefined || typeof first === 'string') return null;
  let end = first.byteOffset + first.byteLength;
  for (let i = 1; i < texts.length; i++) {
    const text = texts[i]!;
    if (typeof text === 'string' || text.buffer !== first.buffer || text.byteOffset !== end) return null;
    end += text.byteLength;
  }
  return new Uint8Array(first.buffer, first.byteOffset, end - first.byteOffset);
}

/** `texts` (strings, or a text's UTF-8 bytes) packed in one buffer of their own. */
export function packTexts(texts: readonly (string | Uint8Array)[]): PackedTexts {
  const adjacent = adjacentBytes(texts);
  // one exact copy (a buffer of its own, to be handed over), not a packer's buffer and its copy
  if (adjacent) return { bytes: adjacent.slice(), lengths: texts.map((text) => text.length) };
  const packer = new TextPacker(texts.reduce((n, text) => n + text.length, 0) + 1024);
  for (const text of texts) {
    if (typeof text === 'string') packer.add(text);
    else packer.addBytes(text);
  }
  return packer.take() ?? { bytes: new Uint8Array(0), lengths: [] };
}
