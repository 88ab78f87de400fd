/** `npm run test:mutation`'s last step: the summary of Stryker's report; exit 1 when the bar is not met. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  expectedModules,
  formatSummary,
  summarise,
  type AcceptedEquivalent,
  type MutationReport,
} from './summary';

const root = path.resolve(__dirname, '../../..');
// every scope's report (mutation.json, mutation-domain.json, mutation-deciding-leases.json…), oldest first,
// so that a file's newest results win
const dir = path.join(root, 'test-output/mutation');
const reports = readdirSync(dir)
  .filter((name) => /^mutation(-[\w-]+)?\.json$/.test(name))
  .map((name) => path.join(dir, name))
  .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
  .map((file) => JSON.parse(readFileSync(file, 'utf8')) as MutationReport);
const report: MutationReport = { files: {} };
for (const one of reports) Object.assign(report.files, one.files);
const accepted = JSON.parse(
  readFileSync(path.join(root, 'tools/mutation/accepted-equivalents.json'), 'utf8'),
) as AcceptedEquivalent[];
// every module stryker.config.mjs mutates must have a report, or the bar is not met
const modules = JSON.parse(readFileSync(path.join(root, 'tools/mutation/modules.json'), 'utf8')) as {
  domain: string[];
  deciding: string[];
};
const summary = summarise(report, accepted, expectedModules(modules));
console.log(formatSummary(summary));
process.exitCode = summary.failures.length === 0 ? 0 : 1;
