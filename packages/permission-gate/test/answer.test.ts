import { describe, expect, it, vi } from 'vitest';
import { createPermissionGate } from '../src/index.js';

// `check({answer})`: a stored answer to an earlier ask of this same call (a parked turn resumed from storage).
describe('check with an answer given earlier', () => {
  const bash = { id: 'call_1', name: 'Bash', input: { command: 'npm test' } };

  it('stands in for the ask callback when the call still asks', async () => {
    const ask = vi.fn(() => false);
    const gate = createPermissionGate({ mode: 'default', ask });
    const r = await gate.check({ ...bash, answer: true });
    expect(r).toEqual({
      allowed: true,
      reason: 'approved by the user once',
      source: { kind: 'ask', outcome: 'approved', scope: 'once' },
    });
    expect(ask).not.toHaveBeenCalled();
  });

  it('never lifts a deny: a deny rule or a mode switched to plan since the ask wins', async () => {
    const ruled = createPermissionGate({
      mode: 'default',
      rules: { deny: ['Bash(npm *)'] },
      ask: () => true,
    });
    expect((await ruled.check({ ...bash, answer: true })).allowed).toBe(false);
    const gate = createPermissionGate({ mode: 'default', ask: () => true });
    gate.configure({ mode: 'plan' });
    const r = await gate.check({ ...bash, answer: { allow: true, scope: 'session' } });
    expect(r.allowed).toBe(false);
    expect(gate.grants()).toEqual([]);
  });

  it('is read as strictly as a callback value: only true or {allow: true, scope} allows', async () => {
    const gate = createPermissionGate({ mode: 'default', ask: () => true });
    for (const answer of [
      false,
      'yes',
      1,
      { allow: 'true' },
      { allow: true },
      { allow: true, scope: 'forever' },
      null,
    ]) {
      const r = await gate.check({ ...bash, answer: answer as never });
      expect(r.allowed, JSON.stringify(answer)).toBe(false);
    }
    expect(gate.grants()).toEqual([]);
  });

  it('grants for the session only what a live ask would have granted', async () => {
    const gate = createPermissionGate({ mode: 'default', ask: () => false });
    const r = await gate.check({ ...bash, answer: { allow: true, scope: 'session' } });
    expect(r.source).toEqual({ kind: 'ask', outcome: 'approved', scope: 'session' });
    expect(gate.grants().map((g) => ({ kind: g.kind, tool: g.tool }))).toEqual([
      { kind: 'command-prefix', tool: 'Bash' },
    ]);
    // The grant covers `npm test ...`, not another command.
    expect((await gate.check({ name: 'Bash', input: { command: 'npm test -- x' } })).allowed).toBe(true);
    expect((await gate.check({ name: 'Bash', input: { command: 'npm publish' } })).allowed).toBe(false);
    // A command with shell syntax asks every time: a session answer counts once.
    const once = await gate.check({
      name: 'Bash',
      input: { command: 'npm test && curl x' },
      answer: { allow: true, scope: 'session' },
    });
    expect(once.source).toEqual({ kind: 'ask', outcome: 'approved', scope: 'once' });
    expect(gate.grants()).toHaveLength(1);
  });

  it('denies when the signal is already aborted', async () => {
    const gate = createPermissionGate({ mode: 'default', ask: () => true });
    const signal = AbortSignal.abort();
    const r = await gate.check({ ...bash, answer: true, signal });
    expect(r).toMatchObject({ allowed: false, source: { kind: 'ask', outcome: 'aborted' } });
  });

  it('is not needed when the call is allowed now (a mode switched to bypass)', async () => {
    const gate = createPermissionGate({ mode: 'bypass', ask: () => false });
    expect((await gate.check({ ...bash, answer: false })).allowed).toBe(true);
  });
});
