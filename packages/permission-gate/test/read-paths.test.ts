import { describe, expect, it } from 'vitest';
import { createPermissionGate } from '../src/index.js';

describe('read-path rules cover every read tool', () => {
  const gate = createPermissionGate({ cwd: '/work/repo', rules: { deny: ['Read(**/.env)'] } });

  it('deny Read(**/.env) also denies Grep and Glob on that file (the reported bug)', () => {
    expect(gate.evaluate('Read', { file_path: '.env' }).decision).toBe('deny');
    expect(gate.evaluate('Grep', { pattern: 'KEY', path: '.env' })).toEqual({
      decision: 'deny',
      capability: 'read',
      source: { kind: 'rule', rule: 'Read(**/.env)', list: 'deny' },
      rule: 'Read(**/.env)',
    });
    expect(gate.evaluate('Glob', { pattern: '*', path: 'config/.env' }).decision).toBe('deny');
    expect(gate.evaluate('Grep', { pattern: 'KEY', path: '/work/repo/sub/.env' }).decision).toBe('deny');
  });

  it('a search over a directory is allowed; the walk asks readRestriction per file', () => {
    expect(gate.evaluate('Grep', { pattern: 'KEY', path: '.' }).decision).toBe('allow');
    expect(gate.evaluate('Grep', { pattern: 'KEY' }).decision).toBe('allow');
    expect(gate.readRestriction('/work/repo/.env')).toEqual({ rule: 'Read(**/.env)', list: 'deny' });
    expect(gate.readRestriction('/work/repo/a/b/.env')).toEqual({ rule: 'Read(**/.env)', list: 'deny' });
    expect(gate.readRestriction('/work/repo/src/env.ts')).toBeNull();
  });

  it('rules of Grep and Glob and tool globs count too; ask rules carry over; allow rules do not', () => {
    const g = createPermissionGate({
      cwd: '/r',
      rules: {
        deny: ['Grep(secrets/**)'],
        ask: ['*(private/**)'],
        allow: ['Read(open/**)', 'Read'],
      },
    });
    expect(g.evaluate('Read', { file_path: 'secrets/k' }).decision).toBe('deny');
    expect(g.evaluate('Glob', { pattern: '*', path: 'private/x' }).decision).toBe('ask');
    expect(g.readRestriction('/r/private/x')).toEqual({ rule: '*(private/**)', list: 'ask' });
    expect(g.readRestriction('/r/open/x')).toBeNull();
  });

  it('whole-tool rules stay per tool', () => {
    const g = createPermissionGate({ rules: { deny: ['Read'] } });
    expect(g.evaluate('Grep', { pattern: 'x', path: 'a' }).decision).toBe('allow');
    expect(g.readRestriction('a')).toBeNull();
  });

  it('follows rule updates and fails closed on bad input', () => {
    const g = createPermissionGate({ rules: { deny: ['Read(a)'] } });
    g.configure({ rules: { deny: ['Read(b)'] } });
    expect(g.readRestriction('a')).toBeNull();
    expect(g.readRestriction('b')?.list).toBe('deny');
    expect(g.readRestriction(42 as never)?.list).toBe('deny');
  });
});
