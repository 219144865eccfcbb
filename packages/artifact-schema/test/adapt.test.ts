import { describe, expect, it } from 'vitest';
import { adaptToolResult, toolResult } from '../src/index.js';
import { explodingProxy, revokedProxy } from './arbitraries.js';
import { ARTIFACT_KEY_ORDER, artifactOf } from './helpers.js';

const v1 = {
  schema: 'codeagent.tool-artifact',
  version: 1,
  kind: 'text',
  status: 'success',
  icon: null,
  title: null,
  payload: { text: 'hi' },
};

describe('adaptToolResult', () => {
  it('does not mutate its input and keeps preserved values by identity', () => {
    const request = { id: 'c1', name: 'Read', arguments: { path: 'a' } };
    const display = { html: '<b>x</b>' };
    const input = {
      value: 'v',
      request,
      error: null,
      extra: { display, codeagent: { artifact: { ...v1, status: 'odd', x: 1 } } },
    };
    const snapshot = structuredClone(input);
    const out = adaptToolResult(input);
    expect(input).toStrictEqual(snapshot);
    expect(out.request).toBe(request);
    expect(out.extra.display).toBe(display);
    expect(out.extra).not.toBe(input.extra);
    expect(artifactOf(out)).not.toBe(input.extra.codeagent.artifact);
  });

  it('replaces an artifact whose payload cannot be copied (cycle, depth, getter) by a text artifact', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let deep: unknown = {};
    for (let i = 0; i < 5000; i++) deep = { deep };
    const getter = Object.defineProperty({}, 'x', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    for (const payload of [cyclic, deep, getter, revokedProxy()]) {
      const out = adaptToolResult({
        value: 'fallback',
        extra: { codeagent: { artifact: { ...v1, payload } } },
      });
      expect(artifactOf(out)).toStrictEqual({ ...v1, payload: { text: 'fallback' } });
    }
  });

  it('survives hostile containers and drops only what cannot be read', () => {
    const hostile = Object.defineProperty({ value: 'v', keep: 1 }, 'extra', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    const out = adaptToolResult(hostile);
    expect(out).toStrictEqual({
      value: 'v',
      extra: { codeagent: { artifact: { ...v1, payload: { text: 'v' } } } },
      keep: 1,
    });
    expect(adaptToolResult(explodingProxy())).toStrictEqual(adaptToolResult({}));
    expect(adaptToolResult(revokedProxy()).value).toBe('');
  });

  it('keeps a "__proto__" key of a preserved object as data', () => {
    const input = JSON.parse(
      '{"value":"v","__proto__":{"polluted":true},"extra":{"__proto__":{"p":1}}}',
    ) as unknown;
    const out = adaptToolResult(input) as unknown as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toContain('__proto__');
    expect(Object.keys(out.extra as object)).toEqual(['__proto__', 'codeagent']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(adaptToolResult(out)).toStrictEqual(out);
  });

  it('keeps the artifact key order on every branch (v1, legacy, garbage, missing, future)', () => {
    const inputs = [
      toolResult('x'),
      { value: 'x', extra: { codeagent: { artifact: { payload: {}, kind: 'table' } } } },
      { value: 'x', extra: { codeagent: { artifact: 'garbage' } } },
      { value: 'x' },
      { value: 'x', extra: { codeagent: { artifact: { ...v1, version: 3, more: true } } } },
      'plain',
      null,
    ];
    for (const input of inputs) {
      expect(Object.keys(artifactOf(adaptToolResult(input))).slice(0, 7)).toEqual(ARTIFACT_KEY_ORDER);
    }
  });
});
