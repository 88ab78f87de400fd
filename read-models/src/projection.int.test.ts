import {
  openTemporaryStores,
  withCollectionMethods,
  type TemporaryStores,
} from '@rna/infra/embedded/testing';
import { eventually } from '@rna/infra/embedded';
import { LEASES_COLLECTION } from '@rna/infra/leases';
import { DEAD_LETTERS_COLLECTION, deadLetterStream, type DeadLetterDoc } from '@rna/infra/dead-letters';
import { startProjections, type Projection } from './projection';

type NoteAdded = { type: 'NoteAdded'; data: { id: string; text: string } };

type Note = { id: string; text: string };

/**
 * A read model of notes; a note whose text is "poison" can never be applied. `storeDown` fails that
 * many applies as a store that is down would; `beforeWrite` runs before each note is written.
 */
function notesProjection(
  options: {
    attemptsSeen?: Map<string, number>;
    storeDown?: { failures: number };
    beforeWrite?: (text: string) => Promise<void>;
  } = {},
): Projection<NoteAdded> {
  const { attemptsSeen, storeDown, beforeWrite } = options;
  return {
    name: 'notes',
    collections: ['notes'],
    handles: ['NoteAdded'],
    async apply(event, stores) {
      const { id, text } = event.data;
      attemptsSeen?.set(id, (attemptsSeen.get(id) ?? 0) + 1);
      if (storeDown && storeDown.failures > 0) {
        storeDown.failures -= 1;
        throw Object.assign(new Error('database is locked'), { name: 'SqliteError', code: 'SQLITE_BUSY' });
      }
      if (text === 'poison') throw new TypeError(`cannot read the note ${id}`);
      await beforeWrite?.(text);
      await stores.documents.collection<Note>('notes').put({ id, text });
    },
    async reset(stores) {
      await stores.documents.collection('notes').clear();
    },
  };
}

let stores: TemporaryStores;
beforeEach(() => {
  stores = openTemporaryStores('rna-projection-');
});
afterEach(() => stores.dispose());

const note = (id: string, text: string) => ({ type: 'NoteAdded', data: { id, text } });

describe('projections and poison events', () => {
  it('sets a poison event aside after a few attempts, records it with its error, and goes on', async () => {
    const attempts = new Map<string, number>();
    const letters: DeadLetterDoc[] = [];
    await stores.eventStore.appendToStream('notes-1', [
      note('a', 'uno'),
      note('b', 'poison'),
      note('c', 'tre'),
    ]);
    const running = startProjections(
      [notesProjection({ attemptsSeen: attempts })],
      stores.eventStore,
      stores,
      {
        onDeadLetter: (letter) => letters.push(letter),
      },
    );
    try {
      await running.caughtUp();
      const notes = await stores.documents.collection<{ id: string }>('notes').find();
      expect(notes.map((n) => n.id).sort()).toEqual(['a', 'c']);
      expect(attempts.get('b')).toBe(3);
      const [letter, ...more] = await stores.documents
        .collection<DeadLetterDoc>(DEAD_LETTERS_COLLECTION)
        .find();
      expect(more).toEqual([]);
      expect(letter).toMatchObject({
        consumer: 'projection:notes',
        type: 'NoteAdded',
        error: 'TypeError: cannot read the note b',
        attempts: 3,
      });
      expect(letters).toEqual([letter]);
      const stream = await stores.eventStore.readStream(deadLetterStream('notes'));
      expect(stream.events.map((e) => [e.type, (e.data as { streamName: string }).streamName])).toEqual([
        ['EventDeadLettered', 'notes-1'],
      ]);
    } finally {
      await running.stop();
    }
  });

  it('waits for a store that is down rather than setting events aside', async () => {
    const attempts = new Map<string, number>();
    await stores.eventStore.appendToStream('notes-1', [note('a', 'uno')]);
    // more failures than the attempts a poison event gets: still applied in the end, nothing set aside
    const running = startProjections(
      [notesProjection({ attemptsSeen: attempts, storeDown: { failures: 5 } })],
      stores.eventStore,
      stores,
    );
    try {
      await running.caughtUp();
      expect(await stores.documents.collection('notes').get('a')).toMatchObject({ text: 'uno' });
      expect(attempts.get('a')).toBe(6);
      expect(await stores.documents.collection(DEAD_LETTERS_COLLECTION).count()).toBe(0);
    } finally {
      await running.stop();
    }
  });
});

describe('projections held by lease', () => {
  it('a projector whose lease ran out while a write was on its way cannot put an older state back', async () => {
    // projector a: its lease calls hang once told to (an engine call that never answers, a frozen
    // process), so its lease runs out while the write of the draft is on its way
    const hang = { now: false };
    const never = new Promise<never>(() => undefined);
    const aDocuments = withCollectionMethods(stores.documents, (name, inner) =>
      name === LEASES_COLLECTION
        ? {
            get: (id) => (hang.now ? never : inner.get(id)),
            getWithRevision: (id) => (hang.now ? never : inner.getWithRevision(id)),
            put: (doc, options) => (hang.now ? never : inner.put(doc, options)),
          }
        : {},
    );
    let reached!: () => void;
    let release!: () => void;
    const atWrite = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    let aStopped!: () => void;
    const aLost = new Promise<void>((resolve) => (aStopped = resolve));

    await stores.eventStore.appendToStream('notes-1', [note('x', 'draft')]);
    const a = startProjections(
      [
        notesProjection({
          beforeWrite: async (text) => {
            if (text !== 'draft') return;
            reached();
            await released;
          },
        }),
      ],
      stores.eventStore,
      { ...stores, documents: aDocuments },
      { leases: { ttlMs: 600, holder: 'a', onChange: (_, holding) => holding || aStopped() } },
    );
    const b = { running: null as ReturnType<typeof startProjections> | null };
    try {
      await atWrite;
      hang.now = true;
      await stores.eventStore.appendToStream('notes-1', [note('x', 'final')]);
      // projector b takes the lease over once a's ran out, and applies both events
      b.running = startProjections([notesProjection()], stores.eventStore, stores, {
        leases: { ttlMs: 600, holder: 'b' },
      });
      const collection = stores.documents.collection<Note>('notes');
      await eventually('b wrote the final note', async () => (await collection.get('x'))?.text === 'final');
      // a wakes up: its draft's write goes on, and a stops (its lease ran out) once that write is over
      release();
      await aLost;
      expect(await collection.get('x')).toEqual({ id: 'x', text: 'final' });
    } finally {
      release();
      hang.now = false;
      await a.stop();
      await b.running?.stop();
    }
  });
});
