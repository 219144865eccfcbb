import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertNever,
  isErrorSet,
  isPlainObject,
  isRecord,
  safeJson,
  toText,
  unreachableMessage,
} from '../src/internal.js';

const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};

describe('./internal: the shared readers of untrusted data', () => {
  it('isRecord: any non-null, non-array object, whatever its prototype; never throws', () => {
    for (const yes of [{}, Object.create(null), new Date(0), new (class A {})(), new Map()])
      expect(isRecord(yes)).toBe(true);
    for (const no of [null, undefined, [], new Array(3), 'x', 1, true, () => ({}), Symbol('s')]) {
      expect(isRecord(no)).toBe(false);
    }
    expect(isRecord(revoked())).toBe(false);
    fc.assert(
      fc.property(fc.anything(), (x) => {
        expect(isRecord(x)).toBe(typeof x === 'object' && x !== null && !Array.isArray(x));
      }),
    );
  });

  it('isPlainObject: only {}-like objects (null or Object prototype), never throws', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    for (const no of [new Date(0), new Map(), [], null, 'x', revoked()])
      expect(isPlainObject(no)).toBe(false);
  });

  it('isErrorSet: anything but undefined, null and false counts as a set error', () => {
    for (const yes of [true, 'boom', 0, '', {}, new Error('x')]) expect(isErrorSet(yes)).toBe(true);
    for (const no of [undefined, null, false]) expect(isErrorSet(no)).toBe(false);
  });

  it('toText: strings as they are, nothing for null/undefined, never throws', () => {
    expect(toText('a')).toBe('a');
    expect(toText(null)).toBe('');
    expect(toText(undefined)).toBe('');
    expect(toText(12)).toBe('12');
    expect(
      toText({
        toString() {
          throw new Error('hostile');
        },
      }),
    ).toBe('');
    expect(toText(Object.create(null))).toBe('');
  });
});

describe('./internal: the exhaustive-switch guard every package shares (ADR 0230)', () => {
  const thrown = (value: unknown, ctx?: string): unknown => {
    try {
      assertNever(value as never, ctx);
    } catch (error) {
      return error;
    }
    throw new Error('assertNever returned');
  };

  it('throws a plain Error with the contract message, naming where', () => {
    const error = thrown({ card: 'table', rows: [[1]] }, 'render');
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('unreachable variant in render: {"card":"table","rows":[[1]]}');
    expect((thrown('x') as Error).message).toBe('unreachable variant in switch: "x"');
  });

  it('describes hostile values without throwing anything else: cycles, bigints, getters, revoked proxies', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const getter = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    expect(unreachableMessage(cyclic, 'c')).toBe('unreachable variant in c: {"a":1,"self":"[Circular]"}');
    expect(unreachableMessage(10n, 'c')).toBe('unreachable variant in c: "10n"');
    expect(unreachableMessage(getter, 'c')).toBe('unreachable variant in c: {"boom":"[Unreadable]"}');
    expect(unreachableMessage(revoked(), 'c')).toBe('unreachable variant in c: "[Unreadable]"');
    for (const v of [cyclic, 10n, getter, revoked(), Symbol('s'), () => 1, undefined]) {
      expect((thrown(v) as Error).message.startsWith('unreachable variant in switch: ')).toBe(true);
    }
  });

  it('keeps the message short for a huge or deeply nested value', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    const huge = Array.from({ length: 1_000_000 }, (_, i) => i);
    expect(unreachableMessage(deep, 'd').length).toBeLessThan(300);
    expect(unreachableMessage(huge, 'h').length).toBeLessThan(300);
  });

  it('safeJson never throws and stays bounded for any value (property)', () => {
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true }),
        (x) => {
          const out = safeJson(x);
          expect(typeof out).toBe('string');
          expect(out.length).toBeLessThanOrEqual(200 + '…(truncated)'.length + 1);
        },
      ),
    );
  });
});
