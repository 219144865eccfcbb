import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CAPABILITIES,
  createPermissionGate,
  DECISIONS,
  PERMISSION_MODES,
  type PermissionGateOptions,
  type PermissionRules,
  safeParseRule,
} from '../src/index.js';

const tools = ['Bash', 'Read', 'Edit', 'Write', 'WebFetch', 'Grep', 'mcp__s__x', 'Host', 'Unknown'] as const;
const fragments = [
  'git',
  'status',
  'rm',
  '-rf',
  '/',
  'src',
  '..',
  '.',
  '*',
  '**',
  '?',
  ';',
  '&&',
  '|',
  '$(',
  '`',
  '\n',
  ' ',
  'a',
  '.env',
  '{a,b}',
  '[ab]',
  '\u202e',
  '\u0000',
  'é',
];
const text = fc.array(fc.constantFrom(...fragments), { maxLength: 6 }).map((a) => a.join(''));

// Only parsable rules: an unparsable one makes creation throw (tested in rules.test.ts), and a property that
// skipped those runs would check almost nothing (with random strings mixed in, ~85% of gates failed to build).
const ruleText = fc
  .oneof(
    fc.constantFrom(...tools, 'mcp__s__*', '*'),
    fc.tuple(fc.constantFrom(...tools, 'mcp__*'), text).map(([t, p]) => `${t}(${p})`),
    fc.string({ maxLength: 12 }),
  )
  .filter((r) => safeParseRule(r).ok);
const ruleList = fc.array(ruleText, { maxLength: 6 });
const rules: fc.Arbitrary<PermissionRules> = fc.record(
  { allow: ruleList, ask: ruleList, deny: ruleList },
  { requiredKeys: [] },
);

const decision = fc.constantFrom(...DECISIONS);
const options: fc.Arbitrary<PermissionGateOptions> = fc.record(
  {
    mode: fc.constantFrom(...PERMISSION_MODES),
    policy: fc.record(
      {
        sets: fc.array(fc.constantFrom('files', 'shell', 'web', 'todo', 'ops'), { maxLength: 3 }),
        capabilities: fc.dictionary(fc.constantFrom(...CAPABILITIES), decision, { maxKeys: 2 }),
        overrides: fc.dictionary(fc.constantFrom(...tools), decision, { maxKeys: 2 }),
      },
      { requiredKeys: [] },
    ),
    toolMeta: fc.constant({ Host: { capability: 'write' as const, set: 'ops' } }),
    undeclaredCapability: fc.constantFrom(...CAPABILITIES),
    cwd: fc.constantFrom('/home/u/p', '/'),
  },
  { requiredKeys: [] },
);

const input = fc.oneof(
  fc.record({ command: text }),
  fc.record({ file_path: text }),
  fc.record({ path: text, pattern: text }),
  fc.record({ url: text }),
  fc.anything({ maxDepth: 2 }),
);

/** Creates a gate from generated (always valid) options and rules; a throw fails the property, never skips it. */
function gateOf(o: PermissionGateOptions, r: PermissionRules) {
  return createPermissionGate({ ...o, rules: r });
}

describe('properties over random policies, rules and inputs', () => {
  it('evaluate never throws and always returns a valid decision', () => {
    fc.assert(
      fc.property(options, rules, fc.constantFrom(...tools), input, (o, r, name, i) => {
        const gate = gateOf(o, r);
        const e = gate.evaluate(name, i);
        expect(DECISIONS).toContain(e.decision);
        expect(CAPABILITIES).toContain(e.capability);
        expect(e.source.kind === 'rule').toBe(e.rule !== undefined);
        // Deterministic: the same call decides the same way.
        expect(gate.evaluate(name, i)).toEqual(e);
      }),
      { numRuns: 1000 },
    );
  });

  it('adding an allow rule never turns a deny into an allow', () => {
    fc.assert(
      fc.property(options, rules, ruleText, fc.constantFrom(...tools), input, (o, r, extra, name, i) => {
        const before = gateOf(o, r);
        const after = gateOf(o, { ...r, allow: [...(r.allow ?? []), extra] });
        if (before.evaluate(name, i).decision === 'deny')
          expect(after.evaluate(name, i).decision).toBe('deny');
      }),
      { numRuns: 1000 },
    );
  });

  it('adding a deny rule never loosens a decision', () => {
    const rank = { allow: 0, ask: 1, deny: 2 } as const;
    fc.assert(
      fc.property(options, rules, ruleText, fc.constantFrom(...tools), input, (o, r, extra, name, i) => {
        const before = gateOf(o, r);
        const after = gateOf(o, { ...r, deny: [...(r.deny ?? []), extra] });
        expect(rank[after.evaluate(name, i).decision]).toBeGreaterThanOrEqual(
          rank[before.evaluate(name, i).decision],
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('evaluate never throws on arbitrary names and inputs, even cyclic ones', () => {
    const gate = createPermissionGate({ rules: { allow: ['Bash(*)', 'Edit(**)'], deny: ['Read(**/.env)'] } });
    const cyclic: Record<string, unknown> = { command: 'ls' };
    cyclic.self = cyclic;
    expect(gate.evaluate('Bash', cyclic).decision).toBe('allow');
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (name, i) => {
        const e = gate.evaluate(name as string, i);
        expect(DECISIONS).toContain(e.decision);
      }),
      { numRuns: 500 },
    );
  });

  it('check never rejects and only literal true or a well-formed grant allows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.boolean(), async (answer, asPromise) => {
        const gate = createPermissionGate({
          ask: () => (asPromise ? Promise.resolve(answer) : answer) as never,
        });
        const r = await gate.check({ name: 'Bash', input: { command: 'x' } });
        const wellFormed =
          answer === true ||
          (typeof answer === 'object' &&
            answer !== null &&
            (answer as { allow?: unknown }).allow === true &&
            ['once', 'session'].includes((answer as { scope?: unknown }).scope as string));
        expect(r.allowed).toBe(wellFormed);
      }),
      { numRuns: 500 },
    );
  });
});
