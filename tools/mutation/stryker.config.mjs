// Mutation testing (`npm run test:mutation`, not in `npm test`: hours on two cores). Stryker changes
// the code that decides money and access one small edit at a time and runs the tests that cover the
// edit: a mutant no test notices ("survived") is a behaviour nothing checks. The summary
// (tools/src/mutation/summary.ts) prints the score per module, the survivors, and fails when domain/
// is under 85 % or a deciding module keeps a survivor not listed in accepted-equivalents.json.
import { readFileSync } from 'node:fs';

// What is mutated, in modules.json so that the summary (tools/src/mutation/main.ts) knows every
// module that must have a report. domain/ leaves out its tests, its test helpers, its index and the
// document-index table (collection and field names, no rule: what it promises, an index for each
// field the features find by, is checked by the MongoDB adapter's test, not by anything in domain/).
// The deciding modules outside domain/ (the quota and the bulk charge's rules are
// domain/src/quotas.ts and bulk-searches.ts): sessions and permission checks, the paid-work limit,
// the bulk charge, leases, the Kafka batcher.
const { domain: DOMAIN, deciding: DECIDING_MODULES } = JSON.parse(
  readFileSync(new URL('./modules.json', import.meta.url), 'utf8'),
);

// MUTATION_SCOPE=domain mutates domain/ only and runs its tests only (npm run test:mutation:domain);
// MUTATION_SCOPE=deciding mutates the deciding modules outside domain/ only (npm run
// test:mutation:deciding). Each scope keeps its own report and incremental file, and the summary
// reads every report there is, so the two halves can be run on different days.
// MUTATION_ONLY=leases,paid-work narrows a scope to the files whose path holds one of the words (the
// deciding modules take hours together on two cores: one at a time fits in an idle hour), with its
// own report, which the summary merges with the others.
const scope = process.env.MUTATION_SCOPE ?? 'all';
const ALL = { domain: DOMAIN, deciding: DECIDING_MODULES, all: [...DOMAIN, ...DECIDING_MODULES] }[scope];
if (!ALL) throw new Error(`MUTATION_SCOPE must be domain, deciding or all, not ${scope}`);
const only = (process.env.MUTATION_ONLY ?? '').split(',').filter(Boolean);
const MUTATE =
  only.length === 0 ? ALL : ALL.filter((glob) => glob.startsWith('!') || only.some((w) => glob.includes(w)));
if (!MUTATE.some((glob) => !glob.startsWith('!')))
  throw new Error(`MUTATION_ONLY=${only.join(',')} names none of the ${scope} files`);
const suffix = (scope === 'all' ? '' : `-${scope}`) + (only.length === 0 ? '' : `-${only.join('_')}`);
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  jest: { configFile: 'tools/mutation/jest.config.js', enableFindRelatedTests: false },
  coverageAnalysis: 'perTest',
  // A mutant of a module-level constant runs every test (2 % of the mutants, three quarters of the
  // time on two cores); the tests that read the constant still kill the mutants of the code using it.
  ignoreStatic: true,
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  mutate: MUTATE,
  ignorePatterns: ['frontend', 'docs', 'test-output', '.bench', 'data', 'data-demo', '.stryker-tmp'],
  reporters: ['clear-text', 'progress', 'json'],
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  jsonReporter: { fileName: `test-output/mutation/mutation${suffix}.json` },
  incremental: true,
  incrementalFile: `test-output/mutation/incremental${suffix}.json`,
  tempDirName: '.stryker-tmp',
  concurrency: 2,
  timeoutMS: 20_000,
  thresholds: { high: 90, low: 85, break: null },
};
