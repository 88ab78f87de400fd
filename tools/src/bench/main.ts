/**
 * `npm run bench [suite…]`: runs the registered suites (all, or those named), prints one table and
 * writes every figure to .bench/results.json. Nothing is asserted: the figures are for people.
 */
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadLine, type BenchRow } from './bench-suite';
import { benchSuites, type BenchSuiteEntry } from './suites';

const repoRoot = path.resolve(__dirname, '../../..');

interface SuiteResult {
  suite: string;
  description: string;
  durationMs: number;
  rows: BenchRow[];
  error?: string;
  /** The machine's 1-minute load average when the suite started and ended: a busy machine slows every figure. */
  load?: { start: number; end: number };
}

function formatNumber(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '';
  if (!Number.isFinite(value)) return '∞';
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toPrecision(3);
}

export function formatTable(results: SuiteResult[]): string {
  const header = ['suite', 'metric', 'value', 'unit', 'baseline', 'ratio', 'note'];
  const lines = results.flatMap((r) =>
    r.error
      ? [[r.suite, 'FAILED', '', '', '', '', r.error]]
      : r.rows.map((row) => [
          r.suite,
          row.metric,
          formatNumber(row.value),
          row.unit,
          formatNumber(row.baseline),
          row.baseline && Number.isFinite(row.value / row.baseline)
            ? `${(row.value / row.baseline).toFixed(2)}×`
            : '',
          row.note ?? '',
        ]),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const numeric = new Set([2, 4, 5]);
  const render = (cells: string[]) =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join(' | ')
      .trimEnd();
  const table = [render(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...lines.map(render)];
  return [
    ...table,
    '',
    ...results.flatMap((r) => (r.load ? [loadLine(r.suite, r.load, os.cpus().length)] : [])),
  ].join('\n');
}

async function runSuite(entry: BenchSuiteEntry): Promise<SuiteResult> {
  const suite = await entry.load();
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), `rna-bench-${suite.name}-`));
  const started = performance.now();
  const log = (message: string) => process.stderr.write(`[bench:${suite.name}] ${message}\n`);
  try {
    const rows = await suite.run({ tmpDir, log, env: process.env });
    return {
      suite: suite.name,
      description: suite.description,
      durationMs: performance.now() - started,
      rows,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`failed: ${message}`);
    return {
      suite: suite.name,
      description: suite.description,
      durationMs: performance.now() - started,
      rows: [],
      error: message,
    };
  } finally {
    fs.rmSync(tmpDir, { recursive: true, force: true });
  }
}

/**
 * Each suite runs in a process of its own, so that memory figures (peak RSS) and warm caches of one
 * suite do not leak into the next one's measurements.
 */
function runSuiteInChild(suite: BenchSuiteEntry): Promise<SuiteResult> {
  const resultFile = path.join(os.tmpdir(), `rna-bench-result-${suite.name}-${process.pid}.json`);
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, ...(suite.nodeFlags ?? []), __filename, '--child-result', resultFile, suite.name],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
        // the suite's defaults, as the npm scripts give them: a variable set by the operator wins
        env: { ...suite.env, ...process.env },
      },
    );
    child.on('exit', (code) => {
      try {
        resolve(JSON.parse(fs.readFileSync(resultFile, 'utf8')) as SuiteResult);
      } catch {
        resolve({
          suite: suite.name,
          description: '', // the child died before it could tell (the parent does not load suites)
          durationMs: 0,
          rows: [],
          error: `exited with ${code}`,
        });
      } finally {
        fs.rmSync(resultFile, { force: true });
      }
    });
  });
}

async function main(): Promise<void> {
  // `npm run bench [suite…]`; a suite run in a child process of its own writes its result to --child-result
  const { values, positionals: wanted } = parseArgs({
    options: { 'child-result': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const childResultFile = values['child-result'];
  const unknown = wanted.filter((name) => !benchSuites.some((s) => s.name === name));
  if (unknown.length > 0) {
    console.error(
      `Unknown suite(s): ${unknown.join(', ')}. Known: ${benchSuites.map((s) => s.name).join(', ')}`,
    );
    process.exitCode = 2;
    return;
  }
  const suites = wanted.length > 0 ? benchSuites.filter((s) => wanted.includes(s.name)) : benchSuites;
  if (childResultFile && suites[0]) {
    fs.writeFileSync(childResultFile, JSON.stringify(await runSuite(suites[0])));
    process.exit(0);
  }
  const results: SuiteResult[] = [];
  for (const suite of suites) {
    // Always in a child, also when one suite is named: its Node flags (e.g. the API's) are then the
    // same whichever way the bench was started.
    const start = os.loadavg()[0]!;
    const result = await runSuiteInChild(suite);
    result.load = { start, end: os.loadavg()[0]! };
    if (result.error) process.exitCode = 1;
    results.push(result);
  }

  console.log(formatTable(results));
  const outDir = path.join(repoRoot, '.bench');
  fs.mkdirSync(outDir, { recursive: true });
  const report = {
    finishedAt: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    suites: results,
  };
  fs.writeFileSync(path.join(outDir, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(
    `\nResults written to ${path.relative(process.cwd(), path.join(outDir, 'results.json')) || '.bench/results.json'}`,
  );
}

if (require.main === module) void main();
