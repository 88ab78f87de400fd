/**
 * Blobs as files under one directory: `<dir>/<name>` holds the bytes, `<dir>/.meta/<name>.json` the
 * content type. Names are checked before any path is built, so nothing outside the directory is reachable.
 * Writes go to a temporary file first and are renamed into place, so a reader never sees half a logo.
 */
import fs from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeBlobName, type BlobStore, type StoredBlob } from './port';

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

export class FileBlobStore implements BlobStore {
  private readonly metaDir: string;
  private readonly tmpDir: string;
  private ready: Promise<void> | null = null;

  constructor(private readonly dir: string) {
    this.metaDir = path.join(dir, '.meta');
    this.tmpDir = path.join(dir, '.tmp');
  }

  async put(name: string, bytes: Uint8Array, contentType: string): Promise<void> {
    assertSafeBlobName(name);
    if (typeof contentType !== 'string' || contentType.trim() === '') {
      throw new TypeError(`Blob ${name} needs a content type`);
    }
    await this.ensureDirs();
    await this.writeAtomically(this.metaPath(name), JSON.stringify({ contentType }));
    await this.writeAtomically(this.dataPath(name), bytes);
  }

  async get(name: string): Promise<StoredBlob | null> {
    assertSafeBlobName(name);
    try {
      const [bytes, meta] = await Promise.all([
        fs.readFile(this.dataPath(name)),
        fs.readFile(this.metaPath(name), 'utf8'),
      ]);
      const { contentType } = JSON.parse(meta) as { contentType: string };
      return { bytes, contentType };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(name: string): Promise<boolean> {
    assertSafeBlobName(name);
    let removed = true;
    await fs.unlink(this.dataPath(name)).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
      removed = false;
    });
    await fs.rm(this.metaPath(name), { force: true });
    return removed;
  }

  async exists(name: string): Promise<boolean> {
    assertSafeBlobName(name);
    try {
      return (await fs.stat(this.dataPath(name))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async putStream(name: string, source: Readable, contentType: string): Promise<{ bytes: number }> {
    assertSafeBlobName(name);
    await this.ensureDirs();
    const temp = path.join(this.tmpDir, randomUUID());
    try {
      await pipeline(source, createWriteStream(temp));
      await this.writeAtomically(this.metaPath(name), JSON.stringify({ contentType }));
      await fs.rename(temp, this.dataPath(name));
    } finally {
      await fs.rm(temp, { force: true });
    }
    return { bytes: (await fs.stat(this.dataPath(name))).size };
  }

  async openStream(name: string): Promise<Readable | null> {
    assertSafeBlobName(name);
    try {
      // opened first: a missing blob is null here, not an error later on the stream
      const handle = await fs.open(this.dataPath(name), 'r');
      return createReadStream(this.dataPath(name), { fd: handle });
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async rename(from: string, to: string): Promise<void> {
    assertSafeBlobName(from);
    assertSafeBlobName(to);
    await fs.rename(this.metaPath(from), this.metaPath(to));
    await fs.rename(this.dataPath(from), this.dataPath(to));
  }

  private dataPath(name: string): string {
    return path.join(this.dir, name);
  }

  private metaPath(name: string): string {
    return path.join(this.metaDir, `${name}.json`);
  }

  private ensureDirs(): Promise<void> {
    this.ready ??= Promise.all([
      fs.mkdir(this.metaDir, { recursive: true }),
      fs.mkdir(this.tmpDir, { recursive: true }),
    ]).then(() => undefined);
    return this.ready;
  }

  private async writeAtomically(target: string, content: Uint8Array | string): Promise<void> {
    const temp = path.join(this.tmpDir, randomUUID());
    await fs.writeFile(temp, content);
    await fs.rename(temp, target);
  }
}

export function openFileBlobStore(dir: string): FileBlobStore {
  return new FileBlobStore(dir);
}
