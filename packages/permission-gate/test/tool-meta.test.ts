import { describe, expect, it } from 'vitest';
import {
  BUILTIN_TOOL_META,
  createPermissionGate,
  createToolMetaRegistry,
  PermissionGateError,
} from '../src/index.js';

describe('built-in tool metadata', () => {
  it('classifies the built-in tools as the contract says', () => {
    const caps = Object.fromEntries(Object.entries(BUILTIN_TOOL_META).map(([k, v]) => [k, v.capability]));
    expect(caps).toEqual({
      Read: 'read',
      Write: 'write',
      Edit: 'write',
      Glob: 'read',
      Grep: 'read',
      Bash: 'exec',
      job_output: 'read',
      job_kill: 'exec',
      TodoWrite: 'read',
      use_skill: 'read',
      WebFetch: 'net',
    });
    // The argument rule patterns match, for the tools whose primary argument is not in the default order.
    expect(BUILTIN_TOOL_META.job_kill.primaryArgument).toBe('job_id');
    expect(BUILTIN_TOOL_META.Read.primaryArgument).toBe('file_path');
    const gate = createPermissionGate({ rules: { allow: ['job_kill(job-1)'] } });
    expect(gate.evaluate('job_kill', { job_id: 'job-1' }).decision).toBe('allow');
    expect(gate.evaluate('job_kill', { job_id: 'job-2' }).decision).toBe('ask');
    expect(Object.isFrozen(BUILTIN_TOOL_META)).toBe(true);
    expect(Object.isFrozen(BUILTIN_TOOL_META.Bash)).toBe(true);
  });

  it.each([
    ['Bash', 'read'],
    ['Write', 'read'],
    ['job_kill', 'read'],
    ['Read', 'exec'],
  ] as const)('cannot reclassify %s as %s (throws builtin-meta-locked)', (name, capability) => {
    const gate = createPermissionGate();
    try {
      gate.registerToolMeta(name, capability);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PermissionGateError);
      expect((e as PermissionGateError).code).toBe('builtin-meta-locked');
      expect((e as PermissionGateError).message).toContain('use policy.overrides to tighten it');
    }
    expect(gate.toolMeta.get(name)).toBe(BUILTIN_TOOL_META[name]);
  });

  it('cannot be reclassified through the toolMeta option either', () => {
    expect(() => createPermissionGate({ toolMeta: { Bash: 'read' } })).toThrow(
      /built-in tool "Bash" is "exec"/,
    );
  });

  it('accepts re-declaring a built-in with its own capability (no-op)', () => {
    const gate = createPermissionGate({ toolMeta: { Bash: 'exec' } });
    expect(gate.toolMeta.get('Bash')).toBe(BUILTIN_TOOL_META.Bash);
  });
});

describe('per-gate registries', () => {
  it('registrations on one gate do not leak into another', () => {
    const a = createPermissionGate();
    const b = createPermissionGate();
    a.registerToolMeta('Summarise', 'read');
    expect(a.evaluate('Summarise', {}).decision).toBe('allow');
    expect(b.evaluate('Summarise', {}).decision).toBe('ask');
    expect(b.toolMeta.get('Summarise')).toBeUndefined();
  });

  it('a registry can be shared on purpose', () => {
    const shared = createToolMetaRegistry({ Summarise: 'read' });
    const a = createPermissionGate({ toolMeta: shared });
    const b = createPermissionGate({ toolMeta: shared });
    shared.register('Deploy', 'exec');
    expect(a.toolMeta).toBe(shared);
    expect(b.evaluate('Summarise', {}).decision).toBe('allow');
    expect(a.evaluate('Deploy', {}).capability).toBe('exec');
  });

  it('host tools may be reclassified by the host (last wins)', () => {
    const gate = createPermissionGate();
    gate.registerToolMeta('T', 'exec');
    gate.registerToolMeta('T', { capability: 'read', set: 'mine' });
    expect(gate.toolMeta.get('T')).toEqual({ capability: 'read', set: 'mine' });
    expect(gate.toolMeta.entries()).toEqual([['T', { capability: 'read', set: 'mine' }]]);
  });

  it.each([
    ['', 'read', /tool name must be a non-empty string/],
    ['T', 'rwx', /toolMeta\.T: unknown capability "rwx"/],
    ['T', { capability: 'read', primaryArgument: '' }, /primaryArgument must be a non-empty string/],
    ['T', null, /expected a capability or/],
  ] as const)('rejects %j / %j', (name, meta, message) => {
    expect(() => createPermissionGate().registerToolMeta(name, meta as never)).toThrow(message);
  });

  it('uses only own keys of a registry record ("constructor" is not a built-in)', () => {
    const gate = createPermissionGate();
    expect(gate.toolMeta.get('constructor')).toBeUndefined();
    expect(gate.toolMeta.isBuiltin('toString')).toBe(false);
    expect(gate.evaluate('constructor', {}).capability).toBe('exec');
  });
});
