import { join } from 'node:path';
import { createPermissionGate } from '@codeagent/permission-gate';
import { loadInstalledShellGrammar } from '@codeagent/permission-gate/node';
import { parseSlashCommand, substituteArguments } from '@codeagent/skills';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatReport, inProcess, permissionSuite, runSuite, skillsSuite, startHost } from '../src/index.js';
import { recordReport } from './report-file.js';

beforeAll(() => loadInstalledShellGrammar());

const gate = inProcess('@codeagent/permission-gate (in process)', {
  evaluatePermission: (options: never, name: string, input: unknown) => {
    const { decision, capability, source } = createPermissionGate(options).evaluate(name, input);
    return { decision, capability, source };
  },
});
const skills = inProcess('@codeagent/skills (in process)', { substituteArguments, parseSlashCommand });

describe('the permission and skills suites', () => {
  it('carry the packages’ own vectors with provenance', () => {
    expect(permissionSuite.length).toBeGreaterThanOrEqual(25);
    expect(skillsSuite.length).toBeGreaterThanOrEqual(30);
    for (const v of [...permissionSuite, ...skillsSuite]) expect(v.rule.length, v.id).toBeGreaterThan(0);
  });

  it('@codeagent/permission-gate and @codeagent/skills pass in process', async () => {
    for (const [impl, suite] of [
      [gate, 'permission'],
      [skills, 'skills'],
    ] as const) {
      const report = await runSuite(impl, { suite });
      recordReport(report, 'in process');
      expect(report.ok, formatReport(report)).toBe(true);
      expect(report.counts['not-applicable']).toBe(0);
    }
  });

  it('pass through the TypeScript reference host too; a gate that allows everything is caught', async () => {
    const host = await startHost(
      `${process.execPath} ${join(import.meta.dirname, '..', 'hosts', 'typescript', 'host.mjs')}`,
    );
    for (const suite of ['permission', 'skills'] as const) {
      const report = await runSuite(host, { suite });
      recordReport(report, 'NDJSON (TypeScript host)');
      expect(report.ok, formatReport(report)).toBe(true);
    }
    await host.close();
    const lax = inProcess('allows everything', {
      evaluatePermission: () => ({
        decision: 'allow',
        capability: 'exec',
        source: { kind: 'mode', mode: 'bypass' },
      }),
    });
    const report = await runSuite(lax, { suite: 'permission' });
    expect(report.ok).toBe(false);
    expect(formatReport(report)).toMatch(/FAIL permission\/mode-plan-exec {2}\[CONTRACTS.md §4 mode table\]/);
  }, 60_000);
});
