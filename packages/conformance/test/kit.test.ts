import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  adaptToolResult,
  normalizeToolOutput,
  toolResult,
  toolResultArtifact,
  toolResultValue,
} from '@codeagent/artifact-schema';
import { escapeHtml, sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACT_OPS,
  artifactSuite,
  formatReport,
  inProcess,
  jsonDifference,
  junitReport,
  parseBaseline,
  runSuite,
  startHost,
} from '../src/index.js';
import { recordReport } from './report-file.js';

const run = promisify(execFile);
const pkg = join(import.meta.dirname, '..');
const PY = `python3 ${join(pkg, 'hosts', 'python', 'codeagent_conformance_host.py')}`;
const TS = `${process.execPath} ${join(pkg, 'hosts', 'typescript', 'host.mjs')}`;
const BROKEN = `${process.execPath} ${join(import.meta.dirname, 'fixtures', 'broken-host.mjs')}`;
const tmp = mkdtempSync(join(tmpdir(), 'codeagent-conformance-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const artifactSchema = inProcess('@codeagent/artifact-schema (in process)', {
  toolResultArtifact,
  toolResultValue,
  toolResult,
  adaptToolResult,
  normalizeToolOutput,
  escapeHtml,
  sanitizeTerminalText,
});

describe('the artifact suite', () => {
  it('every vector has provenance and a known op; ids are unique', () => {
    expect(artifactSuite.length).toBeGreaterThanOrEqual(170);
    expect(new Set(artifactSuite.map((v) => v.id)).size).toBe(artifactSuite.length);
    for (const v of artifactSuite) {
      expect(v.rule, v.id).toMatch(/CONTRACTS|seed|ADR/);
      expect(ARTIFACT_OPS as readonly string[]).toContain(v.op);
      expect('expected' in v !== 'throws' in v, v.id).toBe(true);
    }
  });

  it('@codeagent/artifact-schema passes every vector in process', async () => {
    const report = await runSuite(artifactSchema);
    recordReport(report, 'in process');
    expect(report.ok, formatReport(report)).toBe(true);
    expect(report.counts.pass).toBe(artifactSuite.length);
  });
});

describe('NDJSON hosts over stdio', () => {
  it('the TypeScript reference host passes every vector across a process boundary', async () => {
    const host = await startHost(TS);
    const report = await runSuite(host);
    await host.close();
    recordReport(report, 'NDJSON (TypeScript host)');
    expect(report.ok, formatReport(report)).toBe(true);
    expect(report.counts.pass).toBe(artifactSuite.length);
  }, 60_000);

  it('the Python reference host (standard library only) passes every vector', async () => {
    const host = await startHost(PY);
    const report = await runSuite(host);
    await host.close();
    recordReport(report, 'NDJSON (Python host)');
    expect(report.ok, formatReport(report)).toBe(true);
    expect(report.implementation).toBe('python reference host');
    expect(report.counts.pass).toBe(artifactSuite.length);
  }, 60_000);

  it('a broken host is caught: each failure names the vector and the rule; a hang and garbage fail only their vector', async () => {
    const host = await startHost(BROKEN, { timeoutMs: 1500 });
    const report = await runSuite(host, {
      only: ['safety/html/', 'value/', 'accessor/bare', 'accessor/tool-result', 'adapt/legacy-upgrade'],
    });
    await host.close();
    expect(report.ok).toBe(false);
    const text = formatReport(report);
    expect(text).toMatch(/FAIL safety\/html\/script-tag {2}\[CONTRACTS §1 Trust boundary \(HTML\)/);
    expect(text).toMatch(
      /expected "&lt;script&gt;alert\(1\)&lt;\/script&gt;", got "<script>alert\(1\)<\/script>"/,
    );
    const byId = new Map(report.results.map((r) => [r.id, r]));
    expect(byId.get('accessor/bare-artifact')?.message).toMatch(/Timeout|no answer within/);
    expect(byId.get('adapt/legacy-upgrade')?.message).toMatch(/not JSON/);
    // After the hang the host was restarted and the next vectors still ran.
    expect(byId.get('accessor/tool-result')?.outcome).toBe('pass');
  }, 60_000);

  it('a command that is not a host is a clear error', async () => {
    await expect(startHost('echo not a hello line')).rejects.toThrow(/first line/);
    await expect(startHost('exit 3')).rejects.toThrow(/exited|closed/);
  });
});

describe('the expected-failures baseline', () => {
  it('expected failures pass the run; an expected failure that passes, or an unknown id, fails it', async () => {
    const host = await startHost(BROKEN, { timeoutMs: 1500 });
    const failing = (await runSuite(host, { only: ['safety/html/'] })).results.filter(
      (r) => r.outcome === 'fail',
    );
    const baseline = parseBaseline(
      `# the broken host renders raw HTML\n${failing.map((r) => r.id).join('\n')}\n`,
    );
    const accepted = await runSuite(host, { only: ['safety/html/'], baseline });
    expect(accepted.ok, formatReport(accepted)).toBe(true);
    expect(accepted.counts['expected-failure']).toBe(failing.length);
    const rotten = await runSuite(artifactSchema, { only: ['safety/html/'], baseline });
    expect(rotten.ok).toBe(false);
    expect(formatReport(rotten)).toMatch(/XPASS safety\/html\/script-tag/);
    const unknown = await runSuite(artifactSchema, {
      only: ['safety/html/'],
      baseline: new Set(['no/such-vector']),
    });
    expect(unknown.ok).toBe(false);
    expect(formatReport(unknown)).toMatch(/baseline names no\/such-vector/);
    await host.close();
  }, 60_000);
});

describe('reports', () => {
  it('JUnit XML carries every vector and replaces characters XML cannot hold', async () => {
    const host = await startHost(BROKEN, { timeoutMs: 1500 });
    const report = await runSuite(host, { only: ['safety/html/'] });
    await host.close();
    const xml = junitReport(report);
    expect(xml.match(/<testcase /g)?.length).toBe(report.results.length);
    expect(xml).toMatch(/<failure message="\$: expected &quot;&amp;lt;script/);
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });

  it('property: jsonDifference is null exactly for equal JSON (with artifact key order)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(jsonDifference(a, structuredClone(a))).toBeNull();
        if (JSON.stringify(a) !== JSON.stringify(b) && jsonDifference(a, b) === null) {
          // Only key order of non-artifact objects may differ between equal values.
          expect(JSON.stringify(a, Object.keys(a as object).sort())).toBeDefined();
        }
      }),
    );
    const art = toolResultArtifact({
      schema: 'codeagent.tool-artifact',
      version: 1,
      kind: 'text',
      status: 'success',
      icon: null,
      title: null,
      payload: {},
    });
    const reordered = {
      version: 1,
      schema: 'codeagent.tool-artifact',
      kind: 'text',
      status: 'success',
      icon: null,
      title: null,
      payload: {},
    };
    expect(jsonDifference(reordered, art)).toMatch(/contract order/);
  });
});

describe('the codeagent-conformance CLI', () => {
  const cli = join(pkg, 'dist', 'cli.js');
  beforeAll(async () => {
    // The CLI runs as a plain Node process from the built package.
    if (!existsSync(cli)) await run('pnpm', ['run', 'build'], { cwd: pkg });
  }, 120_000);
  const exec = async (args: string[]) => {
    try {
      const r = await run(process.execPath, [cli, ...args], { cwd: tmp });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it('exits 0 for a conforming host, with human, JSON and JUnit reports', async () => {
    const junit = join(tmp, 'report.xml');
    const human = await exec(['--host', PY]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/conformance: OK/);
    const json = await exec(['--host', PY, '--json', '--junit', junit]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      suite: 'artifact',
      implementation: 'python reference host',
    });
    expect(readFileSync(junit, 'utf8')).toMatch(/^<\?xml/);
  }, 60_000);

  it('exits 1 for a broken host, and 0 with a baseline of its failures', async () => {
    const broken = await exec(['--host', BROKEN, '--only', 'safety/html/']);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/FAIL safety\/html\/script-tag/);
    const ids = [...broken.stdout.matchAll(/^FAIL (\S+)/gm)].map((m) => m[1]);
    writeFileSync(join(tmp, 'baseline.txt'), `${ids.join('\n')}\n`);
    const accepted = await exec([
      '--host',
      BROKEN,
      '--only',
      'safety/html/',
      '--baseline',
      join(tmp, 'baseline.txt'),
    ]);
    expect(accepted.code, accepted.stdout).toBe(0);
  }, 60_000);

  it('runs the terminal renderer suite against a host', async () => {
    const r = await exec(['--host', TS, '--suite', 'terminal-renderer', '--timeout', '30000']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/suite terminal-renderer, typescript reference host/);
  }, 120_000);

  it('runs the render-intent, terminal-views, acp-mapping, grants and stop-reasons suites against a host; the Python host lists what it does not implement as not applicable', async () => {
    for (const suite of ['render-intent', 'terminal-views', 'acp-mapping', 'grants', 'stop-reasons']) {
      const r = await exec(['--host', TS, '--suite', suite, '--json']);
      expect(r.code, r.stdout).toBe(0);
      const report = JSON.parse(r.stdout) as { suite: string; counts: { pass: number }; results: unknown[] };
      expect(report.suite).toBe(suite);
      expect(report.counts.pass).toBe(report.results.length);
    }
    const stops = await exec(['--host', PY, '--suite', 'stop-reasons']);
    expect(stops.code, stops.stdout).toBe(0);
    expect(stops.stdout).toMatch(
      /suite stop-reasons, python reference host\n27 vectors: 27 passed, 0 failed/,
    );
    const py = await exec(['--host', PY, '--suite', 'grants']);
    expect(py.code, py.stdout).toBe(0);
    expect(py.stdout).toMatch(
      /39 vectors: 0 passed, 0 failed, 0 expected failures, 0 passing against the baseline, 39 not applicable/,
    );
  }, 60_000);

  it('usage errors are one line and a hint, exit 2', async () => {
    const missing = await exec([]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('codeagent-conformance: --host is required');
    const unknown = await exec(['--host', PY, '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).not.toMatch(/at parseArgs|node:internal/);
  });
});
