import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalisePath } from '../src/index.js';

describe('normalisePath', () => {
  it.each([
    ['src/a.ts', 'src/a.ts', false, false],
    ['./src/../secret', 'secret', false, false],
    ['src/./x/../a.ts', 'src/a.ts', false, false],
    ['src//a.ts', 'src/a.ts', false, false],
    ['src/', 'src', false, false],
    ['.', '.', false, false],
    ['', '.', false, false],
    ['..', '..', false, true],
    ['a/../../b', '../b', false, true],
    ['/a/../../etc/passwd', '/etc/passwd', true, false],
    ['/', '/', true, false],
    ['c:\\Users\\me\\..\\x', 'C:/Users/x', true, false],
    ['src\\..\\..\\x', '../x', false, true],
    ['...', '...', false, false],
    ['a/../c:/x', 'c:/x', false, true],
    ['.hidden/..x', '.hidden/..x', false, false],
  ])('%j -> %j (absolute %s, escapes %s)', (raw, path, absolute, escapes) => {
    expect(normalisePath(raw)).toEqual({ path, absolute, escapes });
  });

  it('is idempotent and never leaves . or inner .. segments', () => {
    const seg = fc.constantFrom('a', 'b', '.', '..', '', '...', '\\', 'c:');
    fc.assert(
      fc.property(fc.array(seg, { maxLength: 8 }), fc.boolean(), (segs, abs) => {
        const raw = (abs ? '/' : '') + segs.join('/');
        const once = normalisePath(raw);
        // Idempotent for every path that may match an allow rule.
        if (!once.escapes) expect(normalisePath(once.path)).toEqual(once);
        const parts = once.path.split('/');
        expect(parts.filter((p) => p === '.').length === 0 || once.path === '.').toBe(true);
        // `..` may only appear as a leading run, and only for relative paths that escape.
        const firstNonUp = parts.findIndex((p) => p !== '..');
        expect(parts.slice(firstNonUp === -1 ? parts.length : firstNonUp).includes('..')).toBe(false);
        if (parts[0] === '..') expect(once.escapes).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
