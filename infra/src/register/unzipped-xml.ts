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

/** `zip`'s first `.xml` entry; an error on either side ends both. */
export function unzippedXml(zip: Readable): Readable {
  // unzipper's stream is of an older kind (not async-iterable): handed on through a core stream
  return pipeline(
    zip,
    unzipper.ParseOne(/\.xml$/i),
    new PassThrough({ highWaterMark: XML_BUFFER_BYTES }),
    () => undefined,
  );
}
