import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteEventStore } from '../event-store/sqlite-event-store';
import { BACKGROUND_CHECKPOINT_INTERVAL_MS } from './wal-checkpointer';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** WAL frames left after the appends: a fully checkpointed WAL restarts from its beginning. */
async function walFramesAfterAppends(backgroundCheckpoints: boolean): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-checkpoints-'));
  const file = path.join(dir, 'events.db');
  const store = openSqliteEventStore(file, { backgroundCheckpoints });
  const probe = new Database(file);
  try {
    // 300 commits of a few pages: below SQLite's own 1,000-page threshold, so only the
    // background checkpointer can have copied them into the database file.
    for (let i = 0; i < 300; i++)
      await store.appendToStream(`quota-${i % 7}`, [{ type: 'SearchPerformed', data: { n: i } }]);
    // Each commit starts the WAL over only if everything before it was checkpointed. A worker thread
    // can be slow to start on a busy machine, so wait for that (NOOP only reads the WAL's size).
    const deadline = Date.now() + 3_000;
    let frames: number;
    do {
      await pause(BACKGROUND_CHECKPOINT_INTERVAL_MS);
      await store.appendToStream('quota-0', [{ type: 'SearchPerformed', data: { n: -1 } }]);
      const [result] = probe.pragma('wal_checkpoint(NOOP)') as { log: number }[];
      frames = result?.log ?? Number.NaN;
    } while (!(frames < 20) && Date.now() < deadline);
    return frames;
  } finally {
    probe.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('background WAL checkpoints', () => {
  it('keep the write-ahead log short without a commit having to checkpoint', async () => {
    expect(await walFramesAfterAppends(true)).toBeLessThan(20);
  });

  it('are what keeps it short: without them the log keeps every frame until the threshold', async () => {
    expect(await walFramesAfterAppends(false)).toBeGreaterThan(300);
  });
});
