import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeAidIndexContract } from './contract';
import { openSqliteAidIndex } from './sqlite-aid-index';

describeAidIndexContract('SQLite (embedded)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-aids-'));
  const file = path.join(dir, 'aids.db');
  return {
    open: async () => openSqliteAidIndex(file),
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
});
