/**
 * The ingestion bench gives no speed for a run that lost records: checked on a real shortfall (a
 * register month missing from the mirror, so the index really holds fewer aids than the files the
 * bench generated), counted by the bench's own sample and detection, not by a list the test writes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { incompleteSamples, ingestionRows, prepareFiles, runSample } from './ingestion';

jest.setTimeout(120_000);

let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'bench-ingestion-test-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

it('a complete sample passes, and a month the index never got makes the sample INCOMPLETE with no figure', async () => {
  const prepared = await prepareFiles(1_500, root);
  const complete = await runSample({
    kind: 'e2e',
    dir: prepared.dir,
    xmlBytes: prepared.xmlBytes,
    threads: 1,
  });
  expect(complete.records).toBe(prepared.components);
  expect(incompleteSamples([complete], prepared.components)).toEqual([]);

  // the register lists one month fewer than the bench generated
  await rm(prepared.files[prepared.files.length - 1]!);
  const short = await runSample({ kind: 'e2e', dir: prepared.dir, xmlBytes: prepared.xmlBytes, threads: 1 });
  expect(short.records).toBeGreaterThan(0);
  expect(short.records).toBeLessThan(prepared.components);
  const incomplete = incompleteSamples([complete, short], prepared.components);
  expect(incomplete).toEqual([`${short.label}: ${short.records} of ${prepared.components} records`]);

  const rows = ingestionRows({
    aids: 1_500,
    threads: 1,
    expectedRecords: prepared.components,
    zipMegabytes: 0,
    xmlMegabytes: 0,
    parseOnly: complete,
    endToEnd: short,
    endToEndAll: complete,
    parseOnlySamples: [complete],
    endToEndSamples: [short],
    endToEndAllSamples: [complete],
    ratio: 1,
    speedup: 1,
    twentyMillionSeconds: { one: 1, all: 1 },
    incomplete,
    targets: { ratio: false, speedup: false, rss: true },
  });
  for (const row of rows.slice(0, 3)) expect(row.value).toBeNaN();
  expect(rows[0]?.note).toContain(`INCOMPLETE: ${short.label}: ${short.records} of ${prepared.components}`);
});
