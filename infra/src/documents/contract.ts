/**
 * The document store contract: every adapter (embedded SQLite, MongoDB, …) runs this suite unchanged.
 * Each test gets fresh storage from the factory; harness.open() opens further instances on it.
 */
import { settleAll, type ContractHarness, type HarnessFactory } from '../embedded/contract-helpers';
import { adaptersPerTest } from '../embedded/contract-lifecycle';
import { FencedError, type Fence } from '../fencing';
import {
  ConflictError,
  fencedDocuments,
  shadowCollectionName,
  updateDocument,
  type DocumentStore,
} from './port';

export type DocumentStoreHarness = ContractHarness<DocumentStore>;

const fence = (token: number, name = 'sync-worker'): Fence => ({ name, token });

interface Client {
  id: string;
  email: string;
  remainingSearches: number;
  pdfEnabled: boolean;
  logoId: number | null;
  endDate?: number;
}

export function describeDocumentStoreContract(name: string, factory: HarnessFactory<DocumentStore>): void {
  describe(`DocumentStore contract: ${name}`, () => {
    const adapters = adaptersPerTest(factory);
    const open = adapters.open;
    let store: DocumentStore;
    beforeEach(() => {
      store = adapters.first();
    });

    const client = (id: string, overrides: Partial<Client> = {}): Client => ({
      id,
      email: `${id}@example.it`,
      remainingSearches: 10,
      pdfEnabled: false,
      logoId: null,
      ...overrides,
    });
    const ids = (docs: { id: string }[]) => docs.map((d) => d.id);

    it('writes and reads documents, counting revisions from 1', async () => {
      const clients = store.collection<Client>('clients');
      await expect(clients.put(client('c1'))).resolves.toBe(1);
      expect(await clients.get('c1')).toEqual(client('c1'));
      await expect(clients.put(client('c1', { remainingSearches: 9 }))).resolves.toBe(2);
      expect(await clients.getWithRevision('c1')).toEqual({
        doc: client('c1', { remainingSearches: 9 }),
        revision: 2,
      });
      expect(await clients.get('missing')).toBeNull();
      expect(await clients.getWithRevision('missing')).toBeNull();
    });

    it('compare-and-set: expectedRevision 0 means "must not exist", a stale revision conflicts', async () => {
      const clients = store.collection<Client>('clients');
      await expect(clients.put(client('c1'), { expectedRevision: 0 })).resolves.toBe(1);
      const duplicate = await clients.put(client('c1'), { expectedRevision: 0 }).catch((e: unknown) => e);
      expect(duplicate).toBeInstanceOf(ConflictError);
      expect(duplicate).toMatchObject({ code: 'DOCUMENT_CONFLICT', collection: 'clients', id: 'c1' });
      await expect(clients.put(client('c1', { email: 'x@y.it' }), { expectedRevision: 2 })).rejects.toThrow(
        ConflictError,
      );
      await expect(clients.put(client('c1', { email: 'x@y.it' }), { expectedRevision: 1 })).resolves.toBe(2);
      await expect(clients.put(client('c2'), { expectedRevision: 1 })).rejects.toThrow(ConflictError);
      expect(await clients.get('c2')).toBeNull();
      expect((await clients.get('c1'))?.email).toBe('x@y.it');
    });

    it('updateDocument loses no update when writers race (read-modify-write by compare-and-set)', async () => {
      const clients = store.collection<Client>('clients');
      await clients.put(client('c1', { remainingSearches: 0 }));
      await Promise.all(
        Array.from({ length: 20 }, () =>
          updateDocument(clients, 'c1', (current) =>
            current ? { ...current, remainingSearches: current.remainingSearches + 1 } : null,
          ),
        ),
      );
      expect((await clients.get('c1'))?.remainingSearches).toBe(20);
      // a change that keeps the document writes nothing
      await updateDocument(clients, 'c1', (current) => current);
      expect((await clients.getWithRevision('c1'))?.revision).toBe(21);
    });

    it('putMany writes a set of documents, bumping revisions like put, and refuses one without id', async () => {
      const clients = store.collection<Client>('clients');
      await clients.put(client('c1'));
      await clients.putMany([
        client('c1', { remainingSearches: 3 }),
        client('c2'),
        client('c2', { remainingSearches: 7 }),
      ]);
      expect(await clients.getWithRevision('c1')).toEqual({
        doc: client('c1', { remainingSearches: 3 }),
        revision: 2,
      });
      expect(await clients.getWithRevision('c2')).toEqual({
        doc: client('c2', { remainingSearches: 7 }),
        revision: 2,
      });
      await clients.putMany([]);
      await expect(clients.putMany([client('c3'), { ...client('c4'), id: '' }])).rejects.toThrow(TypeError);
      expect(await clients.get('c3')).toBeNull(); // all or none
      expect(await store.collection<Client>('other').count()).toBe(0);
    });

    it('increments a counter atomically, creating it at 1, whoever increments at the same time', async () => {
      const counters = store.collection<{ id: string; hits: number }>('counters');
      const values = await Promise.all(Array.from({ length: 40 }, () => counters.increment('u1:27', 'hits')));
      expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(await counters.get('u1:27')).toEqual({ id: 'u1:27', hits: 40 });
      expect(await counters.increment('u2:27', 'hits')).toBe(1);
      await expect(counters.increment('', 'hits')).rejects.toThrow(TypeError);
    });

    it('puts a collection rebuilt beside another in its place, in one step', async () => {
      const clients = store.collection<Client>('clients');
      await clients.putMany([client('old-1'), client('old-2')]);
      const shadow = store.collection<Client>(shadowCollectionName('clients'));
      await shadow.putMany([client('new-1')]);
      await store.replaceCollection(shadowCollectionName('clients'), 'clients');
      expect((await clients.find()).map((c) => c.id)).toEqual(['new-1']);
      expect(await shadow.count()).toBe(0);
      // a shadow nobody wrote (nothing to rebuild): the collection ends empty
      await store.replaceCollection(shadowCollectionName('clients'), 'clients');
      expect(await clients.count()).toBe(0);
      // after a swap the collection is an ordinary one: written, found by a field, counted
      await clients.put(client('after', { remainingSearches: 4 }));
      expect(await clients.find({ remainingSearches: 4 })).toHaveLength(1);
    });

    it('deletes, telling whether something was there', async () => {
      const clients = store.collection<Client>('clients');
      await clients.put(client('c1'));
      await expect(clients.delete('c1')).resolves.toBe(true);
      await expect(clients.delete('c1')).resolves.toBe(false);
      expect(await clients.get('c1')).toBeNull();
      // A deleted document can be created again as new.
      await expect(clients.put(client('c1'), { expectedRevision: 0 })).resolves.toBe(1);
    });

    it('keeps collections apart', async () => {
      await store.collection<Client>('clients').put(client('same'));
      await store.collection<{ id: string; name: string }>('logos').put({ id: 'same', name: 'default' });
      expect(await store.collection<Client>('clients').get('same')).toEqual(client('same'));
      await store.collection('logos').clear();
      expect(await store.collection('logos').count()).toBe(0);
      expect(await store.collection('clients').count()).toBe(1);
    });

    describe('find', () => {
      beforeEach(async () => {
        const clients = store.collection<Client>('clients');
        await clients.put(client('a', { remainingSearches: 5, pdfEnabled: true, logoId: 2 }));
        await clients.put(client('b', { remainingSearches: 0, pdfEnabled: false, logoId: null }));
        await clients.put(client('c', { remainingSearches: 5, pdfEnabled: false, logoId: 2, endDate: 20 }));
        await clients.put(client('d', { remainingSearches: 12, pdfEnabled: true, logoId: 3, endDate: 10 }));
      });

      it('matches top-level fields by equality, all of them', async () => {
        const clients = store.collection<Client>('clients');
        expect(ids(await clients.find({ remainingSearches: 5 }))).toEqual(['a', 'c']);
        expect(ids(await clients.find({ pdfEnabled: true }))).toEqual(['a', 'd']);
        expect(ids(await clients.find({ pdfEnabled: false, logoId: 2 }))).toEqual(['c']);
        expect(ids(await clients.find({ email: 'b@example.it' }))).toEqual(['b']);
        expect(ids(await clients.find({ logoId: null }))).toEqual(['b']);
        expect(ids(await clients.find({ remainingSearches: 5, email: undefined }))).toEqual(['a', 'c']);
        expect(await clients.find({ email: 'nobody@example.it' })).toEqual([]);
        expect(ids(await clients.find())).toEqual(['a', 'b', 'c', 'd']);
      });

      it('pages in id order without a field to sort by, whatever the order of the writes', async () => {
        // readers of appended notes (ids that sort by time) page through them this way
        const notes = store.collection<{ id: string }>('notes');
        for (const id of ['n3', 'n1', 'n4', 'n2']) await notes.put({ id });
        expect(ids(await notes.find({}, { limit: 2, offset: 1 }))).toEqual(['n2', 'n3']);
        expect(ids(await notes.find({}, { limit: 2, offset: 3 }))).toEqual(['n4']);
        // or each page from where the last one ended
        expect(ids(await notes.find({}, { limit: 2, afterId: 'n1' }))).toEqual(['n2', 'n3']);
        expect(ids(await notes.find({}, { afterId: 'n3' }))).toEqual(['n4']);
        expect(ids(await notes.find({ id: 'n2' }, { afterId: 'n1' }))).toEqual(['n2']);
        expect(await notes.find({ id: 'n2' }, { afterId: 'n2' })).toEqual([]);
      });

      it('does not confuse a number with its text', async () => {
        const clients = store.collection<Client>('clients');
        expect(await clients.find({ remainingSearches: '5' as unknown as number })).toEqual([]);
      });

      it('sorts, pages and counts', async () => {
        const clients = store.collection<Client>('clients');
        expect(ids(await clients.find({}, { sortBy: 'remainingSearches', order: 'desc' }))).toEqual([
          'd',
          'c',
          'a',
          'b',
        ]);
        expect(ids(await clients.find({}, { sortBy: 'remainingSearches', order: 'asc' }))).toEqual([
          'b',
          'a',
          'c',
          'd',
        ]);
        expect(ids(await clients.find({}, { sortBy: 'email', limit: 2, offset: 1 }))).toEqual(['b', 'c']);
        expect(
          ids(await clients.find({ pdfEnabled: true }, { sortBy: 'email', order: 'desc', limit: 1 })),
        ).toEqual(['d']);
        expect(await clients.count()).toBe(4);
        expect(await clients.count({ remainingSearches: 5 })).toBe(2);
        expect(await clients.count({ logoId: 99 })).toBe(0);
      });
    });

    describe('race and restart', () => {
      it('two writers with the same expected revision: exactly one wins', async () => {
        const other = await open();
        await store.collection<Client>('quotas').put(client('q1', { remainingSearches: 3 }));
        const { fulfilled, rejected } = await settleAll([
          store
            .collection<Client>('quotas')
            .put(client('q1', { remainingSearches: 2 }), { expectedRevision: 1 }),
          other
            .collection<Client>('quotas')
            .put(client('q1', { remainingSearches: 1 }), { expectedRevision: 1 }),
        ]);
        expect(fulfilled).toHaveLength(1);
        expect(rejected).toHaveLength(1);
        expect(rejected[0]?.reason).toMatchObject({ code: 'DOCUMENT_CONFLICT' });
        expect((await other.collection<Client>('quotas').getWithRevision('q1'))?.revision).toBe(2);
      });

      it('two creators of the same id with expectedRevision 0: exactly one wins', async () => {
        const other = await open();
        const { fulfilled } = await settleAll([
          store.collection<Client>('users').put(client('u1'), { expectedRevision: 0 }),
          other
            .collection<Client>('users')
            .put(client('u1', { email: 'other@x.it' }), { expectedRevision: 0 }),
          store
            .collection<Client>('users')
            .put(client('u1', { email: 'third@x.it' }), { expectedRevision: 0 }),
        ]);
        expect(fulfilled).toHaveLength(1);
        expect(await store.collection('users').count()).toBe(1);
      });

      it('refuses a former lease holder’s writes once a later holder wrote, to any document, leaving them as they were', async () => {
        const other = await open();
        const states = (at: DocumentStore) => at.collection<{ id: string; status: string }>('file-states');
        await states(store).put({ id: '2024_01', status: 'PARSING' }, { fence: fence(1) });
        await states(other).put({ id: '2024_01', status: 'SUCCESS' }, { fence: fence(2) });
        await expect(
          states(store).put({ id: '2024_01', status: 'ERROR' }, { fence: fence(1) }),
        ).rejects.toBeInstanceOf(FencedError);
        // the holder is shut out of the store, not of one document or one collection
        await expect(
          states(store).put({ id: '2024_02', status: 'PARSING' }, { fence: fence(1), expectedRevision: 0 }),
        ).rejects.toBeInstanceOf(FencedError);
        await expect(
          store.collection<Client>('listing').put(client('l1'), { fence: fence(1) }),
        ).rejects.toBeInstanceOf(FencedError);
        expect(await states(other).find()).toEqual([{ id: '2024_01', status: 'SUCCESS' }]);
        expect(await store.collection('listing').count()).toBe(0);
        // writes without a fence, or with another lease's, are not concerned; the later holder goes on
        await states(store).put({ id: 'unfenced', status: 'x' });
        await states(store).put({ id: 'notifier', status: 'x' }, { fence: fence(1, 'notifier') });
        await expect(states(other).put({ id: '2024_01', status: 'DONE' }, { fence: fence(2) })).resolves.toBe(
          3,
        );
        await expect(states(store).put({ id: 'bad', status: 'x' }, { fence: fence(0) })).rejects.toThrow(
          TypeError,
        );
        expect(await states(store).get('bad')).toBeNull();
      });

      it('fences the writes of several documents and deletes too, and so does a store seen through a holder’s fence', async () => {
        const other = await open();
        const former = fencedDocuments(store, fence(1, 'projection:clients')).collection<Client>('clients');
        const later = fencedDocuments(other, fence(2, 'projection:clients')).collection<Client>('clients');
        await former.putMany([client('c1'), client('c2')]);
        await former.delete('c2');
        await later.putMany([client('c1', { remainingSearches: 5 }), client('c3')]);
        await expect(
          former.putMany([client('c1', { remainingSearches: 0 }), client('c4')]),
        ).rejects.toBeInstanceOf(FencedError);
        await expect(former.delete('c3')).rejects.toBeInstanceOf(FencedError);
        await expect(former.put(client('c5'))).rejects.toBeInstanceOf(FencedError);
        await expect(
          updateDocument(former, 'c1', (c) => c && { ...c, remainingSearches: 1 }),
        ).rejects.toBeInstanceOf(FencedError);
        // a putMany with nothing in it raises the fence all the same: a new holder shuts the former out
        await fencedDocuments(store, fence(3, 'projection:clients')).collection<Client>('other').putMany([]);
        await expect(later.delete('c1')).rejects.toBeInstanceOf(FencedError);
        // reads through the view see the store
        expect(await former.find()).toEqual([client('c1', { remainingSearches: 5 }), client('c3')]);
        expect(await later.getWithRevision('c1')).toMatchObject({ revision: 2 });
      });

      it('refuses every write a former holder begins after its successor’s first write has returned', async () => {
        const other = await open();
        const states = (at: DocumentStore) => at.collection<{ id: string; by: number }>('file-states');
        let successorWrote = false;
        const outcomes: { after: boolean; fenced: boolean }[] = [];
        const former = (async () => {
          for (let i = 0; i < 30; i++) {
            await new Promise((resolve) => setImmediate(resolve)); // the successor's turn comes in between
            const after = successorWrote;
            try {
              await states(store).put({ id: `former-${i}`, by: 1 }, { fence: fence(1) });
              outcomes.push({ after, fenced: false });
            } catch (error) {
              if (!(error instanceof FencedError)) throw error;
              outcomes.push({ after, fenced: true });
            }
          }
        })();
        const successor = (async () => {
          while (outcomes.length < 5) await new Promise((resolve) => setImmediate(resolve));
          for (let i = 0; i < 10; i++) {
            await states(other).put({ id: `successor-${i}`, by: 2 }, { fence: fence(2) });
            successorWrote = true;
          }
        })();
        await Promise.all([former, successor]);
        expect(outcomes.filter((o) => o.after && !o.fenced)).toEqual([]);
        expect(outcomes.some((o) => o.after)).toBe(true); // the race was run, not settled before it
        const written = await states(other).find();
        expect(written.filter((doc) => doc.by === 2)).toHaveLength(10);
        expect(written.filter((doc) => doc.by === 1)).toHaveLength(outcomes.filter((o) => !o.fenced).length);
      });

      it('close and reopen: nothing lost, nothing duplicated, revisions continue', async () => {
        const clients = store.collection<Client>('clients');
        await clients.put(client('c1'));
        await clients.put(client('c1', { remainingSearches: 1 }));
        await clients.put(client('c2'));
        await store.close();

        const reopened = (await open()).collection<Client>('clients');
        expect(await reopened.count()).toBe(2);
        expect(await reopened.getWithRevision('c1')).toEqual({
          doc: client('c1', { remainingSearches: 1 }),
          revision: 2,
        });
        await expect(reopened.put(client('c1'), { expectedRevision: 2 })).resolves.toBe(3);
      });
    });
  });
}
