import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConformanceReport } from '../src/index.js';

/** Where each test run leaves one JSON report per consumer and suite, and SUMMARY.md (git-ignored). */
export const REPORT_DIR = join(import.meta.dirname, '..', 'conformance-report');

/** Saves a consumer's report (cases, passes, expected failures, not applicable) for the summary. */
export function recordReport(report: ConformanceReport, how: string): void {
  mkdirSync(REPORT_DIR, { recursive: true });
  const slug = `${report.suite}--${report.implementation}--${how}`.replace(/[^A-Za-z0-9._-]+/g, '_');
  const { counts } = report;
  writeFileSync(
    join(REPORT_DIR, `${slug}.json`),
    `${JSON.stringify({ suite: report.suite, implementation: report.implementation, how, cases: report.results.length, counts, ok: report.ok }, null, 2)}\n`,
  );
}

interface Saved {
  suite: string;
  implementation: string;
  how: string;
  cases: number;
  counts: ConformanceReport['counts'];
  ok: boolean;
}

/** Writes SUMMARY.md from every saved report: one row per consumer and suite. */
export function writeSummary(): string | undefined {
  let files: string[];
  try {
    files = readdirSync(REPORT_DIR).filter((f) => f.endsWith('.json'));
  } catch {
    return undefined;
  }
  const rows = files
    .map((f) => JSON.parse(readFileSync(join(REPORT_DIR, f), 'utf8')) as Saved)
    .sort((a, b) => a.suite.localeCompare(b.suite) || a.implementation.localeCompare(b.implementation));
  const lines = [
    "# Conformance reports of the project's consumers",
    '',
    '| suite | consumer | how | cases | pass | fail | expected failures | not applicable | ok |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.suite} | ${r.implementation} | ${r.how} | ${r.cases} | ${r.counts.pass} | ${r.counts.fail} | ${r.counts['expected-failure']} | ${r.counts['not-applicable']} | ${r.ok ? 'yes' : 'NO'} |`,
    ),
    '',
  ];
  const text = lines.join('\n');
  writeFileSync(join(REPORT_DIR, 'SUMMARY.md'), text);
  return text;
}
