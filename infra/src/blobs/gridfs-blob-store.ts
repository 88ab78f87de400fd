/**
 * Blob store on MongoDB GridFS, through the document store's mongoose connection: API processes on
 * different hosts share the logos they upload. A blob written again is stored anew before the older
 * copies are deleted, so a reader meets either the old or the new bytes, never nothing; and a writer
 * deletes only the copies older than its own, so two processes writing the same name at once (two API
 * replicas starting) leave the newer copy, never none.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import mongoose, { type Connection } from 'mongoose';
import { assertSafeBlobName, type BlobStore, type StoredBlob } from './port';

type ObjectId = mongoose.mongo.ObjectId;

/**
 * The copies a writer may delete once its own is stored: those after it in the newest-first order every
 * process sees alike. A copy written at the same time by another process and newer than ours stays
 * (and that process deletes ours); a copy we cannot find (deleted meanwhile) lets us delete nothing.
 */
export function copiesOlderThan<C extends { _id: { equals(other: unknown): boolean } }>(
  newestFirst: readonly C[],
  own: unknown,
): C[] {
  const index = newestFirst.findIndex((copy) => copy._id.equals(own));
  return index < 0 ? [] : newestFirst.slice(index + 1);
}

export class GridFsBlobStore implements BlobStore {
  constructor(
    private readonly connection: Connection,
    private readonly bucketName = 'blobs',
  ) {}

  private async bucket(): Promise<mongoose.mongo.GridFSBucket> {
    await this.connection.asPromise();
    return new mongoose.mongo.GridFSBucket(this.connection.db!, { bucketName: this.bucketName });
  }

  /** The stored copies of a name, newest first. */
  private async copies(name: string): Promise<{ _id: ObjectId; metadata?: { contentType?: string } }[]> {
    const bucket = await this.bucket();
    return bucket.find({ filename: name }).sort({ uploadDate: -1, _id: -1 }).toArray();
  }

  async put(name: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertSafeBlobName(name);
    const bucket = await this.bucket();
    const upload = bucket.openUploadStream(name, { metadata: { contentType } });
    await new Promise<void>((resolve, reject) => {
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      upload.end(Buffer.from(bytes));
    });
    for (const older of copiesOlderThan(await this.copies(name), upload.id))
      await bucket.delete(older._id).catch(() => undefined);
  }

  async get(name: string): Promise<StoredBlob | null> {
    assertSafeBlobName(name);
    const [newest] = await this.copies(name);
    if (!newest) return null;
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of (await this.bucket()).openDownloadStream(newest._id))
        chunks.push(chunk as Buffer);
    } catch (error) {
      // replaced and deleted between the look-up and the read: read the new copy
      if ((error as { code?: unknown }).code === 'ENOENT') return this.get(name);
      throw error;
    }
    return {
      bytes: Buffer.concat(chunks),
      contentType: newest.metadata?.contentType ?? 'application/octet-stream',
    };
  }

  async delete(name: string): Promise<boolean> {
    assertSafeBlobName(name);
    const bucket = await this.bucket();
    const copies = await this.copies(name);
    for (const copy of copies) await bucket.delete(copy._id).catch(() => undefined);
    return copies.length > 0;
  }

  async putStream(name: string, source: Readable, contentType: string): Promise<{ bytes: number }> {
    assertSafeBlobName(name);
    const bucket = await this.bucket();
    const upload = bucket.openUploadStream(name, { metadata: { contentType } });
    await pipeline(source, upload);
    for (const older of copiesOlderThan(await this.copies(name), upload.id))
      await bucket.delete(older._id).catch(() => undefined);
    return { bytes: upload.length };
  }

  async openStream(name: string): Promise<Readable | null> {
    assertSafeBlobName(name);
    const [newest] = await this.copies(name);
    return newest ? (await this.bucket()).openDownloadStream(newest._id) : null;
  }

  async rename(from: string, to: string): Promise<void> {
    assertSafeBlobName(from);
    assertSafeBlobName(to);
    const [newest] = await this.copies(from);
    if (!newest) throw new Error(`No blob named ${from}`);
    const bucket = await this.bucket();
    const replaced = await this.copies(to);
    await bucket.rename(newest._id, to);
    for (const older of replaced) await bucket.delete(older._id).catch(() => undefined);
  }

  async exists(name: string): Promise<boolean> {
    assertSafeBlobName(name);
    return (await this.copies(name)).length > 0;
  }
}
