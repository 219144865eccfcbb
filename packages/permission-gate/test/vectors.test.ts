import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createPermissionGate, type Evaluation, type PermissionGateOptions } from '../src/index.js';

interface Vector {
  readonly id: string;
  readonly from: string;
  readonly options: PermissionGateOptions;
  readonly call: { readonly name: string; readonly input: unknown };
  readonly expected: Omit<Evaluation, 'rule'>;
}

const file = JSON.parse(readFileSync(new URL('../vectors/decisions.json', import.meta.url), 'utf8')) as {
  vectors: Vector[];
};

describe('conformance vectors (vectors/decisions.json)', () => {
  it('has unique ids', () => {
    const ids = file.vectors.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(file.vectors.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const e = createPermissionGate(v.options).evaluate(v.call.name, v.call.input);
    const { rule, ...rest } = e;
    expect(rest).toEqual(v.expected);
    expect(rule).toBe(v.expected.source.kind === 'rule' ? v.expected.source.rule : undefined);
  });
});
