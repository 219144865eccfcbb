// Sums the per-package vitest JSON reports into one closing line: "Tests: N passed, N failed".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
const rows = [];
for (const root of ['packages', 'apps']) {
  if (!existsSync(root)) continue;
  for (const name of readdirSync(root)) {
    const file = join(root, name, 'test-results.json');
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    rows.push(`${root}/${name}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
  }
}
console.log(rows.join('\n'));
// The conformance kit's report per consumer (cases, passes, expected failures), written by its test run.
const conformance = join('packages', 'conformance', 'conformance-report', 'SUMMARY.md');
if (existsSync(conformance)) console.log(`\n${readFileSync(conformance, 'utf8')}`);
if (rows.length === 0) {
  console.error('no test reports found');
  process.exit(1);
}
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
