/**
 * The register's files as they were imported, kept in the blob store: the durable source the aid
 * index is rebuilt from (the message log is only a transport, and the register's page is a sliding
 * window that forgets old months and republishes others). Each file is kept as the register sent it
 * — its zip — or, when it came as plain XML, gzipped; named by the SHA-256 of what is stored, so a
 * file imported again unchanged takes no more room.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createGzip, createGunzip } from 'node:zlib';
import { PassThrough, pipeline, Transform, type Readable, type Writable } from 'node:stream';
import type { ArchivedRegisterFile } from '@rna/domain';
import type { BlobStore } from '../blobs/port';
import { unzippedXml } from './unzipped-xml';

type ArchivedFormat = ArchivedRegisterFile['format'];

/** Takes a file's bytes as they are transferred; done() once they are all stored. */
export interface ArchiveReceiver {
  readonly sink: Writable;
  done(): Promise<ArchivedRegisterFile>;
}

const ARCHIVED = /^register-([0-9a-f]{64})\.(zip|xml\.gz)$/;

export class RegisterArchive {
  constructor(private readonly blobs: BlobStore) {}

  /** A receiver for the bytes of one transfer: the zip as is, plain XML gzipped on the way. */
  receive(transferred: 'zip' | 'xml'): ArchiveReceiver {
    const format: ArchivedFormat = transferred === 'zip' ? 'zip' : 'xml.gz';
    const hash = createHash('sha256');
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    const sink = new PassThrough();
    const stored =
      format === 'zip'
        ? pipeline(sink, hashing, () => undefined)
        : pipeline(sink, createGzip({ level: 6 }), hashing, () => undefined);
    const incoming = `incoming-${randomUUID()}.${format}`;
    const contentType = format === 'zip' ? 'application/zip' : 'application/gzip';
    // a transfer that fails destroys the sink: the half-written blob is dropped before done() says so
    const written = this.blobs.putStream(incoming, stored, contentType).catch(async (error: unknown) => {
      await this.blobs.delete(incoming).catch(() => undefined);
      throw error;
    });
    written.catch(() => undefined); // done() may never be asked for when the import failed
    return {
      sink,
      done: async () => {
        const { bytes } = await written;
        const sha256 = hash.digest('hex');
        const blob = `register-${sha256}.${format}`;
        if (await this.blobs.exists(blob)) await this.blobs.delete(incoming);
        else await this.blobs.rename(incoming, blob);
        return { blob, sha256, bytes, format };
      },
    };
  }

  /** The file's XML, unzipped or gunzipped as it streams; null when the blob is gone. */
  async openXml(file: Pick<ArchivedRegisterFile, 'blob'>): Promise<Readable | null> {
    const match = ARCHIVED.exec(file.blob);
    if (!match) throw new Error(`Not an archived register file: ${file.blob}`);
    const stored = await this.blobs.openStream(file.blob);
    if (!stored) return null;
    return match[2] === 'zip' ? unzippedXml(stored) : pipeline(stored, createGunzip(), () => undefined);
  }
}
