/**
 * What the aid index changed, noted by the aid-index projection for two readers with different needs:
 *
 * - the API's look-up cache needs only "may these codes have changed since I looked them up?": a
 *   revision per bucket of tax codes (`aid-change-buckets`, AID_CHANGE_BUCKETS documents), raised
 *   after the writes that touch a code of the bucket (by the projection, once per consumed batch).
 *   A false "changed" only costs a look-up;
 * - the variation-alert notifier needs exactly which codes changed, and when: an appended log
 *   (`aid-change-log`), one document per index write (cut in chunks), trimmed once every alert has
 *   been checked past it.
 *
 * Both are written in place of one document per touched code, which made every note rewrite a page
 * chosen at random among all the codes ever touched (at 25 million aids, 3 million codes): about
 * 8 KB written and five system calls a code, 71 % of the bytes a whole-register sync wrote.
 */
import { randomUUID } from 'node:crypto';
import type { DocumentStore } from '@rna/infra';

/** Appended notes of changed codes (id sorts by time: `<changedAt, 16 digits>-<uuid>`). */
export const AID_CHANGE_LOG_COLLECTION = 'aid-change-log';
/** One revision per bucket of tax codes (id = aidChangeBucket(code)). */
export const AID_CHANGE_BUCKETS_COLLECTION = 'aid-change-buckets';
/**
 * Buckets of tax codes. A write of 1,000 codes raises ~640 of 1,024 (a few pages, rewritten in
 * place); a sync of one month's few hundred changed codes leaves most cached look-ups valid.
 */
export const AID_CHANGE_BUCKETS = 1024;
/** Where notes were kept before, one document per code: nobody reads them now (trimAidChanges clears it). */
export const FORMER_AID_CHANGES_COLLECTION = 'aid-changes';
/** Codes per log document: a withdrawn month touches hundreds of thousands (MongoDB's 16 MB limit). */
export const CODES_PER_LOG_DOC = 5_000;

export interface AidChangeLogDoc {
  id: string;
  changedAt: number;
  /** The codes the write changed, separated by spaces (tax codes have none). */
  taxCodes: string;
}

export interface AidChangeBucketDoc {
  id: string;
  changedAt: number;
}

/** The bucket of a (normalised) tax code: FNV-1a of its characters. */
export function aidChangeBucket(taxCode: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < taxCode.length; i++) {
    hash ^= taxCode.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return bucketId((hash >>> 0) % AID_CHANGE_BUCKETS);
}

const bucketId = (bucket: number) => `b${bucket}`;

/**
 * Notes that the index changed the aids of `taxCodes` at `changedAt`: the log first (what alerts
 * read), then the buckets (what the cache reads). Called after the index write: a failure leaves the
 * batch to be applied again, notes included (a code noted twice changes nothing for either reader).
 */
export async function noteAidChanges(
  documents: DocumentStore,
  taxCodes: readonly string[],
  changedAt: number,
): Promise<void> {
  await logAidChanges(documents, taxCodes, changedAt);
  await raiseAidChangeBuckets(documents, taxCodes, changedAt);
}

/** The log's part of noteAidChanges: what the alerts read, exactly which codes and when. */
export async function logAidChanges(
  documents: DocumentStore,
  taxCodes: readonly string[],
  changedAt: number,
): Promise<void> {
  if (taxCodes.length === 0) return;
  const stamp = String(changedAt).padStart(16, '0');
  const notes: AidChangeLogDoc[] = [];
  for (let start = 0; start < taxCodes.length; start += CODES_PER_LOG_DOC)
    notes.push({
      id: `${stamp}-${randomUUID()}`,
      changedAt,
      taxCodes: taxCodes.slice(start, start + CODES_PER_LOG_DOC).join(' '),
    });
  await documents.collection<AidChangeLogDoc>(AID_CHANGE_LOG_COLLECTION).putMany(notes);
}

/**
 * The buckets' part of noteAidChanges: raises once the revision of each bucket of `taxCodes`. Writes
 * that follow one another may raise them together, after the last one: a bucket raised later than its
 * write only lets a cached look-up be used that much longer, never wrongly afterwards.
 */
export async function raiseAidChangeBuckets(
  documents: DocumentStore,
  taxCodes: Iterable<string>,
  changedAt: number,
): Promise<void> {
  const buckets = new Set<string>();
  for (const code of taxCodes) buckets.add(aidChangeBucket(code));
  if (buckets.size === 0) return;
  await documents
    .collection<AidChangeBucketDoc>(AID_CHANGE_BUCKETS_COLLECTION)
    .putMany([...buckets].map((id) => ({ id, changedAt })));
}

/**
 * Raises every bucket's revision: each look-up cached before is looked up again (the index was
 * replaced by a rebuild).
 */
export async function noteEveryAidChanged(documents: DocumentStore, changedAt: number): Promise<void> {
  await documents
    .collection<AidChangeBucketDoc>(AID_CHANGE_BUCKETS_COLLECTION)
    .putMany(Array.from({ length: AID_CHANGE_BUCKETS }, (_, i) => ({ id: bucketId(i), changedAt })));
}

/** Log documents read at a time, in id order (the stores' order without sortBy): ~100 KB of codes at most. */
const LOG_PAGE = 20;

/**
 * The latest change of each code noted at or before `upTo` (of the codes in `among`, when given):
 * code → changedAt. Reads the log a page at a time, oldest first.
 */
export async function latestAidChanges(
  documents: DocumentStore,
  options: { upTo: number; among?: ReadonlySet<string> },
): Promise<Map<string, number>> {
  const log = documents.collection<AidChangeLogDoc>(AID_CHANGE_LOG_COLLECTION);
  const latest = new Map<string, number>();
  // each page from the last one's end: offsets would step over every note before them again
  // (measured: 10,000 notes read in 17 s by offsets, four times the 5,000's 4.6 s)
  let afterId: string | undefined;
  for (;;) {
    const page = await log.find({}, { limit: LOG_PAGE, afterId });
    // ids begin with the instant: a later note never has an earlier one, so the last set wins
    for (const note of page) {
      if (note.changedAt > options.upTo) return latest;
      for (const code of note.taxCodes.split(' '))
        if (!options.among || options.among.has(code)) latest.set(code, note.changedAt);
    }
    if (page.length < LOG_PAGE) return latest;
    afterId = page[page.length - 1]!.id;
  }
}

/**
 * Deletes the log's notes of changes at or before `upTo` (nobody needs them any more), and the
 * former per-code notes of a data directory from before the log; how many notes of the log.
 */
export async function trimAidChanges(documents: DocumentStore, upTo: number): Promise<number> {
  await documents.collection(FORMER_AID_CHANGES_COLLECTION).clear();
  const log = documents.collection<AidChangeLogDoc>(AID_CHANGE_LOG_COLLECTION);
  let deleted = 0;
  for (;;) {
    const page = await log.find({}, { limit: LOG_PAGE * 5 });
    const old = page.filter((note) => note.changedAt <= upTo);
    for (const note of old) if (await log.delete(note.id)) deleted += 1;
    if (old.length < page.length || page.length < LOG_PAGE * 5) return deleted;
  }
}
