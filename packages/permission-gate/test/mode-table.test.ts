import { describe, expect, it } from 'vitest';
import {
  CAPABILITIES,
  type Capability,
  createPermissionGate,
  type Decision,
  MODE_TABLE,
  PERMISSION_MODES,
  type PermissionMode,
} from '../src/index.js';

// The contract's table, written out independently of MODE_TABLE so a typo in either is caught.
const EXPECTED: Record<PermissionMode, Record<Capability, Decision>> = {
  default: { read: 'allow', write: 'ask', exec: 'ask', net: 'ask' },
  plan: { read: 'allow', write: 'deny', exec: 'deny', net: 'deny' },
  accept_edits: { read: 'allow', write: 'allow', exec: 'ask', net: 'ask' },
  bypass: { read: 'allow', write: 'allow', exec: 'allow', net: 'allow' },
  dont_ask: { read: 'allow', write: 'deny', exec: 'deny', net: 'deny' },
};

const toolFor: Record<Capability, string> = { read: 'Read', write: 'Edit', exec: 'Bash', net: 'WebFetch' };

const cells = PERMISSION_MODES.flatMap((mode) =>
  CAPABILITIES.map((capability) => ({ mode, capability, expected: EXPECTED[mode][capability] })),
);

describe('mode x capability table', () => {
  it('covers all 20 cells', () => {
    expect(cells).toHaveLength(20);
    expect(MODE_TABLE).toEqual(EXPECTED);
  });

  it.each(cells)('$mode / $capability -> $expected (built-in tool)', ({ mode, capability, expected }) => {
    const gate = createPermissionGate({ mode });
    const e = gate.evaluate(toolFor[capability], {});
    expect(e).toEqual({ decision: expected, capability, source: { kind: 'mode', mode } });
  });

  it.each(cells)(
    '$mode / $capability -> $expected (host tool declared on the gate)',
    ({ mode, capability, expected }) => {
      const gate = createPermissionGate({ mode, toolMeta: { HostTool: capability } });
      expect(gate.evaluate('HostTool', { x: 1 }).decision).toBe(expected);
    },
  );
});

type Layer = 'override' | 'capability' | 'rule' | 'mode';
interface PrecedenceCase {
  readonly name: string;
  readonly override?: Decision;
  readonly capability?: Decision;
  readonly rule?: Decision;
  readonly mode: PermissionMode;
  readonly decision: Decision;
  readonly source: Layer;
}

// Bash is exec; each row sets some layers and names the one that must decide.
const PRECEDENCE: readonly PrecedenceCase[] = [
  {
    name: 'override beats everything',
    override: 'allow',
    capability: 'deny',
    rule: 'deny',
    mode: 'plan',
    decision: 'allow',
    source: 'override',
  },
  {
    name: 'override deny beats bypass',
    override: 'deny',
    mode: 'bypass',
    decision: 'deny',
    source: 'override',
  },
  {
    name: 'override ask beats capability allow',
    override: 'ask',
    capability: 'allow',
    mode: 'default',
    decision: 'ask',
    source: 'override',
  },
  {
    name: 'capability beats rules',
    capability: 'allow',
    rule: 'deny',
    mode: 'default',
    decision: 'allow',
    source: 'capability',
  },
  {
    name: 'capability deny beats allow rule',
    capability: 'deny',
    rule: 'allow',
    mode: 'bypass',
    decision: 'deny',
    source: 'capability',
  },
  { name: 'capability beats mode', capability: 'ask', mode: 'bypass', decision: 'ask', source: 'capability' },
  {
    name: 'allow rule lifts the mode ask',
    rule: 'allow',
    mode: 'default',
    decision: 'allow',
    source: 'rule',
  },
  { name: 'ask rule tightens bypass', rule: 'ask', mode: 'bypass', decision: 'ask', source: 'rule' },
  { name: 'deny rule tightens bypass', rule: 'deny', mode: 'bypass', decision: 'deny', source: 'rule' },
  {
    name: 'allow rule cannot lift the mode deny (plan)',
    rule: 'allow',
    mode: 'plan',
    decision: 'deny',
    source: 'mode',
  },
  {
    name: 'ask rule cannot lift the mode deny (dont_ask)',
    rule: 'ask',
    mode: 'dont_ask',
    decision: 'deny',
    source: 'mode',
  },
  { name: 'mode decides when nothing else does', mode: 'accept_edits', decision: 'ask', source: 'mode' },
];

describe('precedence: override > capability > rules > mode', () => {
  it.each(PRECEDENCE)('$name', (c) => {
    const gate = createPermissionGate({
      mode: c.mode,
      policy: {
        ...(c.override ? { overrides: { Bash: c.override } } : {}),
        ...(c.capability ? { capabilities: { exec: c.capability } } : {}),
      },
      rules: c.rule ? { [c.rule]: ['Bash(git *)'] } : {},
    });
    const e = gate.evaluate('Bash', { command: 'git status' });
    expect(e.decision).toBe(c.decision);
    expect(e.source.kind).toBe(c.source);
    if (c.source === 'rule') expect(e.rule).toBe('Bash(git *)');
    else expect(e.rule).toBeUndefined();
  });
});

describe('deny beats ask beats allow among matching rules', () => {
  const lists = ['allow', 'ask', 'deny'] as const;
  const combos = [1, 2, 3, 4, 5, 6, 7].map((mask) => lists.filter((_, i) => mask & (1 << i)));
  it.each(combos.map((present) => ({ present, label: present.join('+') })))('$label', ({ present }) => {
    const rules = Object.fromEntries(present.map((l) => [l, ['Bash(npm *)']]));
    const gate = createPermissionGate({ mode: 'default', rules });
    const expected = present.includes('deny') ? 'deny' : present.includes('ask') ? 'ask' : 'allow';
    const e = gate.evaluate('Bash', { command: 'npm test' });
    expect(e.decision).toBe(expected);
    expect(e.source).toEqual({ kind: 'rule', rule: 'Bash(npm *)', list: expected });
  });

  it('a whole-tool deny beats a specific allow', () => {
    const gate = createPermissionGate({ rules: { allow: ['Bash(ls)'], deny: ['Bash'] } });
    expect(gate.evaluate('Bash', { command: 'ls' }).rule).toBe('Bash');
  });
});

describe('sets', () => {
  it('denies a tool whose set is not enabled, before overrides', () => {
    const gate = createPermissionGate({
      mode: 'bypass',
      policy: { sets: ['files'], overrides: { Bash: 'allow' } },
    });
    expect(gate.evaluate('Bash', { command: 'ls' })).toEqual({
      decision: 'deny',
      capability: 'exec',
      source: { kind: 'set', set: 'shell' },
    });
    expect(gate.evaluate('Read', { file_path: 'a' }).decision).toBe('allow');
  });

  it('leaves tools without a set to the other layers', () => {
    const gate = createPermissionGate({ mode: 'bypass', policy: { sets: [] }, toolMeta: { Mine: 'exec' } });
    expect(gate.evaluate('Mine', {}).decision).toBe('allow');
    expect(gate.evaluate('Read', {}).source).toEqual({ kind: 'set', set: 'files' });
  });

  it('uses a host-declared set', () => {
    const gate = createPermissionGate({
      policy: { sets: ['files'] },
      toolMeta: { Q: { capability: 'read', set: 'db' } },
    });
    expect(gate.evaluate('Q', {}).decision).toBe('deny');
  });
});

describe('undeclared tools', () => {
  it('are exec by default (ask in default mode, deny in plan)', () => {
    expect(createPermissionGate().evaluate('Mystery', {})).toEqual({
      decision: 'ask',
      capability: 'exec',
      source: { kind: 'mode', mode: 'default' },
    });
    expect(createPermissionGate({ mode: 'plan' }).evaluate('Mystery', {}).decision).toBe('deny');
  });

  it("undeclaredCapability: 'read' restores the seed's v1 behaviour", () => {
    const gate = createPermissionGate({ undeclaredCapability: 'read', mode: 'plan' });
    expect(gate.evaluate('Mystery', {})).toMatchObject({ decision: 'allow', capability: 'read' });
    // Declared and built-in tools are unaffected.
    expect(gate.evaluate('Bash', { command: 'ls' }).decision).toBe('deny');
  });
});
