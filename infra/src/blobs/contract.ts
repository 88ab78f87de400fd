/** The blob store contract: every adapter (files, GridFS, …) runs this suite unchanged. */
import { Readable } from 'node:stream';
import type { ContractHarness, HarnessFactory } from '../embedded/contract-helpers';
import type { BlobStore } from './port';

export type BlobStoreHarness = ContractHarness<BlobStore>;

export function describeBlobStoreContract(name: string, factory: HarnessFactory<BlobStore>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let harness: BlobStoreHarness;
    let blobs: BlobStore;

    beforeEach(async () => {
      harness = await factory();
      blobs = await harness.open();
    });

    afterEach(async () => harness.dispose());

    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

    it('stores bytes with their content type and gives them back unchanged', async () => {
      await blobs.put('logo-3.png', png, 'image/png');
      const stored = await blobs.get('logo-3.png');
      expect(stored?.contentType).toBe('image/png');
      expect(Buffer.compare(stored!.bytes, png)).toBe(0);
      expect(await blobs.exists('logo-3.png')).toBe(true);
    });

    it('replaces a blob written again under the same name', async () => {
      await blobs.put('logo.svg', Buffer.from('<svg/>'), 'image/svg+xml');
      await blobs.put('logo.svg', png, 'image/png');
      const stored = await blobs.get('logo.svg');
      expect(stored?.contentType).toBe('image/png');
      expect(stored?.bytes.length).toBe(png.length);
    });

    it('answers null / false for unknown names, and deletes', async () => {
      expect(await blobs.get('nothing.png')).toBeNull();
      expect(await blobs.exists('nothing.png')).toBe(false);
      await blobs.put('gone.png', png, 'image/png');
      await expect(blobs.delete('gone.png')).resolves.toBe(true);
      await expect(blobs.delete('gone.png')).resolves.toBe(false);
      expect(await blobs.get('gone.png')).toBeNull();
    });

    it('stores a large blob from a stream and gives it back as a stream, byte for byte', async () => {
      const big = Buffer.alloc(5 * 1024 * 1024 + 7);
      for (let i = 0; i < big.length; i++) big[i] = (i * 31) % 251;
      const chunks = Array.from({ length: 6 }, (_, i) =>
        big.subarray(i * 1024 * 1024, (i + 1) * 1024 * 1024),
      );
      await expect(
        blobs.putStream('register-2024_01.zip', Readable.from(chunks), 'application/zip'),
      ).resolves.toEqual({
        bytes: big.length,
      });
      const stream = await blobs.openStream('register-2024_01.zip');
      const back: Buffer[] = [];
      for await (const chunk of stream!) back.push(chunk as Buffer);
      expect(Buffer.compare(Buffer.concat(back), big)).toBe(0);
      expect(await blobs.openStream('register-none.zip')).toBeNull();
    });

    it('renames a blob, replacing what had the new name', async () => {
      await blobs.put('incoming-1.zip', png, 'application/zip');
      await blobs.put('register-a.zip', Buffer.from('old'), 'application/zip');
      await blobs.rename('incoming-1.zip', 'register-a.zip');
      expect(await blobs.exists('incoming-1.zip')).toBe(false);
      const stored = await blobs.get('register-a.zip');
      expect(Buffer.compare(stored!.bytes, png)).toBe(0);
      expect(stored?.contentType).toBe('application/zip');
    });

    it('refuses names that could leave the store', async () => {
      for (const bad of ['../escape.png', '..', 'a/b.png', '/etc/passwd', 'a\\b', '', '.hidden', 'x..y']) {
        await expect(blobs.put(bad, png, 'image/png')).rejects.toMatchObject({ code: 'BLOB_INVALID_NAME' });
        await expect(blobs.get(bad)).rejects.toMatchObject({ code: 'BLOB_INVALID_NAME' });
      }
    });

    it('keeps blobs across a reopen', async () => {
      await blobs.put('kept.png', png, 'image/png');
      const reopened = await harness.open();
      expect((await reopened.get('kept.png'))?.contentType).toBe('image/png');
    });
  });
}
