import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isErrorSet, isPlainObject, isRecord, toText } from '../src/internal.js';

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
