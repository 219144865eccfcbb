import { describe, expect, it, vi } from 'vitest';
import {
  createPermissionGate,
  installPermissionGate,
  isPermissionGate,
  type PermissionGate,
  type PermissionGateTarget,
  PermissionGateError,
  uninstallPermissionGate,
} from '../src/index.js';

/** A minimal client exposing the approval hook, as agent-core implements it. */
class FakeClient implements PermissionGateTarget {
  gate: PermissionGate | null = null;
  sets = 0;
  setPermissionGate(gate: PermissionGate | null): void {
    this.sets++;
    this.gate = gate;
  }
  getPermissionGate(): PermissionGate | null {
    return this.gate;
  }
}

describe('installPermissionGate', () => {
  it('installs a gate on a target', () => {
    const client = new FakeClient();
    const gate = installPermissionGate(client, { mode: 'plan' });
    expect(client.gate).toBe(gate);
    expect(isPermissionGate(gate)).toBe(true);
    expect(gate.mode).toBe('plan');
  });

  it('is idempotent: a second call refreshes mode, policy and ask in place', async () => {
    const client = new FakeClient();
    const first = vi.fn(() => false);
    const second = vi.fn(() => true);
    const gate = installPermissionGate(client, {
      mode: 'default',
      ask: first,
      toolMeta: { Summarise: 'exec' },
    });
    const again = installPermissionGate(client, {
      mode: 'accept_edits',
      policy: { overrides: { Summarise: 'ask' }, capabilities: { net: 'deny' } },
      ask: second,
    });
    expect(again).toBe(gate);
    expect(client.sets).toBe(1);
    expect(gate.mode).toBe('accept_edits');
    expect(gate.evaluate('WebFetch', { url: 'x' }).source).toEqual({ kind: 'capability', capability: 'net' });
    const r = await gate.check({ id: 'c1', name: 'Summarise', input: {} });
    expect(r.allowed).toBe(true);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith(
      'Summarise',
      {},
      'c1',
      expect.objectContaining({ grantScope: null, source: { kind: 'override', tool: 'Summarise' } }),
    );
  });

  it('keeps session grants and registrations across refreshes', async () => {
    const client = new FakeClient();
    const gate = installPermissionGate(client, {
      ask: () => ({ allow: true, scope: 'session' }),
      toolMeta: { T: 'exec' },
    });
    await gate.check({ name: 'T', input: {} });
    installPermissionGate(client, { ask: () => false });
    expect((await gate.check({ name: 'T', input: {} })).source).toEqual({
      kind: 'grant',
      scope: 'session',
      id: 'g1',
    });
    expect(gate.toolMeta.get('T')?.capability).toBe('exec');
  });

  it('leaves options that a refresh omits unchanged; null removes the ask callback', async () => {
    const client = new FakeClient();
    const gate = installPermissionGate(client, {
      mode: 'bypass',
      rules: { deny: ['Bash(rm *)'] },
      ask: () => true,
    });
    installPermissionGate(client, { ask: null });
    expect(gate.mode).toBe('bypass');
    expect(gate.evaluate('Bash', { command: 'rm x' }).decision).toBe('deny');
    installPermissionGate(client, { mode: 'default' });
    expect((await gate.check({ name: 'Bash', input: { command: 'ls' } })).source).toEqual({
      kind: 'ask',
      outcome: 'no-callback',
    });
  });

  it('a bad refresh throws and leaves the gate exactly as it was', () => {
    const client = new FakeClient();
    const gate = installPermissionGate(client, { mode: 'plan', rules: { allow: ['Read'] } });
    expect(() =>
      installPermissionGate(client, { mode: 'bypass', rules: { deny: ['Bash(('] }, toolMeta: { X: 'read' } }),
    ).toThrow(PermissionGateError);
    expect(() =>
      installPermissionGate(client, { mode: 'bypass', toolMeta: { X: 'read', Bash: 'read' } }),
    ).toThrow(/BUILTIN|built-in/);
    expect(gate.mode).toBe('plan');
    expect(gate.toolMeta.get('X')).toBeUndefined();
  });

  it('refreshes a gate the host created itself and set on the target', () => {
    const client = new FakeClient();
    const own = createPermissionGate();
    client.setPermissionGate(own);
    expect(installPermissionGate(client, { mode: 'dont_ask' })).toBe(own);
    expect(own.mode).toBe('dont_ask');
  });

  it('gates on different targets are independent', () => {
    const a = installPermissionGate(new FakeClient(), { mode: 'plan' });
    const b = installPermissionGate(new FakeClient(), { mode: 'bypass' });
    expect(a).not.toBe(b);
    expect(a.evaluate('Write', {}).decision).toBe('deny');
    expect(b.evaluate('Write', {}).decision).toBe('allow');
  });

  it('uninstall removes the gate; a later install creates a fresh one', () => {
    const client = new FakeClient();
    const gate = installPermissionGate(client);
    uninstallPermissionGate(client);
    expect(client.gate).toBeNull();
    expect(installPermissionGate(client)).not.toBe(gate);
  });

  it.each([null, {}, { setPermissionGate() {} }, 'client'])(
    'rejects a target without the hook: %j',
    (target) => {
      expect(() => installPermissionGate(target as never)).toThrow(
        /must expose setPermissionGate\(\) and getPermissionGate\(\)/,
      );
    },
  );
});
