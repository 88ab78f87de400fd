import { unpackTexts, type AidIndex, type PackedTexts } from '@rna/infra';
import { eventually } from '@rna/infra/embedded';
import { openTemporaryStores } from '@rna/infra/embedded/testing';
import { RegisterArchive, registerXmlOf } from '@rna/infra/register';
import { sampleAid } from '@rna/infra/aid-index';
import { FILE_STATE_COLLECTION, type FileState } from '@rna/read-models';
import { replayArchivedFiles } from './archive-replay';

jest.setTimeout(60_000);

/** A target that records its writes and lets the test decide when each one ends. */
function controlledTarget(failAt?: number) {
  const writes: { aids: number; file: string; finish: () => void }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const target = {
    upsertEncoded: (messages: PackedTexts) =>
      new Promise((resolve, reject) => {
        const json = unpackTexts(messages);
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const index = writes.length;
        writes.push({
          aids: json.length,
          file: (JSON.parse(json[0]!) as { aid: { sourceFile: string } }).aid.sourceFile,
          finish: () => {
            inFlight -= 1;
            if (index === failAt) reject(new Error('index unavailable'));
            else resolve({ changed: json.length, changedTaxCodes: [] });
          },
        });
      }),
  } as unknown as AidIndex;
  return { target, writes, maxInFlight: () => maxInFlight };
}

async function keptFile(stores: ReturnType<typeof openTemporaryStores>, aids: number, file = '2025_06') {
  const receiver = new RegisterArchive(stores.blobs).receive('xml');
  receiver.sink.end(
    registerXmlOf(
      Array.from({ length: aids }, (_, i) =>
        sampleAid({
          idComponenteAiuto: String(Number(file.replace('_', '')) * 1000 + i + 1),
          sourceFile: file,
          importId: 'i0',
        }),
      ),
    ),
  );
  await stores.documents.collection<FileState>(FILE_STATE_COLLECTION).put({
    id: file,
    etag: null,
    lastModified: null,
    records: aids,
    importId: 'i0',
    succeededAt: '2025-07-01T10:00:00.000Z',
    archive: await receiver.done(),
  });
}

/** Ends each write once the parser has handed over the next batch (or after a moment, for the last). */
async function drive(control: ReturnType<typeof controlledTarget>, replay: Promise<unknown>) {
  let settled = false;
  void replay.finally(() => (settled = true)).catch(() => undefined);
  let finished = 0;
  while (!settled) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const pending = control.writes.slice(finished);
    if (pending.length === 0) continue;
    pending[0]!.finish();
    finished += 1;
  }
}

/** The kept files (30 aids each, or one file of `aids`) replayed into a controlled target, 10 aids a batch. */
async function replaying(
  stores: ReturnType<typeof openTemporaryStores>,
  files: { names?: string[]; aids?: number; failAt?: number } = {},
) {
  for (const name of files.names ?? ['2025_06']) await keptFile(stores, files.aids ?? 30, name);
  const control = controlledTarget(files.failAt);
  const replay = replayArchivedFiles({
    documents: stores.documents,
    archive: new RegisterArchive(stores.blobs),
    target: control.target,
    batchSize: 10,
  });
  return { control, replay };
}

describe('replay of the kept register files', () => {
  it('writes every aid once, in order, one write at a time while the parser reads on', async () => {
    const stores = openTemporaryStores('replay-pipeline-');
    try {
      const { control, replay } = await replaying(stores, { aids: 50 });
      await drive(control, replay);
      expect(await replay).toEqual({ files: 1, aids: 50, notKept: [] });
      expect(control.writes.map((w) => w.aids)).toEqual([10, 10, 10, 10, 10]);
      expect(control.maxInFlight()).toBe(1);
    } finally {
      await stores.close();
    }
  });

  it.each([
    [1, 'a batch in the middle'],
    [4, 'the last batch'],
  ])(
    'fails the replay with the index’s error when the write of %s (%s) fails, writing nothing after it',
    async (failAt) => {
      const stores = openTemporaryStores('replay-failure-');
      try {
        const { control, replay } = await replaying(stores, { aids: 50, failAt });
        await drive(control, replay);
        await expect(replay).rejects.toThrow('index unavailable');
        expect(control.writes).toHaveLength(failAt + 1);
      } finally {
        await stores.close();
      }
    },
  );

  it('parses two files at once, each written once, and counts every file and aid', async () => {
    const stores = openTemporaryStores('replay-parallel-');
    try {
      const { control, replay } = await replaying(stores, { names: ['2025_04', '2025_05', '2025_06'] });
      // every write is held until two files have one waiting: only files parsed at once get there
      // (the writes are let go whatever happens, so that a failure ends the replay too)
      const twoFilesWaiting = eventually(
        'writes of two files waiting together',
        () => new Set(control.writes.map((w) => w.file)).size >= 2,
      );
      await twoFilesWaiting.catch(() => undefined);
      await drive(control, replay);
      await twoFilesWaiting;
      expect(await replay).toEqual({ files: 3, aids: 90, notKept: [] });
      const byFile = new Map<string, number>();
      for (const write of control.writes) byFile.set(write.file, (byFile.get(write.file) ?? 0) + write.aids);
      expect(Object.fromEntries(byFile)).toEqual({ '2025_04': 30, '2025_05': 30, '2025_06': 30 });
    } finally {
      await stores.close();
    }
  });

  it('starts no further file once one failed, and fails with its error', async () => {
    const stores = openTemporaryStores('replay-parallel-failure-');
    try {
      const { control, replay } = await replaying(stores, {
        names: ['2025_04', '2025_05', '2025_06'],
        failAt: 0,
      });
      await drive(control, replay);
      await expect(replay).rejects.toThrow('index unavailable');
      expect(control.writes.map((write) => write.file)).not.toContain('2025_06');
    } finally {
      await stores.close();
    }
  });
});
