import { describe, expect, it } from 'vitest';
import {
  assertNever,
  matchCallView,
  matchResultView,
  RenderIntentError,
  safeJson,
  type ToolCallView,
  type ToolResultView,
} from '../src/index.js';

const callHandlers = { generic: () => 'g', terminal: () => 't', diff: () => 'd' };

describe('matchers', () => {
  it('dispatch every card to its handler', () => {
    const calls: ToolCallView[] = [
      { card: 'generic', title: 'a' },
      { card: 'terminal', title: 'ls' },
      { card: 'diff', title: 'd', diffs: [] },
    ];
    expect(calls.map((v) => matchCallView(v, callHandlers))).toEqual(['g', 't', 'd']);
    const results: ToolResultView[] = [
      { card: 'generic' },
      { card: 'terminal' },
      { card: 'diff', diffs: [] },
    ];
    expect(results.map((v) => matchResultView(v, callHandlers))).toEqual(['g', 't', 'd']);
  });

  it('an unknown card forced through a cast throws `unreachable variant`', () => {
    const forged = { card: 'table', title: 'rows', rows: [[1, 2]] } as unknown as ToolCallView;
    expect(() => matchCallView(forged, callHandlers)).toThrowError(
      'unreachable variant in matchCallView: {"card":"table","title":"rows","rows":[[1,2]]}',
    );
    expect(() => matchResultView({ card: 'chart' } as unknown as ToolResultView, callHandlers)).toThrowError(
      'unreachable variant in matchResultView: {"card":"chart"}',
    );
    try {
      matchCallView(forged, callHandlers);
    } catch (error) {
      expect(error).toBeInstanceOf(RenderIntentError);
      expect((error as RenderIntentError).code).toBe('unreachable-variant');
    }
  });
});

describe('assertNever message JSON is safe', () => {
  const message = (value: unknown, ctx?: string): string => {
    try {
      assertNever(value as never, ctx);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('did not throw');
  };

  it('uses the default context', () => {
    expect(message(1)).toBe('unreachable variant in switch: 1');
  });

  it('survives cycles and shared references', () => {
    const a: Record<string, unknown> = { card: 'x' };
    a.self = a;
    const shared = { s: 1 };
    expect(message(a, 'bridge')).toBe('unreachable variant in bridge: {"card":"x","self":"[Circular]"}');
    expect(safeJson([shared, shared])).toBe('[{"s":1},{"s":1}]');
  });

  it('survives bigint, functions, symbols, undefined and non-finite numbers', () => {
    expect(safeJson({ n: 10n, f() {}, s: Symbol('x'), u: undefined, i: Number.POSITIVE_INFINITY })).toBe(
      '{"n":"10n","f":"[Function]","s":"[Symbol]","u":null,"i":null}',
    );
  });

  it('truncates huge values without walking all of them', () => {
    const huge = {
      card: 'x',
      data: 'y'.repeat(1_000_000),
      more: Array.from({ length: 100_000 }, (_, i) => i),
    };
    const text = message(huge);
    expect(text.length).toBeLessThan(400);
    expect(text.endsWith('…(truncated)')).toBe(true);
    let reads = 0;
    const items = new Proxy([] as number[], {
      get(target, key) {
        if (key === 'length') return 1_000_000;
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key);
      },
    });
    safeJson(items);
    expect(reads).toBeLessThan(300);
  });

  it('caps deep nesting instead of overflowing the stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(safeJson(deep, 10_000)).toBe(`${'{"d":'.repeat(8)}"[…]"${'}'.repeat(8)}`);
  });

  it('survives throwing getters and hostile proxies', () => {
    const getter = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(safeJson(getter)).toBe('{"boom":"[Unreadable]"}');
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys');
        },
      },
    );
    expect(() => safeJson(hostile)).not.toThrow();
    expect(message(hostile)).toMatch(/^unreachable variant in switch: /);
  });

  it('keeps escapes and markup inert (JSON-escaped)', () => {
    expect(safeJson({ t: '<script>\u001b]0;x\u0007' })).toBe('{"t":"<script>\\u001b]0;x\\u0007"}');
  });
});
