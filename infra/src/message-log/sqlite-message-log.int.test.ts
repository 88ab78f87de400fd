import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeMessageLogContract } from './contract';
import { openSqliteMessageLog } from './sqlite-message-log';

describeMessageLogContract('SQLite (embedded)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-messages-'));
  const file = path.join(dir, 'messages.db');
  return {
    open: async () =>
      openSqliteMessageLog(file, {
        pollIntervalMs: 30,
        retry: { initialDelayMs: 10, maxDelayMs: 100 },
        onHandlerError: () => undefined,
      }),
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
});
