/**
 * The message log contract: every adapter (embedded SQLite, Kafka, …) runs this suite unchanged.
 * Each test gets fresh storage from the factory; harness.open() opens further instances on it.
 */
import { eventually, sleep, type ContractHarness, type HarnessFactory } from '../embedded/contract-helpers';
import { adaptersPerTest } from '../embedded/contract-lifecycle';
import { FencedError, type Fence } from '../fencing';
import type { ConsumedMessage, MessageGap, MessageLog, MessageToPublish } from './port';

export type MessageLogHarness = ContractHarness<MessageLog>;

export function describeMessageLogContract(name: string, factory: HarnessFactory<MessageLog>): void {
  describe(`MessageLog contract: ${name}`, () => {
    const adapters = adaptersPerTest(factory);
    const open = adapters.open;
    let log: MessageLog;
    beforeEach(() => {
      log = adapters.first();
    });

    const msgs = (from: number, to: number, key = 'k') =>
      Array.from({ length: to - from + 1 }, (_, i) => ({ key, value: { n: from + i } }));
    const ns = (batch: ConsumedMessage[]) => batch.map((m) => (m.value as { n: number }).n);

    function collector() {
      const seen: ConsumedMessage[] = [];
      return { seen, handler: async (batch: ConsumedMessage[]) => void seen.push(...batch) };
    }

    it('a value published already encoded as JSON is consumed like any other value', async () => {
      await log.publish('aids', [
        { key: 'k1', json: '{"type":"AidRecorded","aid":{"id":"1","cents":150}}' },
        { key: 'k2', value: { type: 'AidRecorded', aid: { id: '2' } } },
      ]);
      const c = collector();
      const consumer = log.consume({ topic: 'aids', groupId: 'g', handler: c.handler });
      await consumer.caughtUp();
      expect(c.seen.map((m) => m.value)).toEqual([
        { type: 'AidRecorded', aid: { id: '1', cents: 150 } },
        { type: 'AidRecorded', aid: { id: '2' } },
      ]);
      // Adapters that keep the text hand it over as stored.
      if (c.seen[0]?.json !== undefined) {
        expect(c.seen[0].json).toBe('{"type":"AidRecorded","aid":{"id":"1","cents":150}}');
      }
      await consumer.stop();
    });

    it("a value published as its JSON text's UTF-8 bytes (a sync's parsed aids) is consumed with that text", async () => {
      const text = '{"type":"AidRecorded","aid":{"titolo":"Attività in città — 𝄞","cents":150}}';
      const packed = Buffer.from(`${text}{"n":2}`, 'utf8');
      const cut = Buffer.byteLength(text, 'utf8');
      await log.publish('aids', [
        // views into one buffer, as the parser's batch hands them over
        { key: 'k1', bytes: packed.subarray(0, cut) },
        { key: 'k2', bytes: packed.subarray(cut) },
      ]);
      const c = collector();
      const consumer = log.consume({ topic: 'aids', groupId: 'g', handler: c.handler });
      await consumer.caughtUp();
      expect(c.seen.map((m) => m.key)).toEqual(['k1', 'k2']);
      expect(c.seen.map((m) => m.value)).toEqual([JSON.parse(text), { n: 2 }]);
      if (c.seen[0]?.json !== undefined) expect(c.seen[0].json).toBe(text);
      if (c.seen[0]?.bytes !== undefined) expect(Buffer.from(c.seen[0].bytes).toString('utf8')).toBe(text);
      await consumer.stop();
    });

    it('a new group consumes every message from the beginning, in order', async () => {
      await log.publish('aids', [
        { key: 'RSSMRA80A01H501U', value: { type: 'AidRecorded', id: 1 } },
        { key: '01234567890', value: { type: 'AidRecorded', id: 2 } },
      ]);
      await log.publish('aids', msgs(3, 5));
      const c = collector();
      const consumer = log.consume({ topic: 'aids', groupId: 'g', handler: c.handler });
      await consumer.caughtUp();
      expect(c.seen).toHaveLength(5);
      expect(c.seen[0]).toMatchObject({
        topic: 'aids',
        key: 'RSSMRA80A01H501U',
        value: { type: 'AidRecorded', id: 1 },
      });
      expect(typeof c.seen[0]?.offset).toBe('string');
      expect(typeof c.seen[0]?.partition).toBe('number');
      expect(Number.isNaN(Date.parse(c.seen[0]?.timestamp ?? ''))).toBe(false);
      const offsets = c.seen.map((m) => BigInt(m.offset));
      for (let i = 1; i < offsets.length; i++) expect(offsets[i]! > offsets[i - 1]!).toBe(true);
      expect(ns(c.seen.slice(2))).toEqual([3, 4, 5]);
      await consumer.stop();
    });

    it('never calls the handler before consume has returned', async () => {
      await log.publish('t', msgs(1, 1));
      let returned = false;
      let calledEarly = false;
      const consumer = log.consume({
        topic: 't',
        groupId: 'g',
        handler: async () => void (calledEarly ||= !returned),
      });
      returned = true;
      await consumer.caughtUp();
      expect(calledEarly).toBe(false);
      await consumer.stop();
    });

    it('respects the batch size and keeps topics apart', async () => {
      await log.publish('t1', msgs(1, 7));
      await log.publish('t2', msgs(100, 100));
      const sizes: number[] = [];
      const c = collector();
      const consumer = log.consume({
        topic: 't1',
        groupId: 'g',
        batchSize: 3,
        handler: async (batch) => {
          sizes.push(batch.length);
          await c.handler(batch);
        },
      });
      await consumer.caughtUp();
      expect(ns(c.seen)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(3);
      await consumer.stop();
    });

    it('delivers live messages published after the consumer started', async () => {
      const c = collector();
      const consumer = log.consume({ topic: 't', groupId: 'g', handler: c.handler });
      await consumer.caughtUp();
      await log.publish('t', msgs(1, 2));
      await consumer.caughtUp();
      expect(ns(c.seen)).toEqual([1, 2]);
      await consumer.stop();
    });

    it('sees messages published through another instance on the same storage', async () => {
      const other = await open();
      const c = collector();
      const consumer = log.consume({ topic: 't', groupId: 'g', handler: c.handler });
      await other.publish('t', msgs(1, 3));
      await eventually('live delivery from the other instance', () => c.seen.length === 3);
      expect(ns(c.seen)).toEqual([1, 2, 3]);
      await consumer.stop();
    });

    it('rejects a batch with an invalid message as a whole', async () => {
      await expect(
        log.publish('t', [
          { key: 'ok', value: 1 },
          { key: undefined as unknown as string, value: 2 },
        ]),
      ).rejects.toThrow();
      const c = collector();
      const consumer = log.consume({ topic: 't', groupId: 'g', handler: c.handler });
      await consumer.caughtUp();
      expect(c.seen).toHaveLength(0);
      await consumer.stop();
    });

    it('groups are independent: each gets every message', async () => {
      await log.publish('t', msgs(1, 4));
      const a = collector();
      const b = collector();
      const ca = log.consume({ topic: 't', groupId: 'projector', handler: a.handler });
      const cb = log.consume({ topic: 't', groupId: 'alerts', handler: b.handler, batchSize: 1 });
      await Promise.all([ca.caughtUp(), cb.caughtUp()]);
      expect(ns(a.seen)).toEqual([1, 2, 3, 4]);
      expect(ns(b.seen)).toEqual([1, 2, 3, 4]);
      await Promise.all([ca.stop(), cb.stop()]);
    });

    it("a failing handler's batch is redelivered, and only committed once handled", async () => {
      await log.publish('t', msgs(1, 4));
      const attempts: number[][] = [];
      const handled: number[] = [];
      let failures = 0;
      const consumer = log.consume({
        topic: 't',
        groupId: 'g',
        batchSize: 2,
        handler: async (batch) => {
          attempts.push(ns(batch));
          if (ns(batch).includes(3) && failures < 2) {
            failures += 1;
            throw new Error('index unavailable');
          }
          handled.push(...ns(batch));
        },
      });
      await consumer.caughtUp();
      expect(handled).toEqual([1, 2, 3, 4]);
      expect(attempts.filter((a) => a[0] === 3)).toHaveLength(3);
      await consumer.stop();
    });

    it('restart: a consumer resumes after its last committed offset, nothing lost, nothing duplicated', async () => {
      await log.publish('t', msgs(1, 3));
      const first = collector();
      const consumer = log.consume({ topic: 't', groupId: 'g', handler: first.handler });
      await consumer.caughtUp();
      await consumer.stop();
      await log.close();

      const reopened = await open();
      await reopened.publish('t', msgs(4, 5));
      const second = collector();
      const again = reopened.consume({ topic: 't', groupId: 'g', handler: second.handler });
      await again.caughtUp();
      expect(ns(first.seen)).toEqual([1, 2, 3]);
      expect(ns(second.seen)).toEqual([4, 5]);
      await again.stop();
    });

    it('restart: a batch whose handler never succeeded is delivered again', async () => {
      await log.publish('t', msgs(1, 4));
      const handled: number[] = [];
      const consumer = log.consume({
        topic: 't',
        groupId: 'g',
        batchSize: 2,
        handler: async (batch) => {
          if (ns(batch).includes(3)) throw new Error('always failing');
          handled.push(...ns(batch));
        },
      });
      await eventually('first batch handled', () => handled.length === 2);
      await sleep(50);
      await consumer.stop();
      await log.close();

      const reopened = await open();
      const c = collector();
      const again = reopened.consume({ topic: 't', groupId: 'g', handler: c.handler });
      await again.caughtUp();
      expect(handled).toEqual([1, 2]);
      expect(ns(c.seen)).toEqual([3, 4]);
      await again.stop();
    });

    it('race: two consumers of the same group never both process a message', async () => {
      await log.publish('t', msgs(1, 60));
      const other = await open();
      const handledBy = new Map<number, string[]>();
      const handler = (who: string) => async (batch: ConsumedMessage[]) => {
        for (const n of ns(batch)) handledBy.set(n, [...(handledBy.get(n) ?? []), who]);
        await sleep(2);
      };
      const a = log.consume({ topic: 't', groupId: 'g', handler: handler('a'), batchSize: 5 });
      const b = other.consume({ topic: 't', groupId: 'g', handler: handler('b'), batchSize: 5 });
      await Promise.all([a.caughtUp(), b.caughtUp()]);
      await other.publish('t', msgs(61, 80));
      await Promise.all([a.caughtUp(), b.caughtUp()]);
      await Promise.all([a.stop(), b.stop()]);
      expect([...handledBy.keys()].sort((x, y) => x - y)).toEqual(
        Array.from({ length: 80 }, (_, i) => i + 1),
      );
      expect([...handledBy.values()].filter((who) => who.length > 1)).toEqual([]);
    });

    it('when one consumer of a group stops, another of the group takes over', async () => {
      await log.publish('t', msgs(1, 2));
      const a = collector();
      const first = log.consume({ topic: 't', groupId: 'g', handler: a.handler });
      await first.caughtUp();
      const b = collector();
      const second = log.consume({ topic: 't', groupId: 'g', handler: b.handler });
      await first.stop();
      await log.publish('t', msgs(3, 4));
      await second.caughtUp();
      expect(ns([...a.seen, ...b.seen])).toEqual([1, 2, 3, 4]);
      await second.stop();
    });

    it('resetGroup makes the group consume again all the log keeps, and names what it no longer keeps', async () => {
      await log.publish('t', msgs(1, 3));
      const first = collector();
      const consumer = log.consume({ topic: 't', groupId: 'g', handler: first.handler });
      await consumer.caughtUp();
      await consumer.stop();

      await log.resetGroup('t', 'g');
      const second = collector();
      const gaps: MessageGap[] = [];
      const again = log.consume({
        topic: 't',
        groupId: 'g',
        handler: second.handler,
        onGap: async (gap) => void gaps.push(gap),
      });
      await again.caughtUp();
      // An adapter that keeps every message replays the three; one that deleted what was consumed
      // replays what is left and reports the rest: never a message silently skipped.
      const missing = gaps.reduce((sum, gap) => sum + gap.missing, 0);
      expect(missing + second.seen.length).toBe(3);
      expect(ns(second.seen)).toEqual([1, 2, 3].slice(missing));
      await again.stop();
    });

    it('publishes from two instances at once: every message stored once, offsets distinct', async () => {
      const other = await open();
      await Promise.all([
        log.publish('t', msgs(1, 50, 'a')),
        other.publish('t', msgs(51, 100, 'b')),
        log.publish('t', msgs(101, 150, 'a')),
      ]);
      const c = collector();
      const consumer = log.consume({ topic: 't', groupId: 'g', handler: c.handler });
      await consumer.caughtUp();
      expect(ns(c.seen).sort((x, y) => x - y)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
      expect(new Set(c.seen.map((m) => m.offset)).size).toBe(150);
      // Each publish keeps its own order.
      const fromA = ns(c.seen.filter((m) => m.key === 'a'));
      expect(fromA).toEqual([...fromA].sort((x, y) => x - y));
      await consumer.stop();
    });

    describe('fences: a former lease holder writes nothing that is read after its successor began', () => {
      const holder = (token: number, name = 'sync-worker'): Fence => ({ name, token });
      /**
       * A write of a holder that may be shut out: a log that checks fences when written refuses it
       * (FencedError); one that checks them when read (Kafka) takes it and never delivers it.
       */
      async function publishAsFormer(target: MessageLog, messages: MessageToPublish[], fence: Fence) {
        await target.publish('aids', messages, { fence }).catch((error: unknown) => {
          if (!(error instanceof FencedError)) throw error;
        });
      }

      it("delivers the former holder's messages written before the fence, none after, and the rest in order", async () => {
        const former = log;
        const later = await open();
        await former.publish('aids', msgs(1, 2), { fence: holder(1) });
        // the successor's first write raises the fence, with no message
        await later.publish('aids', [], { fence: holder(2) });
        await later.publish('aids', msgs(3, 3), { fence: holder(2) });
        // the former holder wakes up and sends what it had in hand, under several tax codes
        await publishAsFormer(former, [...msgs(4, 4, 'a'), ...msgs(5, 5, 'b')], holder(1));
        // writes of another lease and writes without a fence are not concerned
        await former.publish('aids', msgs(6, 6), { fence: holder(1, 'other-lease') });
        await former.publish('aids', msgs(7, 7));
        await later.publish('aids', msgs(8, 8), { fence: holder(2) });
        const c = collector();
        const consumer = later.consume({ topic: 'aids', groupId: 'g', batchSize: 2, handler: c.handler });
        await consumer.caughtUp();
        expect(ns(c.seen)).toEqual([1, 2, 3, 6, 7, 8]);
        await consumer.stop();
      });

      it('a consumer that resumes after the fence still shuts the former holder out; a group read again from the start too', async () => {
        const former = log;
        const later = await open();
        await former.publish('aids', msgs(1, 1), { fence: holder(4) });
        await later.publish('aids', [], { fence: holder(5) });
        await later.publish('aids', msgs(2, 2), { fence: holder(5) });
        const first = collector();
        const consumer = later.consume({ topic: 'aids', groupId: 'g', handler: first.handler });
        await consumer.caughtUp();
        await consumer.stop();
        await later.close();

        // written while no consumer runs, after the consumer's committed position
        await publishAsFormer(former, msgs(3, 3), holder(4));
        const reopened = await open();
        await reopened.publish('aids', msgs(4, 4), { fence: holder(5) });
        const second = collector();
        const again = reopened.consume({ topic: 'aids', groupId: 'g', handler: second.handler });
        await again.caughtUp();
        expect(ns(first.seen)).toEqual([1, 2]);
        expect(ns(second.seen)).toEqual([4]);
        await again.stop();

        await reopened.resetGroup('aids', 'g');
        const replay = collector();
        const gaps: MessageGap[] = [];
        const fromStart = reopened.consume({
          topic: 'aids',
          groupId: 'g',
          handler: replay.handler,
          onGap: async (gap) => void gaps.push(gap),
        });
        await fromStart.caughtUp();
        // a log that keeps every message reads the fences again on its way; a transport that deleted
        // what was consumed (and says so) has nothing of it left to replay
        if (gaps.length === 0) expect(ns(replay.seen)).toEqual([1, 2, 4]);
        else expect(ns(replay.seen)).toEqual([]);
        await fromStart.stop();
      });
    });

    it('caughtUp resolves at once on an empty topic, and nothing arrives after stop', async () => {
      const c = collector();
      const consumer = log.consume({ topic: 'empty', groupId: 'g', handler: c.handler });
      await consumer.caughtUp();
      await consumer.stop();
      await log.publish('empty', msgs(1, 1));
      await sleep(300);
      expect(c.seen).toHaveLength(0);
    });
  });
}
