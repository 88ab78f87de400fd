/**
 * `npm run bench [suite…]`: runs the registered suites (all, or those named), prints one table and
 * writes every figure to .bench/results.json. Nothing is asserted: the figures are for people.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchRow } from './bench-suite';
import { benchSuites } from './suites';

const repoRoot = path.resolve(__dirname, '../../..');

interface SuiteResult {
  suite: string;
  description: string;
  durationMs: number;
  rows: BenchRow[];
  error?: string;
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
          row.baseline ? `${(row.value / row.baseline).toFixed(2)}×` : '',
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
  return [render(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...lines.map(render)].join('\n');
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !benchSuites.some((s) => s.name === name));
  if (unknown.length > 0) {
    console.error(
      `Unknown suite(s): ${unknown.join(', ')}. Known: ${benchSuites.map((s) => s.name).join(', ')}`,
    );
    process.exitCode = 2;
    return;
  }
  const suites = wanted.length > 0 ? benchSuites.filter((s) => wanted.includes(s.name)) : benchSuites;
  const results: SuiteResult[] = [];
  for (const suite of suites) {
    const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), `rna-bench-${suite.name}-`));
    const started = performance.now();
    const log = (message: string) => process.stderr.write(`[bench:${suite.name}] ${message}\n`);
    try {
      const rows = await suite.run({ tmpDir, log, env: process.env });
      results.push({
        suite: suite.name,
        description: suite.description,
        durationMs: performance.now() - started,
        rows,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`failed: ${message}`);
      results.push({
        suite: suite.name,
        description: suite.description,
        durationMs: performance.now() - started,
        rows: [],
        error: message,
      });
      process.exitCode = 1;
    } finally {
      fs.rmSync(tmpDir, { recursive: true, force: true });
    }
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
