/**
 * Several register files imported at once (parserThreads > 1) against the same files imported one
 * after another: the same index, the same events per file, each file's aids in the same order and
 * its marker after them; a malformed file fails alone; a stop ends every import under way.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { AidRecord, SyncEvent } from '@rna/domain';
import { messageJson, type MessageToPublish } from '@rna/infra';
import type { DownloadResult } from '@rna/infra/register';
import { ARCHIVE_FILES_COLLECTION, type ArchiveFileDoc } from '@rna/read-models';
import { requestSync } from '@rna/api';
import { generateArchive, type TruthRecord } from '../generator/generate';
import {
  admin,
  ALL_FILES,
  clock,
  controlEvents,
  disposeHarness,
  expectIndexMatches,
  readTruth,
  runEvents,
  startHarness,
  type Harness,
  type HarnessOptions,
} from './sync-harness';

const THREADS = 3;
/** Small: the smallest file (about 20 aids) gives a few batches before its last concession. */
const BATCH = 5;
const started: Harness[] = [];

async function harnessWith(options: HarnessOptions): Promise<Harness> {
  const h = await startHarness(options);
  started.push(h);
  return h;
}

afterEach(async () => {
  for (const h of started.splice(0)) await disposeHarness(h);
});

/** What the log received, in order: each aid (its file and id) or a file's marker. */
type Published = { file: string; aid: string } | { file: string; marker: true };

/** Records every aid message and marker published from now on, in the order the log took them. */
function recordPublished(h: Harness): Published[] {
  const published: Published[] = [];
  const publish = h.messageLog.publish.bind(h.messageLog);
  h.messageLog.publish = async (topic, messages: MessageToPublish[]) => {
    await publish(topic, messages);
    for (const message of messages) {
      const value = JSON.parse(messageJson(message)) as
        { type: 'AidRecorded'; aid: AidRecord } | { type: 'SourceFileImported'; sourceFile: string };
      if (value.type === 'AidRecorded')
        published.push({ file: value.aid.sourceFile, aid: value.aid.idComponenteAiuto });
      else if (value.type === 'SourceFileImported') published.push({ file: value.sourceFile, marker: true });
    }
  };
  return published;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes the first `count` imports overlap for sure: each of their files is served but its last
 * concession, then held until one of its aids reached the log and until every one of them had an
 * aid published (or failed). Imported one after another, the first of them would wait for ever. (The batch
 * size must be below a file's aids but its last concession's, or its first batch never comes.)
 */
function overlapImports(h: Harness, count: number, published: Published[]): void {
  const download = h.register.download.bind(h.register);
  const gated: string[] = [];
  const hasAid = (file: string) => published.some((p) => p.file === file && 'aid' in p);
  const ended = new Set<string>();
  const passed = (file: string) => hasAid(file) || ended.has(file);
  h.register.download = async (file, options): Promise<DownloadResult> => {
    const result = await download(file, options);
    if (result.status !== 'ok' || gated.length >= count) return result;
    gated.push(file.name);
    const bytes = Buffer.concat((await result.xml.toArray()) as Buffer[]);
    const end = '</AIUTO>';
    const last = bytes.lastIndexOf(end);
    const held = bytes.lastIndexOf(end, last - 1) + end.length;
    if (held < end.length) throw new Error(`${file.name} has fewer than two concessions`);
    async function* served(): AsyncGenerator<Buffer> {
      // in pieces as a transfer comes, so that a file failing half-way has batches before it
      for (let at = 0; at < held; at += 16_384) yield bytes.subarray(at, Math.min(at + 16_384, held));
      // Blanks between two concessions change nothing in the file, and each one makes the import
      // look at what its parser posted: the batches parsed so far get published meanwhile.
      try {
        while (!hasAid(file.name) || gated.length < count || !gated.every(passed)) {
          await sleep(2);
          yield Buffer.from(' ');
        }
        yield bytes.subarray(held);
      } finally {
        ended.add(file.name); // read whole, or dropped by an import that failed
      }
    }
    return { ...result, xml: Readable.from(served()) };
  };
}

/** Each file's aids in publish order; and checks that every marker comes after all of its file's aids. */
function aidsPerFile(published: Published[]): Map<string, string[]> {
  const perFile = new Map<string, string[]>();
  const marked = new Set<string>();
  for (const entry of published) {
    if ('marker' in entry) {
      marked.add(entry.file);
      continue;
    }
    expect({ aidAfterItsMarker: marked.has(entry.file), file: entry.file }).toEqual({
      aidAfterItsMarker: false,
      file: entry.file,
    });
    perFile.set(entry.file, [...(perFile.get(entry.file) ?? []), entry.aid]);
  }
  return perFile;
}

/** Whether some file's aids and marker were published with another file's in between. */
function filesInterleaved(published: Published[]): boolean {
  const finished = new Set<string>();
  for (let i = 1; i < published.length; i++) {
    const previous = published[i - 1]!.file;
    if (published[i]!.file === previous) continue;
    if (finished.has(published[i]!.file)) return true;
    finished.add(previous);
  }
  return false;
}

/**
 * A run's events per file without what differs from one run to another (times, ids, the files'
 * dates). RegisterFileParsing is left out for failed files: whether a file failing mid-way was
 * downloaded whole before its first batch is a matter of timing, in either mode.
 */
function eventsPerFile(events: SyncEvent[], failed: readonly string[] = []): Record<string, unknown[]> {
  const perFile: Record<string, unknown[]> = {};
  for (const event of events) {
    const data = event.data as Record<string, unknown>;
    if (typeof data.name !== 'string') continue;
    if (event.type === 'RegisterFileParsing' && failed.includes(data.name)) continue;
    const {
      at: _at,
      runId: _runId,
      importId: _importId,
      etag: _etag,
      lastModified: _lastModified,
      archive,
      ...kept
    } = data;
    // each harness zips its files at another moment: the kept zips differ by their timestamps
    const archived = archive ? { archivedAs: (archive as { format: string }).format } : {};
    (perFile[data.name] ??= []).push({ type: event.type, ...kept, ...archived });
  }
  return perFile;
}

/** Every indexed aid of these tax codes, by id, without the import id (new for every import). */
async function indexContent(h: Harness, truth: TruthRecord[]): Promise<Omit<AidRecord, 'importId'>[]> {
  const taxCodes = [...new Set(truth.map((aid) => aid.codiceFiscaleBeneficiario))];
  const found = await h.aidIndex.search({ taxCodes });
  return found
    .map(({ importId: _importId, ...aid }) => aid)
    .sort((a, b) => a.idComponenteAiuto.localeCompare(b.idComponenteAiuto));
}

async function sync(h: Harness): Promise<string> {
  return h.sync('LAST_YEAR');
}

describe('parallel import of register files', () => {
  it('gives the same index, the same events per file and the same order per file as importing one by one', async () => {
    const sequential = await harnessWith({ parserThreads: 1, batchSize: BATCH });
    const parallel = await harnessWith({ parserThreads: THREADS, batchSize: BATCH });
    const truth = await readTruth(await sequential.generate());
    await parallel.generate();
    const sequentialPublished = recordPublished(sequential);
    const parallelPublished = recordPublished(parallel);
    overlapImports(parallel, THREADS, parallelPublished);

    const sequentialRun = await sync(sequential);
    const parallelRun = await sync(parallel);

    expect(filesInterleaved(parallelPublished)).toBe(true);
    expect(filesInterleaved(sequentialPublished)).toBe(false);
    await expectIndexMatches(parallel.aidIndex, truth);
    expect(await indexContent(parallel, truth)).toEqual(await indexContent(sequential, truth));
    expect(aidsPerFile(parallelPublished)).toEqual(aidsPerFile(sequentialPublished));
    expect(eventsPerFile(await runEvents(parallel, parallelRun))).toEqual(
      eventsPerFile(await runEvents(sequential, sequentialRun)),
    );
    for (const [name, events] of Object.entries(eventsPerFile(await runEvents(parallel, parallelRun))))
      expect({ name, events: events.map((e) => (e as { type: string }).type) }).toEqual({
        name,
        events: [
          'RegisterFileQueued',
          'RegisterFileDownloading',
          'RegisterFileParsing',
          'RegisterFileSucceeded',
        ],
      });
    const completed = (await controlEvents(parallel)).find((e) => e.type === 'SyncCompleted');
    expect(completed?.data).toMatchObject({ succeeded: ALL_FILES.length, failed: 0, records: truth.length });
  });

  it('fails a file malformed half-way on its own: the files imported beside it are whole', async () => {
    // 2024_03 breaks after a good part of its aids were published, while the others are under way.
    const brokenDir = await mkdtemp(path.join(os.tmpdir(), 'broken-file-'));
    try {
      await generateArchive({ outDir: brokenDir, months: ['2024_03'], aids: 200, seed: 7 });
      const brokenTruth = await readTruth(path.join(brokenDir, 'ground-truth.jsonl'));
      const xml = await readFile(path.join(brokenDir, 'OpenData_Aiuti_2024_03.xml'), 'utf8');
      const cut = xml.indexOf('</AIUTO>', Math.floor(xml.length * 0.6));
      const broken = `${xml.slice(0, cut)}</AIUT>${xml.slice(cut + '</AIUTO>'.length)}`;

      const runs = [];
      for (const parserThreads of [1, THREADS]) {
        const h = await harnessWith({ parserThreads, batchSize: BATCH });
        const truth = await readTruth(await h.generate());
        await writeFile(path.join(h.dir, 'OpenData_Aiuti_2024_03.xml'), broken);
        const published = recordPublished(h);
        if (parserThreads > 1) overlapImports(h, THREADS, published);
        const runId = await sync(h);
        runs.push({ h, runId, truth, published });
      }
      const [sequential, parallel] = runs as [(typeof runs)[0], (typeof runs)[0]];

      expect(filesInterleaved(parallel.published)).toBe(true);
      expect(filesInterleaved(sequential.published)).toBe(false);
      const files = parallel.h.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION);
      const failed = await files.get('2024_03');
      expect(failed?.status).toBe('ERROR');
      expect(failed?.error).toMatch(/^XML non valido alla riga \d+/);
      for (const name of ALL_FILES)
        expect({ name, status: (await files.get(name))?.status }).toEqual({ name, status: 'SUCCESS' });
      // the broken file got some way before failing: its aids were published, its marker never
      const brokenAids = parallel.published.filter((p) => p.file === '2024_03');
      expect(brokenAids.length).toBeGreaterThan(0);
      expect(brokenAids.some((p) => 'marker' in p)).toBe(false);

      // The good files' aids are exactly the ground truth, as after importing one by one.
      const good = (aids: { sourceFile: string }[]) => aids.filter((aid) => aid.sourceFile !== '2024_03');
      expect(good(await indexContent(parallel.h, parallel.truth))).toEqual(
        good(await indexContent(sequential.h, sequential.truth)),
      );
      expect(good(await indexContent(parallel.h, [...parallel.truth, ...brokenTruth]))).toHaveLength(
        parallel.truth.length,
      );
      // What the broken file left in the index is its own aids, unchanged.
      const brokenById = new Map(brokenTruth.map((aid) => [aid.idComponenteAiuto, aid]));
      for (const aid of (await indexContent(parallel.h, brokenTruth)).filter(
        (a) => a.sourceFile === '2024_03',
      ))
        expect(aid).toEqual(brokenById.get(aid.idComponenteAiuto));

      const failedFiles = ['2024_03'];
      expect(eventsPerFile(await runEvents(parallel.h, parallel.runId), failedFiles)).toEqual(
        eventsPerFile(await runEvents(sequential.h, sequential.runId), failedFiles),
      );
      const completed = (await controlEvents(parallel.h)).find((e) => e.type === 'SyncCompleted');
      expect(completed?.data).toMatchObject({ succeeded: ALL_FILES.length, failed: 1 });
    } finally {
      await rm(brokenDir, { recursive: true, force: true });
    }
  });

  it('retries the downloads cut mid-transfer while other files are imported', async () => {
    const h = await harnessWith({ parserThreads: THREADS, preferZip: false });
    const truth = await readTruth(await h.generate({ zip: false }));
    h.mirror.setFaults({ resetAfterBytes: 3000, resetTimes: 2 });
    const runId = await sync(h);

    await expectIndexMatches(h.aidIndex, truth);
    const events = await runEvents(h, runId);
    expect(events.filter((e) => e.type === 'RegisterFileSucceeded')).toHaveLength(ALL_FILES.length);
    expect(events.filter((e) => e.type === 'RegisterFileFailed')).toHaveLength(0);
    expect(h.mirror.stats().downloads).toBe(ALL_FILES.length + 2); // two transfers were cut
  });

  it('stops every import under way, publishes nothing after the stop, and a new worker finishes the run', async () => {
    const h = await harnessWith({ parserThreads: THREADS, batchSize: BATCH });
    const truth = await readTruth(await h.generate());
    const published = recordPublished(h);
    overlapImports(h, THREADS, published);
    const first = h.worker;
    // Stop once several files are half imported.
    const publish = h.messageLog.publish.bind(h.messageLog);
    let stopping: Promise<void> | null = null;
    let publishedAfterStop = 0;
    h.messageLog.publish = async (topic, messages) => {
      if (stopping) publishedAfterStop += messages.length;
      await publish(topic, messages);
      if (!stopping && filesInterleaved(published)) stopping = first.stop();
    };
    const { runId } = await requestSync(h.eventStore, { scope: 'LAST_YEAR', by: admin, now: clock.now() });
    await first.runPending();
    expect(stopping).not.toBeNull();
    await stopping;
    // The imports under way had a publish waiting at most: none goes out once the worker stopped.
    const afterStop = published.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(published.length).toBe(afterStop);
    expect(publishedAfterStop).toBeLessThanOrEqual(THREADS * BATCH);
    expect((await controlEvents(h)).some((e) => e.type === 'SyncCompleted')).toBe(false);
    const succeededBefore = (await runEvents(h, runId)).flatMap((e) =>
      e.type === 'RegisterFileSucceeded' ? [e.data.name] : [],
    );
    expect(succeededBefore.length).toBeLessThan(ALL_FILES.length);

    h.messageLog.publish = publish;
    h.worker = h.newWorker();
    await h.worker.runPending();
    await h.settle();

    await expectIndexMatches(h.aidIndex, truth);
    const events = await runEvents(h, runId);
    const succeeded = events.flatMap((e) => (e.type === 'RegisterFileSucceeded' ? [e.data.name] : []));
    expect(succeeded.sort()).toEqual(ALL_FILES); // each file once: the finished ones were not imported again
    expect((await controlEvents(h)).filter((e) => e.type === 'SyncCompleted')).toHaveLength(1);
  });
});
