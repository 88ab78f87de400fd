/**
 * `npm run rebuild-projections` as an operator runs it: its own process on the data directory (the
 * portal stopped), with the memory settings the npm script sets. Its peak resident memory is the kernel's
 * high-water mark of that process (VmHWM, Linux), so nothing the bench itself holds is counted.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '../../scale-out/processes';
import { runNodeScript } from './node-script';

const SCRIPT = path.join(ROOT, 'services/standalone/dist/rebuild-projections.js');
/**
 * The memory settings of the npm script (package.json, "rebuild-projections"; a test checks that
 * the two agree): its default heap limit (NODE_HEAP_MB), a young generation of 4 MB semi-spaces
 * (the replay's garbage is short-lived batches of text) and two malloc arenas instead of one per
 * thread. At 1 million aids they took the process's peak from 450 to 395 MB, no slower.
 */
export const REBUILD_NODE_FLAGS = ['--max-old-space-size=512', '--max-semi-space-size=4'];
export const REBUILD_ENV = { MALLOC_ARENA_MAX: '2' };

export interface RebuildProcessRun {
  seconds: number;
  /** Peak resident memory of the rebuild's process; null where /proc is not there to read it. */
  peakRssMb: number | null;
  aids: number;
  files: number;
}

/** The rebuild's own summary line: "Ricostruite P proiezioni e l'indice di A aiuti da F file del registro". */
export function parseRebuildSummary(stdout: string): { aids: number; files: number } {
  const found = /l'indice di (\d+) aiuti da (\d+) file/.exec(stdout);
  if (!found) throw new Error(`the rebuild printed no summary:\n${stdout}`);
  return { aids: Number(found[1]), files: Number(found[2]) };
}

async function highWaterMarkKb(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const found = /^VmHWM:\s+(\d+) kB/m.exec(status);
    return found ? Number(found[1]) : null;
  } catch {
    return null; // not Linux, or the process has just ended
  }
}

export async function runRebuildProcess(
  dataDir: string,
  options: { parallelFiles?: number } = {},
): Promise<RebuildProcessRun> {
  const args = options.parallelFiles === undefined ? [] : [`--parallel-files=${options.parallelFiles}`];
  const started = performance.now();
  const { child, output } = runNodeScript([...REBUILD_NODE_FLAGS, SCRIPT, ...args], {
    env: { ...process.env, ...REBUILD_ENV, DATA_DIR: dataDir },
    what: 'rebuild-projections',
  });
  // the mark only grows: the last reading before the process ends is its peak (sampled often
  // enough that the final seconds, the search index's sort, are read too)
  let peakKb: number | null = null;
  const sampler = setInterval(() => {
    if (child.pid === undefined) return;
    void highWaterMarkKb(child.pid).then((kb) => {
      if (kb !== null) peakKb = Math.max(peakKb ?? 0, kb);
    });
  }, 50);
  const { stdout } = await output.finally(() => clearInterval(sampler));
  return {
    seconds: (performance.now() - started) / 1000,
    // in MB of 10^6 bytes, as the bench's other RSS figures (the kernel counts KiB)
    peakRssMb: peakKb === null ? null : Math.round((peakKb * 1024) / 1e6),
    ...parseRebuildSummary(stdout),
  };
}
