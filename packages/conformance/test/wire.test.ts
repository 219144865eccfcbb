import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wireJson } from '../src/wire.js';

describe('wireJson (the wire serialiser of hosts and the browser runner)', () => {
  it('writes what JSON.stringify writes, for any JSON value and for undefined members and holes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(wireJson(v)).toBe(JSON.stringify(v));
      }),
      { numRuns: 500 },
    );
    const odd = {
      a: undefined,
      b: [undefined, () => 1, Number.NaN, -0],
      c: { toJSON: () => 'x' },
      d: new Date(0),
    };
    expect(wireJson(odd)).toBe(JSON.stringify(odd));
    // biome-ignore lint/suspicious/noSparseArray: a hole is what this checks
    expect(wireJson([1, , 3])).toBe('[1,null,3]');
    expect(wireJson('\u2028"\\')).toBe(JSON.stringify('\u2028"\\'));
  });

  it('carries 10,000 levels, which JSON.parse reads back; refuses a cycle and lets a throwing getter through', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = { v: deep };
    const text = wireJson({ args: [deep] });
    expect(text.length).toBe(10_000 * '{"v":}'.length + '{"args":["bottom"]}'.length);
    let back = (JSON.parse(text) as { args: unknown[] }).args[0];
    for (let i = 0; i < 10_000; i++) back = (back as { v: unknown }).v;
    expect(back).toBe('bottom');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => wireJson(cyclic)).toThrow(/cycle/);
    const shared = { x: 1 };
    expect(wireJson([shared, shared])).toBe('[{"x":1},{"x":1}]');
    const hostile = Object.defineProperty({}, 'text', {
      enumerable: true,
      get() {
        throw new Error('hostile getter');
      },
    });
    expect(() => wireJson(hostile)).toThrow(/hostile getter/);
  });
});
