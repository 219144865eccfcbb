import { describe, expect, it } from 'vitest';
import vectors from '../vectors/grants.json' with { type: 'json' };
import {
  type AskCallback,
  createPermissionGate,
  type PermissionGateOptions,
  type PermissionGateUpdate,
} from '../src/index.js';

// The shared conformance vectors for scoped session grants (also run by @codeagent/conformance against any host).
type Step =
  | { call: { name: string; input: unknown }; answer: 'session' | 'once' | 'deny' }
  | { configure: PermissionGateUpdate };

async function grantSession(options: PermissionGateOptions, steps: readonly Step[]) {
  let answer: Extract<Step, { call: unknown }>['answer'] = 'deny';
  let asked = false;
  const ask: AskCallback = () => {
    asked = true;
    return answer === 'session' ? { allow: true, scope: 'session' } : answer === 'once';
  };
  const gate = createPermissionGate({ ...options, ask });
  const out: unknown[] = [];
  for (const [i, step] of steps.entries()) {
    if ('configure' in step) {
      gate.configure(step.configure);
      continue;
    }
    answer = step.answer;
    asked = false;
    const r = await gate.check({ id: `call_${i}`, ...step.call });
    const { id: _id, ...source } = r.source as { id?: string };
    out.push({ allowed: r.allowed, asked, source });
  }
  return { steps: out, grants: gate.grants().map(({ id: _id, ...grant }) => grant) };
}

describe('grant vectors (vectors/grants.json)', () => {
  it('has unique ids, a rule for each, scopes and sessions', () => {
    const ids = vectors.vectors.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const v of vectors.vectors) expect(v.rule).toMatch(/ADR 0106|CONTRACTS\.md §4/);
    expect(ids.filter((id) => id.startsWith('scope/')).length).toBeGreaterThan(20);
    expect(ids.filter((id) => id.startsWith('session/')).length).toBeGreaterThan(10);
  });

  it.each(vectors.vectors.map((v) => [v.id, v] as const))('%s', async (_id, v) => {
    const [options, ...rest] = v.args as [PermissionGateOptions, ...unknown[]];
    const got =
      v.op === 'grantScope'
        ? createPermissionGate(options).grantScope(rest[0] as string, rest[1])
        : await grantSession(options, rest[0] as Step[]);
    expect(got).toEqual(v.expected);
  });
});
