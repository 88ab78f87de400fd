import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeEventStoreContract } from './contract';
import { openSqliteEventStore } from './sqlite-event-store';

describeEventStoreContract('SQLite (embedded)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-events-'));
  const file = path.join(dir, 'events.db');
  return {
    open: async () =>
      openSqliteEventStore(file, {
        pollIntervalMs: 50,
        retry: { initialDelayMs: 10, maxDelayMs: 100 },
        onHandlerError: () => undefined,
      }),
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
});
