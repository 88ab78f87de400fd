import type { DocumentStore } from '@rna/infra';
import { AID_CHANGE_BUCKETS_COLLECTION, AID_CHANGE_LOG_COLLECTION, aidChangeBucket } from '@rna/read-models';
import { UnnotedChanges } from './unnoted-changes';

/** A store that keeps what each collection's putMany was given, a call at a time, until `hold` lets go. */
function recordingStore() {
  const calls: { collection: string; docs: unknown[] }[] = [];
  let failNext = false;
  let held: Promise<void> | null = null;
  const documents = {
    collection: (collection: string) => ({
      putMany: async (docs: unknown[]) => {
        if (held) await held;
        if (failNext) {
          failNext = false;
          throw new Error('documents unavailable');
        }
        calls.push({ collection, docs });
      },
    }),
  } as unknown as DocumentStore;
  return {
    documents,
    failOnce: () => (failNext = true),
    hold: () => {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = null;
        release();
      };
    },
    loggedCodes: () =>
      calls
        .filter((call) => call.collection === AID_CHANGE_LOG_COLLECTION)
        .map((call) => call.docs.flatMap((doc) => (doc as { taxCodes: string }).taxCodes.split(' '))),
    raisedBuckets: () =>
      calls
        .filter((call) => call.collection === AID_CHANGE_BUCKETS_COLLECTION)
        .map((call) => call.docs.map((doc) => (doc as { id: string }).id).sort()),
  };
}

describe('changes not yet noted', () => {
  it('logs a code once, and again only once it changed again', async () => {
    const store = recordingStore();
    const unnoted = new UnnotedChanges();
    unnoted.changed(['A', 'B']);
    await unnoted.log(store.documents, 1);
    await unnoted.log(store.documents, 2); // nothing changed since: no note
    unnoted.changed(['B']);
    await unnoted.log(store.documents, 3);
    expect(store.loggedCodes()).toEqual([['A', 'B'], ['B']]);
  });

  it('keeps the codes of a note that failed for the next one', async () => {
    const store = recordingStore();
    const unnoted = new UnnotedChanges();
    unnoted.changed(['A']);
    store.failOnce();
    await expect(unnoted.log(store.documents, 1)).rejects.toThrow('documents unavailable');
    unnoted.changed(['B']);
    await unnoted.log(store.documents, 2);
    expect(store.loggedCodes()).toEqual([['A', 'B']]);
  });

  it('keeps a code changed again while its note was being made', async () => {
    const store = recordingStore();
    const unnoted = new UnnotedChanges();
    unnoted.changed(['A', 'B']);
    const release = store.hold();
    const logging = unnoted.log(store.documents, 1);
    unnoted.changed(['A']); // committed by the index after the note took its codes
    release();
    await logging;
    await unnoted.log(store.documents, 2);
    expect(store.loggedCodes()).toEqual([['A', 'B'], ['A']]);
  });

  it('raises the buckets apart from the log: a failed log leaves the buckets to raise, and back', async () => {
    const store = recordingStore();
    const unnoted = new UnnotedChanges();
    unnoted.changed(['A', 'B']);
    store.failOnce();
    await expect(unnoted.log(store.documents, 1)).rejects.toThrow();
    await unnoted.raise(store.documents, 1);
    await unnoted.raise(store.documents, 2); // raised already: nothing
    await unnoted.log(store.documents, 2);
    expect(store.raisedBuckets()).toEqual([
      [...new Set([aidChangeBucket('A'), aidChangeBucket('B')])].sort(),
    ]);
    expect(store.loggedCodes()).toEqual([['A', 'B']]);
  });
});
