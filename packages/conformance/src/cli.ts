#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readBaseline } from './baseline.js';
import { startHost } from './host.js';
import { formatReport, junitReport } from './report.js';
import { runSuite } from './run.js';
import { runTerminalRendererSuite } from './terminal.js';
import { type SuiteName, suites } from './vectors.js';

const USAGE = `usage: codeagent-conformance --host "<command>" [--suite artifact|permission|skills|grants|render-intent|terminal-views|acp-mapping|stop-reasons|terminal-renderer] [--baseline <file>] [--json] [--junit <file>]
                             [--timeout <ms>] [--only <id-prefix>]... [--verbose]`;

function fail(message: string): never {
  process.stderr.write(`codeagent-conformance: ${message}\n${USAGE}\n`);
  process.exit(2);
}

let values: ReturnType<typeof parse>['values'];
function parse() {
  return parseArgs({
    options: {
      host: { type: 'string' },
      suite: { type: 'string', default: 'artifact' },
      baseline: { type: 'string' },
      json: { type: 'boolean', default: false },
      junit: { type: 'string' },
      timeout: { type: 'string', default: '5000' },
      only: { type: 'string', multiple: true },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    allowPositionals: false,
  });
}
try {
  values = parse().values;
} catch (error) {
  fail(error instanceof Error ? (error.message.split('\n')[0] ?? 'bad arguments') : 'bad arguments');
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (!values.host) fail('--host is required');
const SUITES = [...Object.keys(suites), 'terminal-renderer'];
if (!SUITES.includes(values.suite)) fail(`unknown suite ${values.suite} (known: ${SUITES.join(', ')})`);
const timeoutMs = Number(values.timeout);
if (!Number.isInteger(timeoutMs) || timeoutMs < 1) fail('--timeout must be a whole number of milliseconds');

let baseline: Set<string> | undefined;
try {
  baseline = values.baseline ? readBaseline(values.baseline) : undefined;
} catch (error) {
  fail(`cannot read the baseline: ${error instanceof Error ? error.message : String(error)}`);
}

let host: Awaited<ReturnType<typeof startHost>>;
try {
  host = await startHost(values.host, { timeoutMs });
} catch (error) {
  process.stderr.write(`codeagent-conformance: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
const selection = { ...(baseline ? { baseline } : {}), ...(values.only ? { only: values.only } : {}) };
const report =
  values.suite === 'terminal-renderer'
    ? await runTerminalRendererSuite(host.name, host, selection)
    : await runSuite(host, { suite: values.suite as SuiteName, ...selection });
await host.close();
if (values.junit) writeFileSync(values.junit, junitReport(report));
process.stdout.write(
  values.json
    ? `${JSON.stringify(report, null, 2)}\n`
    : `${formatReport(report, { verbose: values.verbose })}\n`,
);
process.exit(report.ok ? 0 : 1);
