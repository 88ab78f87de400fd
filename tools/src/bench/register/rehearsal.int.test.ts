import { ARCHIVE_FILES_COLLECTION, type ArchiveFileDoc } from '@rna/read-models/archive';
import {
  AID_CHANGE_BUCKETS,
  AID_CHANGE_BUCKETS_COLLECTION,
  AID_CHANGE_LOG_COLLECTION,
  FILE_STATE_COLLECTION,
  type FileState,
} from '@rna/read-models';
import { rebuildProjections } from '@rna/standalone';
import { openStores } from '@rna/infra/stores';
import { npmScripts, scriptEnv, scriptNodeFlags } from '../npm-scripts';
import { disposeHarness, expectIndexMatches } from '../../rna-mirror/sync-harness';
import type { TruthRecord } from '../../generator/generate';
import { REBUILD_ENV, REBUILD_NODE_FLAGS, runRebuildProcess } from './rebuild-process';
import { readAllTruth, registerMonths, registerPlan, rehearseRegister, type Rehearsal } from './rehearsal';

jest.setTimeout(300_000);

describe('the rebuild as the bench runs it', () => {
  it('has the memory settings of the npm script the operator runs, defaults read as the shell does', () => {
    const script = npmScripts()['rebuild-projections']!;
    const nodeFlags = scriptNodeFlags(script);
    for (const flag of REBUILD_NODE_FLAGS) expect(nodeFlags).toContain(flag);
    for (const [name, value] of Object.entries(REBUILD_ENV)) expect(scriptEnv(script)[name]).toBe(value);
    // and nothing the bench leaves out: every flag the script gives node
    expect(nodeFlags.sort()).toEqual([...REBUILD_NODE_FLAGS].sort());
  });
});

describe('register plan', () => {
  it('lays the register out as the real one: 120 months, heavy months in parts, a growing volume', () => {
    const plan = registerPlan(25_000_000);
    expect(registerMonths()).toHaveLength(120);
    expect(plan.months[0]!.month).toBe('2014_04');
    const total = plan.months.reduce((sum, m) => sum + m.aids, 0);
    expect(Math.abs(total - 25_000_000)).toBeLessThan(1_000);
    const withParts = plan.months.filter((m) => m.aids > plan.partSize);
    expect(withParts.length).toBeGreaterThanOrEqual(20);
    expect(withParts.length).toBeLessThanOrEqual(25);
    expect(plan.months[119]!.aids).toBeGreaterThan(plan.months[0]!.aids * 2);
  });
});

describe('whole-register rehearsal, scaled down (every file of ten years, a few thousand aids)', () => {
  let rehearsal: Rehearsal;
  let truth: TruthRecord[];
  beforeAll(async () => {
    rehearsal = await rehearseRegister(4_000);
    truth = await readAllTruth(rehearsal.truthFiles);
  });
  afterAll(async () => {
    if (rehearsal) await disposeHarness(rehearsal.harness);
  });

  it('imported every file and part of the ten years', async () => {
    const { harness, files, plan } = rehearsal;
    expect(files.length).toBeGreaterThan(140);
    expect(files.filter((name) => name.length > 7).length).toBeGreaterThanOrEqual(20);
    const archive = harness.documents.collection<ArchiveFileDoc>(ARCHIVE_FILES_COLLECTION);
    const notDone = [];
    for (const name of files) {
      if (name.startsWith(plan.leaving)) continue;
      const status = (await archive.get(name))?.status;
      if (status !== 'SUCCESS') notDone.push({ name, status });
    }
    expect(notDone).toEqual([]);
  });

  it('holds exactly the register as it now is: the republished month replaced, the month gone withdrawn', async () => {
    const { harness, plan } = rehearsal;
    await expectIndexMatches(harness.aidIndex, truth);
    const byFile = await harness.aidIndex.statsBySourceFile();
    expect(byFile.filter((f) => f.sourceFile.startsWith(plan.leaving))).toEqual([]);
    expect(byFile.some((f) => f.sourceFile.startsWith(plan.republished))).toBe(true);
    const states = await harness.documents.collection<FileState>(FILE_STATE_COLLECTION).find();
    expect(states.every((state) => state.archive !== undefined)).toBe(true);
  });

  it('keeps no note of the changed codes once the notifier has seen the syncs complete (none is watched)', async () => {
    const { harness } = rehearsal;
    expect(await harness.documents.collection(AID_CHANGE_LOG_COLLECTION).count()).toBe(0);
    // what the API's look-up cache reads stays: one revision per bucket of codes, no more
    const buckets = await harness.documents.collection(AID_CHANGE_BUCKETS_COLLECTION).count();
    expect(buckets).toBeGreaterThan(0);
    expect(buckets).toBeLessThanOrEqual(AID_CHANGE_BUCKETS);
  });

  it('rebuilds the same index from the kept register files alone', async () => {
    const { harness } = rehearsal;
    await harness.worker.stop();
    await harness.consumer.stop();
    await harness.projections.stop();
    const summary = await rebuildProjections(harness.stores);
    expect(summary.notKept).toEqual([]);
    await expectIndexMatches(harness.aidIndex, truth);
  });

  it('rebuilds it again as the operator runs the command, in its own process, one file at a time', async () => {
    const { harness } = rehearsal;
    await harness.stores.close();
    const run = await runRebuildProcess(harness.stores.dir, { parallelFiles: 1 });
    expect({ files: run.files, aids: run.aids }).toEqual({
      files: rehearsal.files.filter((name) => !name.startsWith(rehearsal.plan.leaving)).length,
      aids: truth.length,
    });
    // read by the kernel for that process (Linux): a node process with SQLite open holds tens of MB
    expect(run.peakRssMb).toBeGreaterThan(30);
    const reopened = openStores({ dataDir: harness.stores.dir });
    try {
      await expectIndexMatches(reopened.aidIndex, truth);
    } finally {
      await reopened.close();
    }
  });
});
