/** Blob port: small named binary objects (logos) with their content type. */

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
