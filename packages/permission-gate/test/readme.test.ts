// The README's examples, verbatim between the markers, so they are type-checked and run.
import { describe, expect, it } from 'vitest';
import type { AskResult, PermissionGate, PermissionGateTarget } from '../src/index.js';

/** Stands in for the host UI: answers like a user clicking "Allow for this session". */
async function showApprovalDialog(_call: {
  id: string | undefined;
  name: string;
  input: unknown;
}): Promise<AskResult> {
  return { allow: true, scope: 'session' };
}

/** Stands in for an agent-core client: anything with the approval hook. */
class MyClient implements PermissionGateTarget {
  #gate: PermissionGate | null = null;
  setPermissionGate(gate: PermissionGate | null): void {
    this.#gate = gate;
  }
  getPermissionGate(): PermissionGate | null {
    return this.#gate;
  }
}

describe('README', () => {
  it('quick start', async () => {
    // --- quick start ---
    const { createPermissionGate, permissionDeniedMessage } = await import('../src/index.js');

    const gate = createPermissionGate({
      mode: 'default',
      rules: {
        allow: ['Bash(git status*)', 'Edit(src/**)'],
        deny: ['Bash(rm *)', 'Read(**/.env)'],
      },
      toolMeta: { Summarise: 'read' },
      // The host's approval dialog: true / false, or a grant {allow: true, scope: 'once' | 'session'}.
      ask: (name, input, id) => showApprovalDialog({ id, name, input }),
      askTimeoutMs: 60_000,
    });

    const quick = gate.evaluate('Bash', { command: 'git status --short' });
    // quick.decision === 'allow', quick.source = {kind: 'rule', rule: 'Bash(git status*)', list: 'allow'}

    const result = await gate.check({ id: 'call_1', name: 'Bash', input: { command: 'rm -rf build' } });
    const toolOutput = result.allowed ? 'run the tool' : permissionDeniedMessage('Bash', result.reason);
    // toolOutput === 'Permission denied for Bash (deny rule Bash(rm *))'
    // --- end quick start ---

    expect(quick).toEqual({
      decision: 'allow',
      capability: 'exec',
      source: { kind: 'rule', rule: 'Bash(git status*)', list: 'allow' },
      rule: 'Bash(git status*)',
    });
    expect(toolOutput).toBe('Permission denied for Bash (deny rule Bash(rm *))');
    const asked = await gate.check({ id: 'call_2', name: 'Bash', input: { command: 'npm publish' } });
    expect(asked).toEqual({
      allowed: true,
      reason: 'approved by the user for this session: Bash commands starting with `npm publish`',
      source: { kind: 'ask', outcome: 'approved', scope: 'session' },
    });
  });

  it('loading the bash grammar', async () => {
    const runtimeWasmUrl = new URL('../node_modules/web-tree-sitter/web-tree-sitter.wasm', import.meta.url);
    const bashWasmUrl = new URL('../node_modules/tree-sitter-bash/tree-sitter-bash.wasm', import.meta.url);
    // --- loading the bash grammar ---
    // Node: reads the two .wasm files from the installed packages.
    const { loadInstalledShellGrammar } = await import('../src/node.js');
    // Browsers and bundlers: pass the files as bytes or URLs instead.
    const { isShellGrammarLoaded, loadShellGrammar } = await import('../src/shell/load.js');

    await loadInstalledShellGrammar(); // once per process; later calls share the promise
    // or: await loadShellGrammar({ runtime: runtimeWasmUrl, grammar: bashWasmUrl });
    isShellGrammarLoaded(); // true
    // --- end loading the bash grammar ---

    expect(isShellGrammarLoaded()).toBe(true);
    await expect(
      loadShellGrammar({ runtime: runtimeWasmUrl, grammar: bashWasmUrl }),
    ).resolves.toBeUndefined();
  });

  it('host wiring with installPermissionGate', async () => {
    // --- host wiring ---
    const { installPermissionGate, parsePermissionConfig } = await import('../src/index.js');

    const settings = parsePermissionConfig(`
mode: default
policy:
  capabilities: { net: deny }
  overrides: { Summarise: allow }
rules:
  allow: ["Bash(npm test*)"]
`);

    const client = new MyClient(); // e.g. createClient({model, registerTools: false}) from agent-core
    const gate = installPermissionGate(client, {
      ...settings,
      ask: (name, input, id) => showApprovalDialog({ id, name, input }),
    });

    // Later (the user switched modes in the UI): refreshes the same gate in place.
    installPermissionGate(client, { mode: 'accept_edits' });
    // --- end host wiring ---

    expect(client.getPermissionGate()).toBe(gate);
    expect(gate.mode).toBe('accept_edits');
    expect(gate.evaluate('WebFetch', { url: 'https://x' }).source).toEqual({
      kind: 'capability',
      capability: 'net',
    });
    expect(gate.evaluate('Bash', { command: 'npm test -- --run' }).decision).toBe('allow');
  });
});
