/** `npm run test:mutation`'s last step: the summary of Stryker's report; exit 1 when the bar is not met. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatSummary, summarise, type AcceptedEquivalent, type MutationReport } from './summary';

const root = path.resolve(__dirname, '../../..');
const report = JSON.parse(
  readFileSync(path.join(root, 'test-output/mutation/mutation.json'), 'utf8'),
) as MutationReport;
const accepted = JSON.parse(
  readFileSync(path.join(root, 'tools/mutation/accepted-equivalents.json'), 'utf8'),
) as AcceptedEquivalent[];
const summary = summarise(report, accepted);
console.log(formatSummary(summary));
process.exitCode = summary.failures.length === 0 ? 0 : 1;
