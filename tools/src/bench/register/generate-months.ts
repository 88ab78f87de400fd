/**
 * The rehearsal's register months generated in a process of their own: the first sync is measured
 * in the bench's process (its peak RSS is a figure of the issue), and a register of 25 million
 * aids generated there left ~150 MB of the generator's heap and buffers resident before the sync
 * began, counted as the sync's. Run as a script, it reads its request as JSON from the argument and
 * writes what it generated as JSON to stdout.
 */
import path from 'node:path';
import { generateArchive } from '../../generator/generate';
import { ROOT } from '../../scale-out/processes';
import { runNodeScript } from './node-script';

export interface MonthsRequest {
  /** Where the zips and the truth files go (the mirror's directory). */
  dir: string;
  months: { month: string; aids: number }[];
  /** Aids of the whole register: the company pool is drawn from it, as in the real register. */
  totalAids: number;
  partSize: number;
  withDefects: string[];
  /** 0 for the first publication; a month republished with changed content is 1. */
  revision: number;
  seed: number;
}

export interface GeneratedMonth {
  month: string;
  /** Its register files (the month and its extra parts), by name. */
  files: string[];
  /** Ground truth (JSON lines) of the month's aids. */
  truthFile: string;
}

const SCRIPT = path.join(ROOT, 'tools/dist/bench/register/generate-months.js');

export async function generateMonths(request: MonthsRequest): Promise<GeneratedMonth[]> {
  const generated: GeneratedMonth[] = [];
  for (const { month, aids } of request.months) {
    const result = await generateArchive({
      outDir: request.dir,
      months: [month],
      aids,
      seed: request.seed,
      zip: true,
      defects: request.withDefects.includes(month),
      partSize: request.partSize,
      revision: request.revision,
      // one pool for the whole register: companies come back month after month, year after year
      beneficiaries: Math.max(20, Math.ceil(request.totalAids / 8)),
      truthFile: path.join(request.dir, `truth-${month}-r${request.revision}.jsonl`),
    });
    generated.push({ month, files: result.files.map((f) => f.name), truthFile: result.truthFile! });
  }
  return generated;
}

/** generateMonths in a child process (the built script: `npm test` and `npm run bench` build first). */
export async function generateMonthsInChild(request: MonthsRequest): Promise<GeneratedMonth[]> {
  const { output } = runNodeScript([SCRIPT, JSON.stringify(request)], { what: "the register's generation" });
  return JSON.parse((await output).stdout) as GeneratedMonth[];
}

if (require.main === module) {
  generateMonths(JSON.parse(process.argv[2]!) as MonthsRequest).then(
    (generated) => process.stdout.write(JSON.stringify(generated)),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
