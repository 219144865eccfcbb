import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

// The kit as a third party gets it: packed tarballs installed with npm into an empty folder, no workspace around it,
// then run with npx against the Python reference host that ships inside the package.
const run = promisify(execFile);
const packages = join(import.meta.dirname, '..', '..');
const PACKED = [
  'artifact-schema',
  'render-intent',
  'terminal',
  'permission-gate',
  'skills',
  'providers',
  'conformance',
];
let dir: string | undefined;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('installs from its packed tarball into an empty folder and runs with npx', async () => {
  dir = await mkdtemp(join(tmpdir(), 'codeagent-conformance-pack-'));
  const tarballs = join(dir, 'tarballs');
  const project = join(dir, 'project');
  await mkdir(tarballs);
  await mkdir(project);
  for (const name of PACKED) {
    await run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: join(packages, name) });
  }
  const files = (await readdir(tarballs)).filter((f) => f.endsWith('.tgz')).map((f) => join(tarballs, f));
  expect(files).toHaveLength(PACKED.length);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'third-party-host', private: true }));
  await run('npm', ['install', '--no-audit', '--no-fund', ...files], {
    cwd: project,
    maxBuffer: 16 * 1024 * 1024,
  });
  const host = `python3 ${join(project, 'node_modules', '@codeagent', 'conformance', 'hosts', 'python', 'codeagent_conformance_host.py')}`;
  const { stdout } = await run('npx', ['--no-install', 'codeagent-conformance', '--host', host], {
    cwd: project,
  });
  expect(stdout).toMatch(/179 vectors: 179 passed, 0 failed/);
  expect(stdout).toMatch(/conformance: OK/);
  // The vector files of the other packages travel in their tarballs: the stop-reason and render-intent suites run.
  for (const [suite, line] of [
    ['stop-reasons', /27 vectors: 27 passed, 0 failed/],
    ['render-intent', /59 vectors: 59 passed, 0 failed/],
  ] as const) {
    const r = await run('npx', ['--no-install', 'codeagent-conformance', '--host', host, '--suite', suite], {
      cwd: project,
    });
    expect(r.stdout, suite).toMatch(line);
  }
  // The library API under node:test, from the installed tarball: a mapping of the third party's own, and its report.
  await writeFile(
    join(project, 'stop-reasons.test.mjs'),
    [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import { formatReport, runStopReasonSuite } from '@codeagent/conformance';",
      'const map = (f) => f.aborted ? "interrupted" : f.failed ? "error" : f.budgetExceeded ? "budget_exceeded"',
      '  : f.finishReason === "length" ? "truncated" : f.finishReason === "content-filter" ? "filtered"',
      '  : f.finishReason === "error" ? "error" : f.unresolvedToolCalls > 0 ? "incomplete_tool_use"',
      '  : f.finishReason === "tool-calls" && f.hitMaxTurns ? "max_turns" : "completed";',
      "test('my loop maps stop reasons as codeagent does', async () => {",
      "  const report = await runStopReasonSuite('my loop', map);",
      '  assert.ok(report.ok, formatReport(report));',
      '});',
      '',
    ].join('\n'),
  );
  const nodeTest = await run(process.execPath, ['--test', 'stop-reasons.test.mjs'], { cwd: project });
  expect(nodeTest.stdout).toMatch(/# pass 1/);
  expect(nodeTest.stdout).toMatch(/# fail 0/);
}, 240_000);
