import { createPermissionGate } from '@codeagent/permission-gate';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/args.js';
import { permissionsCommand } from '../src/permissions.js';

describe('/permissions', () => {
  const view = {
    sources: [{ list: 'deny' as const, rule: 'Read(**/.env)', file: '/w/.codeagent/settings.json' }],
    ignored: [{ file: '/w/.codeagent/settings.json', entry: 'rules.allow[0] "Bash"' }],
    files: ['/w/.codeagent/settings.json'],
  };

  it('lists grants, rules with their file, ignored entries and protected paths; revokes one or all', async () => {
    const gate = createPermissionGate({ cwd: '/w', ask: () => ({ allow: true, scope: 'session' }) });
    await gate.check({ name: 'Bash', input: { command: 'npm test' } });
    await gate.check({ name: 'Edit', input: { file_path: 'a.ts' } });
    const lines = permissionsCommand(gate, view, '');
    expect(lines.slice(0, 7)).toEqual([
      'mode: default',
      'session grants (revoke with /permissions revoke <id>):',
      '  g1  Bash commands starting with `npm test`',
      '  g2  Edit on /w/a.ts (this path only)',
      'rules:',
      '  deny  Read(**/.env)  (/w/.codeagent/settings.json)',
      'ignored from untrusted project settings (trust the workspace with --trust to apply them):',
    ]);
    expect(lines.at(-1)).toMatch(/^protected \(writes always ask\): \*\*\/\.codeagent, /);
    expect(permissionsCommand(gate, view, 'revoke g1')).toEqual(['revoked grant g1']);
    expect(permissionsCommand(gate, view, 'revoke g1')).toEqual(['no grant "g1" (see /permissions)']);
    expect(permissionsCommand(gate, view, 'revoke all')).toEqual(['revoked 1 grant']);
    expect(gate.grants()).toEqual([]);
    expect(permissionsCommand(gate, view, 'revoke')).toEqual(['usage: /permissions revoke <grant id>|all']);
    expect(permissionsCommand(gate, view, 'show\u001b[2J')[0]).not.toContain('\u001b');
    expect(permissionsCommand(null, view, '')).toEqual(['no permission gate is installed']);
  });

  it('--trust and an explicit --mode are parsed', () => {
    expect(parseCliArgs(['--trust'], '/w')).toMatchObject({
      trust: true,
      modeExplicit: false,
      mode: 'default',
    });
    expect(parseCliArgs(['--mode', 'plan'], '/w')).toMatchObject({
      trust: false,
      modeExplicit: true,
      mode: 'plan',
    });
  });
});
