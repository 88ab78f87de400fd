/**
 * Blob port: named binary objects with their content type — small ones (logos) read whole, large
 * ones (the register's archived files, up to ~100 MB) written and read as streams.
 */
import type { Readable } from 'node:stream';

export interface StoredBlob {
  bytes: Buffer;
  contentType: string;
}

export interface BlobStore {
  /** Creates or replaces the blob. */
  put(name: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(name: string): Promise<StoredBlob | null>;
  /** True when something was removed. */
  delete(name: string): Promise<boolean>;
  exists(name: string): Promise<boolean>;
  /** Creates or replaces the blob from a stream; resolves with its size once it is all stored. */
  putStream(name: string, source: Readable, contentType: string): Promise<{ bytes: number }>;
  /** The blob's bytes as a stream, or null when there is none. */
  openStream(name: string): Promise<Readable | null>;
  /** Gives a blob another name, replacing what had that name. */
  rename(from: string, to: string): Promise<void>;
}

/** A blob name must be a plain file name: letters, digits, dot, dash, underscore; no path. */
export class InvalidBlobNameError extends Error {
  readonly code = 'BLOB_INVALID_NAME' as const;
  constructor(public readonly blobName: string) {
    super(`Invalid blob name: ${JSON.stringify(blobName)}`);
    this.name = 'InvalidBlobNameError';
  }
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export function assertSafeBlobName(name: string): void {
  if (typeof name !== 'string' || !SAFE_NAME.test(name) || name.includes('..')) {
    throw new InvalidBlobNameError(String(name));
  }
}
