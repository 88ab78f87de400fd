/**
 * The XML file inside a register zip, as a core stream buffered for the parser. Each read of it
 * takes all that is buffered, and each read is a message to the parser thread, an acknowledgement
 * back and a round of its decoder and parser: behind unzipping's own 16 KB buffer that was a message
 * per 16–48 KB; behind this one up to XML_BUFFER_BYTES when the parser is behind — and still each
 * piece as soon as it comes when the download is what is behind.
 */
import { PassThrough, pipeline, type Readable } from 'node:stream';
import unzipper from 'unzipper';

export const XML_BUFFER_BYTES = 256 * 1024;

/** Streams whose chunks are their reader's own (see handsOverChunks). */
const handingOver = new WeakSet<Readable>();

/** `zip`'s first `.xml` entry; an error on either side ends both. */
export function unzippedXml(zip: Readable): Readable {
  // unzipper's stream is of an older kind (not async-iterable): handed on through a core stream
  const xml = pipeline(
    zip,
    unzipper.ParseOne(/\.xml$/i),
    new PassThrough({ highWaterMark: XML_BUFFER_BYTES }),
    () => undefined,
  );
  handingOver.add(xml);
  return xml;
}

/**
 * Whether nothing upstream of `stream` keeps or reuses the buffers of the chunks it gives: then a
 * chunk that spans the whole of its ArrayBuffer can be handed to another thread as it is. True of
 * unzippedXml's: each read is a concatenation made for it, or a piece of inflated output that
 * filled its buffer (the inflater takes a new one then). Not assumed of any other stream.
 */
export function handsOverChunks(stream: Readable): boolean {
  return handingOver.has(stream);
}
