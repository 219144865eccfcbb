import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MCP_POLICY_KEYS, mcpSourcePolicy, mcpToolCapability } from '../src/index.js';

const source = (entry: Record<string, unknown>, scope: 'explicit' | 'user' | 'project' = 'user') => ({
  name: 'srv',
  scope,
  entry,
});

const tool = (name: string, readOnlyHint: boolean) => ({
  name,
  description: '',
  inputSchema: {},
  readOnlyHint,
});

describe('mcpSourcePolicy', () => {
  it('reads trust, capabilities, per-tool settings and the timeout from a file the user controls', () => {
    const found = mcpSourcePolicy(
      source({
        command: 'x',
        trusted: true,
        capability: 'net',
        timeoutMs: 5000,
        tools: { search: { capability: 'read' }, drop: { disabled: true } },
      }),
    );
    expect(found.error).toBeUndefined();
    expect(found.policy).toEqual({
      trusted: true,
      capability: 'net',
      timeoutMs: 5000,
      tools: { search: { capability: 'read' }, drop: { disabled: true } },
    });
    const policy = found.policy ?? {};
    expect(mcpToolCapability(tool('search', false), policy)).toBe('read');
    expect(mcpToolCapability(tool('other', true), policy)).toBe('net');
  });

  it("ignores every policy field in a project's .mcp.json, with a warning (a repository cannot trust itself)", () => {
    const found = mcpSourcePolicy(
      source({ command: 'x', trusted: true, tools: { a: { capability: 'read' } } }, 'project'),
    );
    expect(found.policy).toBeUndefined();
    expect(found.error).toBeUndefined();
    expect(found.warning).toContain("trusted, tools ignored in a project's .mcp.json");
  });

  it('an entry without policy fields has no policy (every tool exec)', () => {
    expect(mcpSourcePolicy(source({ command: 'x', args: [] }))).toEqual({ policy: undefined });
  });

  it.each([
    [{ trusted: 'yes' }, '"trusted" must be true or false'],
    [{ capability: 'root' }, '"capability" must be one of'],
    [{ timeoutMs: -1 }, '"timeoutMs" must be a positive integer'],
    [{ tools: [] }, '"tools" must be an object'],
    [{ tools: { a: 1 } }, '"tools.a" must be an object'],
    [{ tools: { a: { capability: 'write', extra: 1 } } }, '"tools.a.extra" is not a tool setting'],
    [{ tools: { a: { disabled: 'no' } } }, '"tools.a.disabled" must be true or false'],
  ])('a malformed field %j is an error that keeps the server from starting', (fields, message) => {
    const found = mcpSourcePolicy(source({ command: 'x', ...fields }));
    expect(found.policy).toBeUndefined();
    expect(found.error).toContain(message);
    expect(found.error).toContain('the server is not started');
  });

  it('never throws, and a project never gets a policy, whatever the entry holds (property)', () => {
    const value = fc.oneof(
      fc.anything(),
      fc.dictionary(
        fc.string(),
        fc.record({ capability: fc.anything(), disabled: fc.anything() }, { requiredKeys: [] }),
      ),
    );
    const entry = fc.dictionary(
      fc.constantFrom(...MCP_POLICY_KEYS, 'command', '__proto__', 'constructor'),
      value,
    );
    fc.assert(
      fc.property(entry, fc.constantFrom('explicit', 'user', 'project'), (e, scope) => {
        const found = mcpSourcePolicy(source(e, scope as 'user'));
        if (scope === 'project') expect(found.policy).toBeUndefined();
        if (found.error !== undefined) expect(found.policy).toBeUndefined();
        if (found.policy?.capability !== undefined)
          expect(['read', 'write', 'exec', 'net']).toContain(found.policy.capability);
      }),
      { numRuns: 500 },
    );
  });
});
