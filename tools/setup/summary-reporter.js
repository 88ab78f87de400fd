// Prints the plain closing line CI reads ("N passed, N failed"), after jest's own summary, and names
// every skipped test with its file: a suite that cannot run here (an engine that is not installed)
// must be seen and counted, not pass silently.
const path = require('node:path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line =
      `${results.numPassedTests} passed, ${results.numFailedTests} failed` +
      (skipped ? `, ${skipped} skipped` : '');
    const named = [];
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo')
          named.push(`  - ${path.relative(process.cwd(), file.testFilePath)}: ${test.fullName}`);
      }
    }
    if (named.length > 0) process.stdout.write(`\nSkipped here (${named.length}):\n${named.join('\n')}\n`);
    process.stdout.write(`\nTests: ${line}\n`);
  }
}
module.exports = SummaryReporter;
