import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createPermissionGate,
  describeUnknownRuleTool,
  findUnknownRuleTools,
  isModeAtLeastAsStrict,
  mergePermissionConfigs,
  narrowPermissionConfig,
  PERMISSION_MODES,
  type PermissionConfig,
  parsePermissionConfig,
} from '../src/index.js';

describe('narrowPermissionConfig (project settings of an untrusted workspace)', () => {
  it('drops allow rules, so a cloned repository cannot allow Bash (the reported bug)', () => {
    const project = parsePermissionConfig('{"rules":{"allow":["Bash"],"deny":["Read(**/.env)"]}}');
    const { config, dropped } = narrowPermissionConfig(project, 'default');
    expect(config).toEqual({ rules: { deny: ['Read(**/.env)'] } });
    expect(dropped).toEqual(['rules.allow[0] "Bash"']);
    expect(createPermissionGate(config).evaluate('Bash', { command: 'x' }).decision).toBe('ask');
  });

  it('keeps deny/ask entries and stricter modes; drops widening policy, modes and tool metadata', () => {
    const { config, dropped } = narrowPermissionConfig(
      {
        mode: 'bypass',
        rules: { ask: ['Bash(git push*)'] },
        policy: {
          sets: ['files'],
          capabilities: { exec: 'deny', write: 'allow' },
          overrides: { Bash: 'ask', WebFetch: 'allow' },
        },
        toolMeta: { Deploy: 'read' },
        undeclaredCapability: 'read',
        askTimeoutMs: 1000,
      },
      'default',
    );
    expect(config).toEqual({
      rules: { ask: ['Bash(git push*)', 'Bash'] },
      policy: { sets: ['files'], capabilities: { exec: 'deny' } },
      askTimeoutMs: 1000,
    });
    expect(
      narrowPermissionConfig({ rules: { ask: ['Edit'] }, policy: { overrides: { Bash: 'ask' } } }, 'default'),
    ).toEqual({ config: { rules: { ask: ['Edit', 'Bash'] }, policy: {} }, dropped: [] });
    expect(narrowPermissionConfig({ policy: { capabilities: { exec: 'ask' } } }, 'plan').dropped).toEqual([
      'policy.capabilities.exec "ask" (a policy ask outranks a mode deny; write an ask rule instead)',
    ]);
    expect(dropped).toEqual([
      'mode "bypass" (less strict than default)',
      'policy.capabilities.write "allow"',
      'policy.overrides["WebFetch"] "allow"',
      'toolMeta["Deploy"]',
      'undeclaredCapability "read"',
    ]);
    expect(narrowPermissionConfig({ mode: 'plan' }, 'default').config).toEqual({ mode: 'plan' });
  });

  it('mode strictness is a partial order from the mode table', () => {
    expect(isModeAtLeastAsStrict('plan', 'default')).toBe(true);
    expect(isModeAtLeastAsStrict('dont_ask', 'accept_edits')).toBe(true);
    expect(isModeAtLeastAsStrict('accept_edits', 'default')).toBe(false);
    expect(isModeAtLeastAsStrict('default', 'accept_edits')).toBe(true);
    expect(isModeAtLeastAsStrict('default', 'plan')).toBe(false);
    for (const m of PERMISSION_MODES) expect(isModeAtLeastAsStrict(m, 'bypass')).toBe(true);
  });

  it('property: a narrowed config never allows a call the base config did not', () => {
    const rule = fc.constantFrom('Bash', 'Bash(rm *)', 'Edit(src/**)', 'Read(**/.env)', 'WebFetch');
    const decision = fc.constantFrom('allow', 'ask', 'deny') as fc.Arbitrary<'allow' | 'ask' | 'deny'>;
    const project: fc.Arbitrary<PermissionConfig> = fc.record(
      {
        mode: fc.constantFrom(...PERMISSION_MODES),
        rules: fc.record({ allow: fc.array(rule), ask: fc.array(rule), deny: fc.array(rule) }),
        policy: fc.record({
          capabilities: fc.record({ exec: decision, write: decision }, { requiredKeys: [] }),
          overrides: fc.dictionary(fc.constantFrom('Bash', 'Edit', 'Read'), decision),
        }),
      },
      { requiredKeys: [] },
    );
    const calls = [
      ['Bash', { command: 'rm -rf /' }],
      ['Edit', { file_path: 'src/a.ts' }],
      ['Read', { file_path: '.env' }],
      ['WebFetch', { url: 'https://x' }],
    ] as const;
    fc.assert(
      fc.property(fc.constantFrom(...PERMISSION_MODES), project, (baseMode, p) => {
        const base = createPermissionGate({ mode: baseMode });
        const narrowed = narrowPermissionConfig(p, baseMode).config;
        const g = createPermissionGate({ ...mergePermissionConfigs({ mode: baseMode }, narrowed) });
        const rank = { allow: 0, ask: 1, deny: 2 };
        for (const [name, input] of calls) {
          expect(rank[g.evaluate(name, input).decision]).toBeGreaterThanOrEqual(
            rank[base.evaluate(name, input).decision],
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('mergePermissionConfigs', () => {
  it('concatenates rules, keeps the strictest policy, intersects sets, later mode wins', () => {
    expect(
      mergePermissionConfigs(
        {
          mode: 'accept_edits',
          rules: { allow: ['Bash(npm test*)'] },
          policy: { sets: ['files', 'shell'], overrides: { Bash: 'allow' } },
        },
        {
          mode: 'plan',
          rules: { deny: ['Read(**/.env)'] },
          policy: { sets: ['files'], overrides: { Bash: 'ask' }, capabilities: { net: 'deny' } },
        },
        { policy: { overrides: { Bash: 'allow' } } },
      ),
    ).toEqual({
      mode: 'plan',
      rules: { allow: ['Bash(npm test*)'], ask: [], deny: ['Read(**/.env)'] },
      policy: { sets: ['files'], capabilities: { net: 'deny' }, overrides: { Bash: 'ask' } },
    });
    expect(mergePermissionConfigs()).toEqual({});
  });
});

describe('findUnknownRuleTools', () => {
  const known = ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash', 'use_skill'];

  it('reports `bash(rm *)` with a near-miss hint and the known names (the reported bug)', () => {
    const unknown = findUnknownRuleTools(
      { deny: ['bash(rm *)', 'Bash(rm *)'], allow: ['Grpe', 'Fetch'] },
      known,
    );
    expect(unknown).toEqual([
      { path: 'rules.deny[0]', rule: 'bash(rm *)', tool: 'bash', suggestion: 'Bash' },
      { path: 'rules.allow[0]', rule: 'Grpe', tool: 'Grpe', suggestion: 'Grep' },
      { path: 'rules.allow[1]', rule: 'Fetch', tool: 'Fetch' },
    ]);
    expect(describeUnknownRuleTool(unknown[0] as never, known)).toBe(
      'rules.deny[0]: rule "bash(rm *)" names unknown tool "bash" and matches nothing; did you mean "Bash"? (known tools: Bash, Edit, Glob, Grep, Read, Write, use_skill)',
    );
  });

  it('does not report MCP names, tool globs or unparsable rules', () => {
    expect(findUnknownRuleTools({ deny: ['mcp__gh__x', 'mcp__*', 'Ba*', 'Bash(('] }, known)).toEqual([]);
    expect(findUnknownRuleTools(undefined, known)).toEqual([]);
  });
});
