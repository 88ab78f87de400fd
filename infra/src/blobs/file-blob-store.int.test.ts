import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeBlobStoreContract } from './contract';
import { openFileBlobStore } from './file-blob-store';

describeBlobStoreContract('files under a directory', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-blobs-'));
  return {
    open: async () => openFileBlobStore(path.join(dir, 'blobs')),
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
});

describe('file blob store: path traversal', () => {
  it('never writes outside its directory', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-blobs-'));
    const store = openFileBlobStore(path.join(dir, 'blobs'));
    await expect(store.put('../outside.png', Buffer.from('x'), 'image/png')).rejects.toThrow(
      /Invalid blob name/,
    );
    expect(fs.existsSync(path.join(dir, 'outside.png'))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
