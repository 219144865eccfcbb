import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isProvidersError, type ModelLimitsOverride, modelFromEnv, modelLimits } from '../src/index.js';

interface Expected {
  readonly provider?: string;
  readonly modelId?: string;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
}
interface ErrorExpectation {
  readonly code: string;
  readonly names: string;
}
interface EnvVector {
  readonly id: string;
  readonly env: Record<string, string>;
  readonly fallback?: 'none' | 'demo';
  readonly expected?: Expected | null;
  readonly error?: ErrorExpectation;
  readonly rule: string;
}
interface LimitsVector {
  readonly id: string;
  readonly modelId: string;
  readonly override?: ModelLimitsOverride;
  readonly expected?: Expected;
  readonly error?: ErrorExpectation;
}

function load<T>(name: string): T[] {
  const file = JSON.parse(readFileSync(new URL(`../vectors/${name}`, import.meta.url), 'utf8')) as {
    vectors: T[];
  };
  return file.vectors;
}

function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    if (!isProvidersError(error)) throw error;
    return { error: { code: error.code, message: error.message, field: error.field } };
  }
}

function check(result: unknown, vector: { expected?: Expected | null; error?: ErrorExpectation }) {
  if (vector.error !== undefined) {
    // The error names the variable (or override field) at fault, in its message and in `field`.
    expect(result).toMatchObject({ error: { code: vector.error.code, field: vector.error.names } });
    expect((result as { error: { message: string } }).error.message).toContain(vector.error.names);
    return;
  }
  const value = (result as { value?: unknown }).value;
  if (vector.expected === null) expect(value).toBeNull();
  else expect(value).toMatchObject(vector.expected ?? {});
}

const envVectors = load<EnvVector>('env-resolution.json');
const limitsVectors = load<LimitsVector>('model-limits.json');

describe('env resolution vectors', () => {
  it('have unique ids and exactly one of expected / error', () => {
    const ids = envVectors.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const v of envVectors) expect('expected' in v !== 'error' in v).toBe(true);
  });
  it.each(envVectors.map((v) => [v.id, v] as const))('%s', (_id, vector) => {
    check(
      outcome(() => modelFromEnv({ env: vector.env, fallback: vector.fallback })),
      vector,
    );
  });
});

describe('model limits vectors', () => {
  it.each(limitsVectors.map((v) => [v.id, v] as const))('%s', (_id, vector) => {
    check(
      outcome(() => modelLimits(vector.modelId, vector.override)),
      vector,
    );
  });
});
