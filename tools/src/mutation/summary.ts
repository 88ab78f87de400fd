/**
 * Reads Stryker's JSON report (mutation-testing-report-schema) and says what a reviewer needs: the
 * score of domain/ as a whole and of each deciding module, every surviving mutant with where it is,
 * and whether the bar holds — domain/ at least 85 %, and no survivor in a deciding module that is not
 * in the list of accepted equivalents (a mutant that changes no behaviour, with the reason). A module
 * that should have been mutated and has no report fails the bar: no report is not a pass.
 */
import path from 'node:path';

export type MutantStatus =
  'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';

export interface ReportMutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: MutantStatus;
  location: { start: { line: number; column: number } };
}

export interface MutationReport {
  files: Record<string, { mutants: ReportMutant[] }>;
}

/** A surviving mutant that changes nothing a user or a caller could see, and why. */
export interface AcceptedEquivalent {
  file: string;
  line: number;
  /** where on the line, when the same mutator changes two things there and only one is equivalent */
  column?: number;
  mutator: string;
  reason: string;
}

export interface ModuleScore {
  module: string;
  detected: number;
  undetected: number;
  /** detected / (detected + undetected), in %; null when nothing could be mutated */
  score: number | null;
}

export interface Survivor {
  file: string;
  line: number;
  mutator: string;
  replacement: string;
  status: 'Survived' | 'NoCoverage';
  accepted: string | null;
}

export interface MutationSummary {
  modules: ModuleScore[];
  survivors: Survivor[];
  failures: string[];
}

export const DOMAIN_MINIMUM_SCORE = 85;
const DOMAIN = 'domain/';

/** domain/ counts as one module; every other mutated file is a deciding module of its own. */
export function moduleOf(file: string): string {
  return file.startsWith(DOMAIN) ? DOMAIN : file;
}

const DETECTED: readonly MutantStatus[] = ['Killed', 'Timeout'];
const UNDETECTED: readonly MutantStatus[] = ['Survived', 'NoCoverage'];

/**
 * The modules modules.json lists: domain/ (when one of its globs is there) and each deciding file,
 * without a line range (`file.ts:89-126` is `file.ts`).
 */
export function expectedModules(globs: { domain: readonly string[]; deciding: readonly string[] }): string[] {
  const deciding = globs.deciding.filter((g) => !g.startsWith('!')).map((g) => g.replace(/:\d+-\d+$/, ''));
  return [...(globs.domain.some((g) => !g.startsWith('!')) ? [DOMAIN] : []), ...deciding];
}

export function summarise(
  report: MutationReport,
  accepted: readonly AcceptedEquivalent[],
  expected: readonly string[] = [],
): MutationSummary {
  const counts = new Map<string, { detected: number; undetected: number }>();
  const survivors: Survivor[] = [];
  for (const [rawFile, { mutants }] of Object.entries(report.files)) {
    const file = rawFile.replace(/\\/g, '/');
    const module = moduleOf(file);
    const count = counts.get(module) ?? { detected: 0, undetected: 0 };
    counts.set(module, count);
    for (const mutant of mutants) {
      if (DETECTED.includes(mutant.status)) count.detected += 1;
      else if (UNDETECTED.includes(mutant.status)) {
        count.undetected += 1;
        const line = mutant.location.start.line;
        const match = accepted.find(
          (a) =>
            a.file === file &&
            a.line === line &&
            (a.column === undefined || a.column === mutant.location.start.column) &&
            a.mutator === mutant.mutatorName,
        );
        survivors.push({
          file,
          line,
          mutator: mutant.mutatorName,
          replacement: mutant.replacement ?? '',
          status: mutant.status as Survivor['status'],
          accepted: match?.reason ?? null,
        });
      }
    }
  }
  const modules = [...counts]
    .map(([module, { detected, undetected }]) => ({
      module,
      detected,
      undetected,
      score: detected + undetected === 0 ? null : (100 * detected) / (detected + undetected),
    }))
    .sort((a, b) => (a.module === DOMAIN ? -1 : b.module === DOMAIN ? 1 : a.module.localeCompare(b.module)));
  const failures: string[] = [];
  for (const module of expected.filter((m) => !counts.has(m)))
    failures.push(
      `${module} has no report: run ${
        module === DOMAIN
          ? 'npm run test:mutation:domain'
          : `MUTATION_SCOPE=deciding MUTATION_ONLY=${path.basename(module, '.ts')} npx stryker run tools/mutation/stryker.config.mjs`
      }`,
    );
  const domain = modules.find((m) => m.module === DOMAIN);
  if (domain?.score != null && domain.score < DOMAIN_MINIMUM_SCORE)
    failures.push(`domain/ scores ${domain.score.toFixed(1)} %, under ${DOMAIN_MINIMUM_SCORE} %`);
  const unexplained = survivors.filter((s) => moduleOf(s.file) !== DOMAIN && s.accepted === null);
  if (unexplained.length > 0)
    failures.push(
      `${unexplained.length} surviving mutants in deciding modules are neither killed nor accepted equivalents`,
    );
  return { modules, survivors, failures };
}

export function formatSummary(summary: MutationSummary): string {
  const lines = ['module | detected | undetected | score', '--- | --- | --- | ---'];
  for (const m of summary.modules)
    lines.push(
      `${m.module} | ${m.detected} | ${m.undetected} | ${m.score === null ? '–' : `${m.score.toFixed(1)} %`}`,
    );
  lines.push('', `surviving mutants (${summary.survivors.length}):`);
  for (const s of summary.survivors)
    lines.push(
      `  ${s.file}:${s.line} ${s.mutator} → ${JSON.stringify(s.replacement).slice(0, 80)} [${s.status}]` +
        (s.accepted ? ` accepted: ${s.accepted}` : ''),
    );
  lines.push('', summary.failures.length === 0 ? 'mutation bar: met' : `mutation bar NOT met:`);
  for (const failure of summary.failures) lines.push(`  - ${failure}`);
  return lines.join('\n');
}
