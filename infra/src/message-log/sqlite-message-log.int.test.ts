import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describeMessageLogContract } from './contract';
import type { ConsumedMessage, MessageGap } from './port';
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

describe('SQLite message log as a transport: consumed messages are deleted', () => {
  const withLog = async (
    options: Parameters<typeof openSqliteMessageLog>[1],
    run: (log: ReturnType<typeof openSqliteMessageLog>, file: string) => Promise<void>,
  ) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-messages-trim-'));
    const file = path.join(dir, 'messages.db');
    const log = openSqliteMessageLog(file, { pollIntervalMs: 20, trimIntervalMs: 0, ...options });
    try {
      await run(log, file);
    } finally {
      await log.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const stored = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      const sql = 'SELECT COALESCE(SUM(seq - first_seq + 1), 0) AS n FROM message_batches';
      return (db.prepare(sql).get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  const aid = (n: number) => ({ key: `k${n}`, value: { n, text: 'x'.repeat(1_000) } });
  /** `count` aids numbered from `first`: one publish. */
  const aids = (first: number, count: number) => Array.from({ length: count }, (_, i) => aid(first + i));
  const handlerOf = (seen: number[]) => async (batch: ConsumedMessage[]) =>
    void seen.push(...batch.map((m) => (m.value as { n: number }).n));

  it('keeps a message until the slowest group has passed it, then gives its space back', async () => {
    await withLog({}, async (log, file) => {
      const fast: number[] = [];
      const slow: number[] = [];
      const fastConsumer = log.consume({ topic: 'aids', groupId: 'index', handler: handlerOf(fast) });
      const slowConsumer = log.consume({ topic: 'aids', groupId: 'alerts', handler: handlerOf(slow) });
      await log.publish('aids', [aid(-1)]);
      await Promise.all([fastConsumer.caughtUp(), slowConsumer.caughtUp()]);
      await slowConsumer.stop();
      for (let i = 0; i < 20; i++)
        await log.publish(
          'aids',
          Array.from({ length: 500 }, (_, j) => aid(i * 500 + j)),
        );
      await fastConsumer.caughtUp();
      expect(stored(file)).toBe(10_000); // the stopped group has not read them
      const grown = fs.statSync(file).size + fs.statSync(`${file}-wal`).size;
      const again = log.consume({ topic: 'aids', groupId: 'alerts', handler: handlerOf(slow) });
      await again.caughtUp();
      await log.publish('aids', [aid(10_000)]);
      await Promise.all([fastConsumer.caughtUp(), again.caughtUp()]);
      expect(slow).toHaveLength(10_002);
      expect(fast).toHaveLength(10_002);
      expect(stored(file)).toBe(0);
      await Promise.all([fastConsumer.stop(), again.stop()]);
      await log.close();
      expect(fs.statSync(file).size).toBeLessThan(grown / 10);
    });
  });

  it('gives the space back as soon as the consumers have read everything, however recent the last trim', async () => {
    // a trim at most once a minute: the flow's batches come well within it, the end must not wait for it
    await withLog({ trimIntervalMs: 60_000 }, async (log, file) => {
      const seen: number[] = [];
      const consumer = log.consume({ topic: 'aids', groupId: 'index', handler: handlerOf(seen) });
      for (let i = 0; i < 20; i++) {
        await log.publish(
          'aids',
          Array.from({ length: 500 }, (_, j) => aid(i * 500 + j)),
        );
        await consumer.caughtUp();
      }
      expect(seen).toHaveLength(10_000);
      expect(stored(file)).toBe(0);
      await consumer.stop();
      const grown = 10_000 * 1_000;
      await log.close();
      expect(fs.statSync(file).size).toBeLessThan(grown / 10);
    });
  });

  it('tells a group that comes later what was deleted before it read it, then hands it the rest', async () => {
    await withLog({}, async (log) => {
      const first: number[] = [];
      const consumer = log.consume({ topic: 'aids', groupId: 'index', handler: handlerOf(first) });
      await log.publish('aids', [aid(1), aid(2), aid(3)]);
      await consumer.caughtUp();
      await consumer.stop();
      await log.publish('aids', [aid(4)]);
      const later: number[] = [];
      const gaps: MessageGap[] = [];
      const late = log.consume({
        topic: 'aids',
        groupId: 'rebuild',
        handler: handlerOf(later),
        onGap: async (gap) => void gaps.push(gap),
      });
      await late.caughtUp();
      await late.stop();
      expect(gaps).toEqual([{ topic: 'aids', partition: 0, fromOffset: '1', toOffset: '4', missing: 3 }]);
      expect(later).toEqual([4]);
    });
  });

  it('hands a publish over in parts to a group that reads fewer at a time, and keeps it until every part is read', async () => {
    await withLog({}, async (log, file) => {
      const small: number[] = [];
      const large: number[] = [];
      const smallConsumer = log.consume({
        topic: 'aids',
        groupId: 'small',
        batchSize: 3,
        handler: handlerOf(small),
      });
      const largeConsumer = log.consume({ topic: 'aids', groupId: 'large', handler: handlerOf(large) });
      await log.publish('aids', aids(0, 10));
      await log.publish('aids', aids(10, 4));
      await largeConsumer.caughtUp();
      await largeConsumer.stop();
      await smallConsumer.caughtUp();
      expect(small).toEqual(Array.from({ length: 14 }, (_, n) => n));
      expect(large).toEqual(small);
      // the next publish: the large group reads it whole, the small one in parts; it stays until both have
      await smallConsumer.stop();
      await log.publish('aids', aids(14, 5));
      const again = log.consume({ topic: 'aids', groupId: 'large', handler: handlerOf(large) });
      await again.caughtUp();
      await again.stop();
      expect(large.slice(14)).toEqual([14, 15, 16, 17, 18]);
      const parted: number[] = [];
      const storedWhileReading: number[] = [];
      const resumed = log.consume({
        topic: 'aids',
        groupId: 'small',
        batchSize: 2,
        handler: async (batch) => {
          storedWhileReading.push(stored(file));
          await handlerOf(parted)(batch);
        },
      });
      await resumed.caughtUp();
      await resumed.stop();
      expect(parted).toEqual([14, 15, 16, 17, 18]);
      expect(storedWhileReading).toEqual([5, 5, 5]);
      expect(stored(file)).toBe(0);
      // a group that comes now is told that all 19 are gone, and nothing else
      const gaps: MessageGap[] = [];
      const late = log.consume({
        topic: 'aids',
        groupId: 'late',
        handler: async () => undefined,
        onGap: async (gap) => void gaps.push(gap),
      });
      await late.caughtUp();
      await late.stop();
      expect(gaps).toEqual([{ topic: 'aids', partition: 0, fromOffset: '1', toOffset: '20', missing: 19 }]);
    });
  });

  /** Opens the log on `file`, publishes one message on `aids`: what the group `index` then reads. */
  const consumedAfterPublishing = async (file: string, message: { key: string; value: unknown }) => {
    const log = openSqliteMessageLog(file, { pollIntervalMs: 20, trimIntervalMs: 0 });
    try {
      const seen: ConsumedMessage[] = [];
      const consumer = log.consume({
        topic: 'aids',
        groupId: 'index',
        handler: async (batch) => void seen.push(...batch),
      });
      await log.publish('aids', [message]);
      await consumer.caughtUp();
      await consumer.stop();
      return seen;
    } finally {
      await log.close();
    }
  };

  it('takes over a file whose messages were stored one row each: same offsets, none handed out again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-messages-old-'));
    const file = path.join(dir, 'messages.db');
    try {
      // the layout before batches: a row per message, a consumed message deleted, a group's offset
      const old = new Database(file);
      old.exec(`
        CREATE TABLE messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT NOT NULL, key TEXT NOT NULL,
          value TEXT NOT NULL, timestamp TEXT NOT NULL);
        CREATE INDEX messages_by_topic ON messages (topic, seq);
        CREATE TABLE consumer_groups (topic TEXT NOT NULL, group_id TEXT NOT NULL,
          committed INTEGER NOT NULL DEFAULT 0, lease_owner TEXT, lease_until INTEGER NOT NULL DEFAULT 0,
          PRIMARY KEY (topic, group_id));`);
      const insert = old.prepare('INSERT INTO messages (topic, key, value, timestamp) VALUES (?, ?, ?, ?)');
      // more rows than the conversion reads at once
      for (let n = 1; n <= 2_506; n++)
        insert.run(n % 2 ? 'aids' : 'other', `k${n}`, JSON.stringify({ n }), '2026-01-01T00:00:00.000Z');
      // consumed and trimmed: the oldest two, and the newest of the other topic (the sequence keeps it)
      old.prepare('DELETE FROM messages WHERE seq <= 2 OR seq = 2506').run();
      old
        .prepare("INSERT INTO consumer_groups (topic, group_id, committed) VALUES ('aids', 'index', 3)")
        .run();
      old.close();

      {
        const seen = await consumedAfterPublishing(file, { key: 'new', value: { n: 0 } });
        const kept = Array.from({ length: 1_251 }, (_, i) => 5 + 2 * i); // 5, 7, … 2505
        expect(seen.map((m) => [m.offset, m.key, m.value])).toEqual([
          ...kept.map((n) => [String(n), `k${n}`, { n }]),
          ['2507', 'new', { n: 0 }],
        ]);
        expect(seen[0]!.timestamp).toBe('2026-01-01T00:00:00.000Z');
      }
      const db = new Database(file, { readonly: true });
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
      db.close();
      expect(tables).not.toContain('messages');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the batches a file stored as one text each, before blobs, with characters beyond ASCII', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rna-messages-text-'));
    const file = path.join(dir, 'messages.db');
    try {
      // the layout of a batch before blobs: the texts joined, their lengths in UTF-16 code units
      const old = new Database(file);
      old.exec(`
        CREATE TABLE message_batches (seq INTEGER PRIMARY KEY AUTOINCREMENT, first_seq INTEGER NOT NULL,
          topic TEXT NOT NULL, timestamp TEXT NOT NULL, keys TEXT NOT NULL, lengths TEXT NOT NULL,
          vals TEXT NOT NULL);
        CREATE INDEX message_batches_by_topic ON message_batches (topic, seq);`);
      const values = [{ nome: 'Caffè 😀 Città' }, { nome: 'ü 𝔸' }, { n: 3 }];
      const texts = values.map((value) => JSON.stringify(value));
      old
        .prepare(
          'INSERT INTO message_batches (seq, first_seq, topic, timestamp, keys, lengths, vals) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(
          3,
          1,
          'aids',
          '2026-01-01T00:00:00.000Z',
          JSON.stringify(['a', 'b', 'c']),
          JSON.stringify(texts.map((text) => text.length)),
          texts.join(''),
        );
      old.close();

      const seen = await consumedAfterPublishing(file, { key: 'd', value: { nome: 'Perché €' } });
      expect(seen.map((m) => [m.offset, m.key, m.value])).toEqual([
        ['1', 'a', values[0]],
        ['2', 'b', values[1]],
        ['3', 'c', values[2]],
        ['4', 'd', { nome: 'Perché €' }],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps every message when asked to', async () => {
    await withLog({ trimConsumed: false }, async (log, file) => {
      const seen: number[] = [];
      const consumer = log.consume({ topic: 'aids', groupId: 'index', handler: handlerOf(seen) });
      await log.publish('aids', [aid(1), aid(2)]);
      await consumer.caughtUp();
      await consumer.stop();
      expect(stored(file)).toBe(2);
    });
  });

  it('holds a publisher back while the topic is too far ahead of its slowest running consumer', async () => {
    await withLog({ maxBacklog: 30, trimConsumed: false }, async (log) => {
      const seen: number[] = [];
      let highest = 0;
      // a slow index: 10 ms a batch of 5
      const consumer = log.consume({
        topic: 'aids',
        groupId: 'index',
        batchSize: 5,
        handler: async (batch) => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          await handlerOf(seen)(batch);
        },
      });
      for (let i = 0; i < 40; i++) {
        await log.publish('aids', [aid(2 * i), aid(2 * i + 1)]);
        highest = Math.max(highest, log.backlog('aids'));
      }
      await consumer.caughtUp();
      await consumer.stop();
      expect(seen).toEqual(Array.from({ length: 80 }, (_, n) => n));
      // never more than the bound plus one publish ahead of the index
      expect(highest).toBeLessThanOrEqual(32);
      expect(highest).toBeGreaterThan(20); // it did run ahead up to the bound: the wait was needed
    });
  });

  it('does not hold a publisher back for a group whose consumer is not running', async () => {
    await withLog({ maxBacklog: 5 }, async (log, file) => {
      const consumer = log.consume({ topic: 'aids', groupId: 'index', handler: async () => undefined });
      await consumer.caughtUp();
      await consumer.stop(); // the group stays, its consumer gone (a projector that was stopped)
      for (let i = 0; i < 20; i++) await log.publish('aids', [aid(i)]);
      expect(stored(file)).toBe(20);
      expect(log.backlog('aids')).toBe(0);
    });
  });
});
