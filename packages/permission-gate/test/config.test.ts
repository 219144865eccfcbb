import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createPermissionGate,
  PermissionGateError,
  parsePermissionConfig,
  validatePermissionConfig,
} from '../src/index.js';

function issuesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(PermissionGateError);
    return (e as PermissionGateError).issues.map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error('expected a PermissionGateError');
}

const YAML = `
mode: accept_edits
policy:
  sets: [files, shell]
  capabilities:
    net: deny
  overrides:
    Summarise: allow
rules:
  allow:
    - Bash(git status*)
    - Edit(src/**)
  deny:
    - Read(**/.env)
toolMeta:
  Summarise: read
  Deploy: { capability: exec, set: ops }
askTimeoutMs: 30000
`;

describe('parsePermissionConfig', () => {
  it('loads YAML and the gate built from it behaves as written', () => {
    const config = parsePermissionConfig(YAML);
    expect(config.mode).toBe('accept_edits');
    const gate = createPermissionGate(config);
    expect(gate.evaluate('Edit', { file_path: 'lib/x' }).decision).toBe('allow'); // accept_edits
    expect(gate.evaluate('WebFetch', { url: 'x' }).source).toEqual({ kind: 'set', set: 'web' });
    expect(gate.evaluate('Read', { file_path: 'a/.env' }).decision).toBe('deny');
    expect(gate.evaluate('Summarise', {}).source).toEqual({ kind: 'override', tool: 'Summarise' });
    expect(gate.evaluate('Deploy', {}).source).toEqual({ kind: 'set', set: 'ops' });
  });

  it('loads the same settings from JSON', () => {
    const json = JSON.stringify({
      rules: { deny: ['Bash(rm *)'] },
      policy: { capabilities: { exec: 'ask' } },
    });
    expect(parsePermissionConfig(json)).toEqual(JSON.parse(json));
    expect(parsePermissionConfig(json, { format: 'yaml' })).toEqual(JSON.parse(json)); // YAML is a superset
  });

  it('treats an empty document as empty settings', () => {
    expect(parsePermissionConfig('')).toEqual({});
    expect(parsePermissionConfig('# only a comment\n')).toEqual({});
  });

  it('names every offending path', () => {
    const text = JSON.stringify({
      mode: 'yolo',
      policy: {
        capabilities: { Foo: 'allow', exec: 'rwx' },
        overrides: { Bash: 'maybe' },
        sets: 'files',
        extra: 1,
      },
      rules: { deny: ['Bash', 'Read', 'Bash(('], allow: 'Bash', nope: [] },
      toolMeta: { Summarise: 'rwx', Other: { capability: 'read', set: 7 } },
      undeclaredCapability: 'all',
      askTimeoutMs: -1,
      modee: 'plan',
    });
    expect(issuesOf(() => parsePermissionConfig(text))).toEqual([
      'modee: unknown key',
      'mode: unknown mode "yolo" (expected default, plan, accept_edits, bypass, dont_ask)',
      'policy.extra: unknown key (expected sets, capabilities or overrides)',
      'policy.sets: expected an array of set names, got "files"',
      'policy.capabilities.Foo: unknown capability "Foo" (expected read, write, exec or net)',
      'policy.capabilities.exec: invalid decision "rwx" (expected allow, ask or deny)',
      'policy.overrides.Bash: invalid decision "maybe" (expected allow, ask or deny)',
      'rules.nope: unknown key (expected allow, ask or deny)',
      'rules.deny[2]: unparsable rule "Bash((" (expected Tool or Tool(pattern))',
      'rules.allow: expected an array of rule strings, got "Bash"',
      'toolMeta.Summarise: unknown capability "rwx"',
      'toolMeta.Other: set must be a non-empty string, got 7',
      'undeclaredCapability: unknown capability "all"',
      'askTimeoutMs: expected a positive number of milliseconds, got -1',
    ]);
  });

  it('puts the path first in the error message', () => {
    expect(() => parsePermissionConfig('rules:\n  deny: ["Read", "Bash(("]\n')).toThrow(
      /^rules\.deny\[1\]: unparsable rule "Bash\(\(" \(expected Tool or Tool\(pattern\)\)$/,
    );
  });

  it('quotes odd keys and escapes control characters in paths and values', () => {
    const text = JSON.stringify({ policy: { overrides: { 'a.b\u001b[31m': 'x' } } });
    expect(issuesOf(() => parsePermissionConfig(text))).toEqual([
      'policy.overrides["a.b\\u001b[31m"]: invalid decision "x" (expected allow, ask or deny)',
    ]);
  });

  it.each([
    ['invalid JSON', '{"mode": ', 'json', /^\(root\): invalid JSON: /],
    ['invalid YAML', 'mode: [unclosed', 'yaml', /^\(root\): invalid YAML: /],
    ['duplicate YAML keys', 'mode: plan\nmode: bypass\n', 'yaml', /^\(root\): invalid YAML: .*unique/i],
    ['a top-level array', '[1, 2]', 'yaml', /^\(root\): expected an object, got an array$/],
    ['a scalar', '42', 'yaml', /^\(root\): expected an object, got 42$/],
  ] as const)('rejects %s with a root error', (_label, text, format, message) => {
    expect(() => parsePermissionConfig(text, { format })).toThrow(message);
  });

  it('refuses a YAML alias bomb instead of expanding it', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    ].join('\n');
    expect(() => parsePermissionConfig(bomb)).toThrow(PermissionGateError);
  });

  it('survives deeply nested and huge payloads with a clear error', () => {
    const deep = `{"policy": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(() => parsePermissionConfig(deep)).toThrow(PermissionGateError);
    const huge = JSON.stringify({
      rules: { allow: Array.from({ length: 5000 }, (_, i) => `Bash(cmd${i} *)`) },
    });
    const gate = createPermissionGate(parsePermissionConfig(huge));
    expect(gate.evaluate('Bash', { command: 'cmd4999 x' }).decision).toBe('allow');
  });

  it('does not let __proto__ keys pollute prototypes', () => {
    const config = parsePermissionConfig('{"policy": {"overrides": {"__proto__": "allow"}}}');
    const gate = createPermissionGate(config);
    expect(gate.evaluate('__proto__', {}).decision).toBe('allow');
    expect(gate.evaluate('Bash', {}).decision).toBe('ask');
    expect(({} as Record<string, unknown>).allow).toBeUndefined();
  });

  it('never throws anything but PermissionGateError on arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.constantFrom<'json' | 'yaml'>('json', 'yaml'),
        (text, format) => {
          try {
            parsePermissionConfig(text, { format });
          } catch (e) {
            expect(e).toBeInstanceOf(PermissionGateError);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never throws anything but PermissionGateError on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        try {
          validatePermissionConfig(value);
        } catch (e) {
          expect(e).toBeInstanceOf(PermissionGateError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('createPermissionGate validates typed options at runtime too', () => {
  it('reports every invalid option with its path', () => {
    expect(
      issuesOf(() =>
        createPermissionGate({
          mode: 'auto' as never,
          policy: { capabilities: { rwx: 'allow' } as never },
          ask: 'yes' as never,
          askTimeoutMs: Number.NaN,
          cwd: 'relative/dir',
          toolMeta: 5 as never,
        }),
      ),
    ).toEqual([
      'mode: unknown mode "auto"',
      'policy.capabilities.rwx: unknown capability "rwx" (expected read, write, exec or net)',
      'toolMeta: expected a record or a registry, got 5',
      'ask: expected a function or null, got "yes"',
      'askTimeoutMs: expected a positive number of milliseconds, got NaN',
      'cwd: expected an absolute path, got "relative/dir"',
    ]);
  });
});
