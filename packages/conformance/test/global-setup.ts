import { rmSync } from 'node:fs';
import { REPORT_DIR, writeSummary } from './report-file.js';

/** Starts each run with no stale report; at the end prints and saves the consumers' summary. */
export function setup(): void {
  rmSync(REPORT_DIR, { recursive: true, force: true });
}

/** Writes conformance-report/SUMMARY.md and prints it. */
export function teardown(): void {
  const text = writeSummary();
  if (text) process.stdout.write(`\n${text}\n(saved in ${REPORT_DIR}/SUMMARY.md)\n`);
}
