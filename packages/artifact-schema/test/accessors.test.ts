import { describe, expect, it } from 'vitest';
import {
  ArtifactSchemaError,
  type ToolArtifact,
  toolResult,
  toolResultArtifact,
  toolResultValue,
} from '../src/index.js';
import { explodingProxy, revokedProxy } from './arbitraries.js';
import { ARTIFACT_KEY_ORDER } from './helpers.js';

const artifact = (): ToolArtifact => ({
  schema: 'codeagent.tool-artifact',
  version: 1,
  kind: 'text',
  status: 'success',
  icon: null,
  title: null,
  payload: { text: 'hi' },
});

function throwingGetter<T extends object>(base: T, key: string): T {
  Object.defineProperty(base, key, {
    enumerable: true,
    get() {
      throw new Error(`getter ${key}`);
    },
  });
  return base;
}

describe('toolResultArtifact on hostile containers', () => {
  it.each([
    ['a throwing extra getter', () => throwingGetter({ value: 'v' }, 'extra')],
    [
      'a throwing artifact getter',
      () => ({ value: 'v', extra: { codeagent: throwingGetter({}, 'artifact') } }),
    ],
    ['a throwing schema getter on a bare artifact', () => throwingGetter(artifact(), 'schema')],
    [
      'a throwing payload getter',
      () => ({ extra: { codeagent: { artifact: throwingGetter(artifact(), 'payload') } } }),
    ],
    ['a Proxy whose every trap throws', explodingProxy],
    ['a revoked Proxy', revokedProxy],
    ['a revoked Proxy as payload', () => ({ ...artifact(), payload: revokedProxy() })],
    ['a function', () => () => artifact()],
    ['a symbol', () => Symbol('artifact')],
    ['a bigint', () => 10n],
  ])('answers null for %s', (_name, make) => {
    expect(toolResultArtifact(make())).toBeNull();
    expect(toolResultArtifact(make(), { version: null })).toBeNull();
  });

  it('answers the fallback from toolResultValue when value cannot be read', () => {
    expect(toolResultValue(throwingGetter({}, 'value'), 'fb')).toBe('fb');
    expect(toolResultValue(explodingProxy(), 'fb')).toBe('fb');
    expect(toolResultValue(revokedProxy())).toBe('');
  });

  it('reads each field once, so a getter that changes its answer cannot smuggle a bad value past validation', () => {
    let reads = 0;
    const a = artifact() as unknown as Record<string, unknown>;
    Object.defineProperty(a, 'status', {
      enumerable: true,
      get() {
        reads++;
        return reads === 1 ? 'success' : Symbol('swapped');
      },
    });
    const got = toolResultArtifact(a);
    expect(got?.status).toBe('success');
    expect(reads).toBe(1);
  });

  it('accepts a cyclic payload without walking it (payload is shared, not cloned)', () => {
    const payload: Record<string, unknown> = { text: 'x' };
    payload.self = payload;
    const got = toolResultArtifact({ ...artifact(), payload });
    expect(got?.payload).toBe(payload);
  });

  it('returns a fresh copy in contract key order; mutating it leaves the source alone', () => {
    const result = toolResult('hi', { kind: 'error', payload: { message: 'm' } });
    const got = toolResultArtifact(result);
    expect(got).not.toBe(result.extra.codeagent.artifact);
    expect(Object.keys(got as object)).toEqual(ARTIFACT_KEY_ORDER);
    (got as ToolArtifact).status = 'changed';
    expect(result.extra.codeagent.artifact.status).toBe('error');
  });

  it('keeps extra top-level keys of a future version but not of v1', () => {
    const v2 = { ...artifact(), version: 2, layout: 'grid' };
    expect(toolResultArtifact(v2, { version: 2 })).toEqual(v2);
    expect(toolResultArtifact({ ...artifact(), layout: 'grid' })).toEqual(artifact());
  });

  it('reads a bare artifact even when it carries an error-looking key (no container, no forcing)', () => {
    expect(toolResultArtifact({ ...artifact(), error: 'x' })?.status).toBe('success');
  });
});

describe('version option errors', () => {
  it('throws ArtifactSchemaError, a TypeError with a stable code, even when x is null', () => {
    let thrown: unknown;
    try {
      toolResultArtifact(null, { version: 0 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect(thrown).toBeInstanceOf(ArtifactSchemaError);
    expect((thrown as ArtifactSchemaError).code).toBe('invalid-version-option');
    expect((thrown as ArtifactSchemaError).name).toBe('ArtifactSchemaError');
    expect((thrown as Error).message).toMatch(/positive integer/);
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    // biome-ignore lint/suspicious/noSparseArray: a hole is the point
    ['a sparse list', [1, , 2]],
    ['a list with Infinity', [1, Number.POSITIVE_INFINITY]],
    ['a bigint', 1n],
  ])('rejects %s', (_name, version) => {
    expect(() => toolResultArtifact(artifact(), { version: version as number })).toThrow(ArtifactSchemaError);
  });

  it('rejects a non-object options argument and an options object whose version getter throws', () => {
    expect(() => toolResultArtifact(artifact(), 1 as never)).toThrow(
      expect.objectContaining({ code: 'invalid-options' }),
    );
    expect(() => toolResultArtifact(artifact(), throwingGetter({}, 'version'))).toThrow(
      expect.objectContaining({ code: 'invalid-version-option' }),
    );
  });
});
