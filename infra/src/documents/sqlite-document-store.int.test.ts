import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeDocumentStoreContract } from './contract';
import { openSqliteDocumentStore } from './sqlite-document-store';

function tempFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-documents-'));
  return { dir, file: path.join(dir, 'documents.db') };
}

describeDocumentStoreContract('SQLite (embedded)', async () => {
  const { dir, file } = tempFile();
  return {
    open: async () => openSqliteDocumentStore(file),
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
});

describe('SQLite document store: query safety', () => {
  it('refuses field names that are not plain identifiers instead of building a JSON path from them', async () => {
    const { dir, file } = tempFile();
    const store = openSqliteDocumentStore(file);
    const users = store.collection<{ id: string; email: string }>('users');
    await users.put({ id: 'u1', email: 'a@b.it' });
    const filter = { 'email") OR 1=1 --': 'x' } as unknown as { email: string };
    await expect(users.find(filter)).rejects.toThrow(/Invalid field name/);
    await expect(users.find({}, { sortBy: 'a.b' as 'email' })).rejects.toThrow(/Invalid field name/);
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
