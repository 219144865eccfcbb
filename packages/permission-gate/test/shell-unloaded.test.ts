import { describe, expect, it, vi } from 'vitest';

// The setup file loads the grammar into the shared module graph; a fresh graph shows the state before it loads.
vi.resetModules();
const gateApi = await import('../src/index.js');
const { createPermissionGate, isShellGrammarLoaded } = gateApi;

describe('before the bash grammar is loaded', () => {
  const rules = { deny: ['Bash(rm:*)'], ask: ['Bash(git push*)'], allow: ['Bash(git status*)'] };

  it('reports it is not loaded', () => {
    expect(isShellGrammarLoaded()).toBe(false);
  });

  it('still decides lines of plain words exactly (no grammar needed)', () => {
    const gate = createPermissionGate({ mode: 'bypass', rules });
    expect(gate.evaluate('Bash', { command: 'rm -rf x' }).decision).toBe('deny');
    expect(gate.evaluate('Bash', { command: 'sudo -u x nice -n 5 rm -rf x' }).decision).toBe('deny');
    expect(gate.evaluate('Bash', { command: 'git push origin' }).decision).toBe('ask');
    expect(gate.evaluate('Bash', { command: 'git status --short' }).decision).toBe('allow');
    expect(gate.evaluate('Bash', { command: 'ls -la' }).decision).toBe('allow');
  });

  it('fails closed on anything else: deny and ask rules may apply, so it asks; allow rules do not apply', () => {
    const gate = createPermissionGate({ mode: 'bypass', rules });
    const e = gate.evaluate('Bash', { command: "'rm' -rf x" });
    expect(e).toEqual({
      decision: 'ask',
      capability: 'exec',
      source: {
        kind: 'rule',
        rule: 'Bash(rm:*)',
        list: 'deny',
        unanalysable: 'the shell grammar is not loaded',
      },
      rule: 'Bash(rm:*)',
    });
    expect(gateApi.describeEvaluation(e)).toBe(
      'deny rule Bash(rm:*) may apply: the shell grammar is not loaded',
    );
    expect(gate.evaluate('Bash', { command: 'ls; echo "hi"' }).decision).toBe('ask');
    const allowOnly = createPermissionGate({ rules: { allow: ['Bash(git status*)'] } });
    expect(allowOnly.evaluate('Bash', { command: 'git status "x"' }).decision).toBe('ask');
    // A tool with no deny/ask rule to check against follows the mode, as before.
    expect(
      createPermissionGate({ mode: 'bypass' }).evaluate('Bash', { command: "'rm' -rf x" }).decision,
    ).toBe('allow');
  });

  it('denies where no one can be asked', async () => {
    const gate = createPermissionGate({ mode: 'dont_ask', rules });
    expect(gate.evaluate('Bash', { command: "'rm' -rf x" }).decision).toBe('deny');
    const noCallback = createPermissionGate({ mode: 'bypass', rules });
    const r = await noCallback.check({ id: '1', name: 'Bash', input: { command: "'rm' -rf x" } });
    expect(r.allowed).toBe(false);
  });

  it('decides exactly once loaded (the same gate, no reconfiguration)', async () => {
    const gate = createPermissionGate({ mode: 'bypass', rules });
    expect(gate.evaluate('Bash', { command: "'rm' -rf x" }).decision).toBe('ask');
    const { loadInstalledShellGrammar } = await import('../src/node.js');
    await loadInstalledShellGrammar();
    await loadInstalledShellGrammar(); // idempotent
    expect(isShellGrammarLoaded()).toBe(true);
    expect(gate.evaluate('Bash', { command: "'rm' -rf x" }).decision).toBe('deny');
    expect(gate.evaluate('Bash', { command: 'git status "x"' }).decision).toBe('allow');
  });
});
