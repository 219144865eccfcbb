import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  type ArtifactSchemaError,
  ToolArtifactSchema,
  UNSERIALISABLE_OUTPUT_MESSAGE,
  normalizeToolOutput,
  toolResult,
} from '../src/index.js';
import { MAX_JSON_DEPTH } from '../src/internal/json.js';
import { ARTIFACT_KEY_ORDER, artifactOf } from './helpers.js';

function nested(depth: number): unknown {
  let x: unknown = 'leaf';
  for (let i = 0; i < depth; i++) x = { x };
  return x;
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as ArtifactSchemaError).code;
  }
  return undefined;
}

describe('toolResult', () => {
  it('produces the three channels with the artifact in contract key order', () => {
    const result = toolResult('Summary contains 2 rows.', {
      kind: 'table',
      title: 'Grouped summary',
      payload: { df: [{ g: 'a', n: 1 }] },
    });
    expect(Object.keys(result)).toEqual(['value', 'extra']);
    expect(Object.keys(result.extra)).toEqual(['codeagent']);
    expect(Object.keys(artifactOf(result))).toEqual(ARTIFACT_KEY_ORDER);
    expect(JSON.stringify(artifactOf(result))).toMatch(
      /^\{"schema":.*"version":.*"kind":.*"status":.*"icon":.*"title":.*"payload":/,
    );
  });

  it('deep-copies the payload (later mutation of the input does not leak in) and turns Dates into ISO strings', () => {
    const payload = { rows: [{ at: new Date(0) }] };
    const result = toolResult('x', { kind: 'log', payload });
    payload.rows.push({ at: new Date(1) });
    expect(artifactOf(result).payload).toEqual({ rows: [{ at: '1970-01-01T00:00:00.000Z' }] });
  });

  it.each([
    ['a function', { f: () => 1 }],
    ['a symbol', { s: Symbol('x') }],
    ['a bigint', { n: 1n }],
    ['NaN', { n: Number.NaN }],
    ['Infinity', [Number.POSITIVE_INFINITY]],
    ['a Map', { m: new Map() }],
    ['an invalid Date', { d: new Date(Number.NaN) }],
    ['a hole in an array', [1, undefined]],
    ['over-deep nesting', nested(MAX_JSON_DEPTH + 5) as Record<string, unknown>],
  ])('rejects a payload with %s as invalid-payload', (_name, payload) => {
    expect(codeOf(() => toolResult('x', { kind: 'k', payload: payload as Record<string, unknown> }))).toBe(
      'invalid-payload',
    );
  });

  it('rejects a cyclic payload', () => {
    const payload: Record<string, unknown> = {};
    payload.self = payload;
    expect(codeOf(() => toolResult('x', { kind: 'k', payload }))).toBe('invalid-payload');
  });

  it('accepts shared (non-cyclic) references and undefined object members (omitted, as in JSON)', () => {
    const shared = { a: 1 };
    const result = toolResult('x', { kind: 'k', payload: { one: shared, two: shared, gone: undefined } });
    expect(artifactOf(result).payload).toStrictEqual({ one: { a: 1 }, two: { a: 1 } });
  });

  it('keeps a "__proto__" payload key as data without touching any prototype', () => {
    const payload = JSON.parse('{"__proto__": {"polluted": true}, "text": "x"}') as Record<string, unknown>;
    const result = toolResult('x', { payload });
    const copy = artifactOf(result).payload as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'text']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(v.is(ToolArtifactSchema, artifactOf(result))).toBe(true);
  });

  it('names the offending field in the message', () => {
    expect(() => toolResult('x', { kind: 'error', status: 'success' })).toThrow(
      /kind "error" always has status "error"/,
    );
    expect(() => toolResult('x', { kind: 'table' })).toThrow(/kind "table" needs a payload/);
  });
});

describe('normalizeToolOutput', () => {
  it('turns undefined (a void tool) into an empty text result', () => {
    expect(normalizeToolOutput(undefined)).toStrictEqual(toolResult(''));
  });

  it.each([
    ['a function', () => 'secret-in-closure'],
    ['a bigint', 12345678901234567890n],
    ['NaN', Number.NaN],
    ['a symbol', Symbol('secret')],
    ['a Map', new Map([['secret', 'hunter2']])],
    ['an Error', new Error('secret hunter2')],
    [
      'a class instance',
      new (class Secret {
        password = 'hunter2';
      })(),
    ],
    ['an object with a function member', { password: 'hunter2', f() {} }],
  ])('turns %s into an error result with a fixed value that never echoes the contents', (_name, output) => {
    const result = normalizeToolOutput(output);
    expect(result.value).toBe(UNSERIALISABLE_OUTPUT_MESSAGE);
    expect(artifactOf(result).kind).toBe('error');
    expect(artifactOf(result).status).toBe('error');
    expect(Object.keys(artifactOf(result))).toEqual(ARTIFACT_KEY_ORDER);
    expect(JSON.stringify(result)).not.toMatch(/hunter2|secret/);
  });

  it('reports the reason category (never the contents) in the error payload', () => {
    const cyclic: Record<string, unknown> = { password: 'hunter2' };
    cyclic.self = cyclic;
    expect(artifactOf(normalizeToolOutput(cyclic)).payload).toEqual({
      message: UNSERIALISABLE_OUTPUT_MESSAGE,
      detail: 'cycle',
    });
    expect(artifactOf(normalizeToolOutput(nested(5000))).payload).toEqual({
      message: UNSERIALISABLE_OUTPUT_MESSAGE,
      detail: 'too-deep',
    });
    const getter = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('hunter2');
      },
    });
    expect(artifactOf(normalizeToolOutput(getter)).payload).toEqual({
      message: UNSERIALISABLE_OUTPUT_MESSAGE,
      detail: 'unreadable',
    });
  });

  it('handles a large table', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ i, name: `row ${i}`, ok: i % 2 === 0 }));
    const result = normalizeToolOutput(rows);
    expect(artifactOf(result).kind).toBe('table');
    expect((artifactOf(result).payload as { df: unknown[] }).df).toHaveLength(20_000);
    expect((artifactOf(result).payload as { columns: unknown }).columns).toEqual([
      { name: 'i', type: 'number' },
      { name: 'name', type: 'string' },
      { name: 'ok', type: 'boolean' },
    ]);
    expect(JSON.parse(result.value)).toEqual(rows);
  });

  it('keeps the artifact key order on every branch', () => {
    for (const output of [
      's',
      undefined,
      1,
      { a: 1 },
      [{ a: 1 }],
      [],
      () => 1,
      toolResult('x', { kind: 'error' }),
    ]) {
      expect(Object.keys(artifactOf(normalizeToolOutput(output)))).toEqual(ARTIFACT_KEY_ORDER);
    }
  });
});
