import { assertNever } from '@codeagent/artifact-schema/internal';
import type { ConformanceReport, Outcome, VectorResult } from './run.js';

const MARK: Record<Outcome, string> = {
  pass: 'ok  ',
  fail: 'FAIL',
  'expected-failure': 'xfail',
  'unexpected-pass': 'XPASS',
  'not-applicable': 'n/a ',
};

/** A human-readable report: one line per failure (vector id, rule, what differed), then the totals. */
export function formatReport(report: ConformanceReport, options: { verbose?: boolean } = {}): string {
  const lines = [`codeagent conformance: suite ${report.suite}, ${report.implementation}`];
  for (const r of report.results) {
    if (!options.verbose && (r.outcome === 'pass' || r.outcome === 'not-applicable')) continue;
    lines.push(`${MARK[r.outcome]} ${r.id}  [${r.rule}]${r.message ? `\n       ${r.message}` : ''}`);
  }
  for (const id of report.unknownBaselineIds)
    lines.push(`FAIL baseline names ${id}, which is no vector of this suite`);
  const c = report.counts;
  lines.push(
    `${report.results.length} vectors: ${c.pass} passed, ${c.fail} failed, ${c['expected-failure']} expected failures, ` +
      `${c['unexpected-pass']} passing against the baseline, ${c['not-applicable']} not applicable`,
  );
  lines.push(report.ok ? 'conformance: OK' : 'conformance: FAILED');
  return lines.join('\n');
}

function xml(text: string): string {
  // XML 1.0 cannot carry most control characters at all: they are replaced, not escaped.
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function testcase(r: VectorResult): string {
  const head = `    <testcase classname="${xml(r.op)}" name="${xml(r.id)}" time="${(r.ms / 1000).toFixed(4)}">`;
  const message = xml(`${r.message ?? ''} [${r.rule}]`);
  switch (r.outcome) {
    case 'pass':
      return `${head}</testcase>`;
    case 'fail':
    case 'unexpected-pass':
      return `${head}\n      <failure message="${message}" type="${r.outcome}"/>\n    </testcase>`;
    case 'expected-failure':
    case 'not-applicable':
      return `${head}\n      <skipped message="${xml(r.outcome)}: ${message}"/>\n    </testcase>`;
    default:
      return assertNever(r.outcome, 'outcome');
  }
}

/** The report as JUnit XML, for CI systems: failures and passing baseline entries fail, the rest pass or skip. */
export function junitReport(report: ConformanceReport): string {
  const failures = report.counts.fail + report.counts['unexpected-pass'] + report.unknownBaselineIds.length;
  const skipped = report.counts['expected-failure'] + report.counts['not-applicable'];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="codeagent-conformance" tests="${report.results.length}" failures="${failures}">`,
    `  <testsuite name="${xml(`${report.suite}: ${report.implementation}`)}" tests="${report.results.length}" failures="${failures}" skipped="${skipped}">`,
    ...report.results.map(testcase),
    ...report.unknownBaselineIds.map(
      (id) =>
        `    <testcase classname="baseline" name="${xml(id)}">\n      <failure message="the baseline names no such vector"/>\n    </testcase>`,
    ),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
