import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlobNfa } from '../src/glob.js';
import { compileGlob, GlobSyntaxError } from '../src/index.js';

const path = (g: string, s: string) => compileGlob(g, 'path').test(s);
const text = (g: string, s: string) => compileGlob(g, 'text').test(s);

describe('globToRegExp', () => {
  it.each([
    ['*.ts', 'a.ts', true],
    ['*.ts', 'a/b.ts', false],
    ['src/**', 'src/a/b/c', true],
    ['src/**', 'srcx/a', false],
    ['**/*.ts', 'a.ts', true],
    ['**/*.ts', 'x/y/a.ts', true],
    ['a/**/b', 'a/b', true],
    ['a/**/b', 'a/x/y/b', true],
    ['a/**/b', 'a/xb', false],
    ['a**b', 'a/b', false],
    ['a**b', 'axxb', true],
    ['?.md', 'a.md', true],
    ['?.md', '/.md', false],
    ['*.{ts,tsx}', 'a.tsx', true],
    ['*.{ts,tsx}', 'a.js', false],
    ['{a,{b,c}}.x', 'c.x', true],
    ['[abc].x', 'b.x', true],
    ['[!abc].x', 'b.x', false],
    ['[^abc].x', 'd.x', true],
    ['[!abc].x', '/.x', false],
    ['\\*.x', '*.x', true],
    ['\\*.x', 'a.x', false],
    ['a.b', 'axb', false],
    ['(x)+$', '(x)+$', true],
  ])('path %j vs %j -> %s', (g, s, expected) => {
    expect(path(g, s)).toBe(expected);
  });

  it.each([
    ['git status*', 'git status --short a/b', true],
    ['git *', 'git', false],
    ['*', 'anything / at all', true],
    ['a?c', 'a/c', true],
    ['https://x.org/*', 'https://x.org/a/b', true],
  ])('text %j vs %j -> %s', (g, s, expected) => {
    expect(text(g, s)).toBe(expected);
  });

  it.each(['{a', '[a', 'a\\', '[z-a]', 'a}', '{a,b}'.repeat(9)])('%j is a GlobSyntaxError', (g) => {
    expect(() => compileGlob(g, 'path')).toThrow(GlobSyntaxError);
  });

  it('a literal pattern (no glob syntax) matches exactly itself', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }).filter((s) => !/[*?[{}\\,\]]/.test(s)),
        fc.string({ maxLength: 30 }),
        (lit, other) => {
          expect(path(lit, lit)).toBe(true);
          expect(text(lit, lit)).toBe(true);
          expect(text(lit, other)).toBe(lit === other);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('path * never crosses a slash', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), (a, b) => {
        expect(path('x/*', `x/${a}/${b}`)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('does not backtrack catastrophically on many wildcards', () => {
    // With a backtracking RegExp this pair takes minutes; the NFA answers in well under a millisecond per char.
    const g = `${'*a'.repeat(20)}b`;
    expect(path(g, 'a'.repeat(40))).toBe(false);
    expect(text(g, 'a'.repeat(2000))).toBe(false);
    expect(text('*'.repeat(5000), 'x'.repeat(5000))).toBe(true);
    expect(path('**/a/**/b/**/c', `${'a/'.repeat(300)}x`)).toBe(false);
  });

  it('matches astral characters as single characters', () => {
    expect(path('?.txt', '😀.txt')).toBe(true);
    expect(path('[😀-😂]', '😁')).toBe(true);
    expect(compileGlobNfa('?.txt', 'path').test('😀.txt')).toBe(true);
  });

  const globAtom = fc.constantFrom(
    'a',
    'b',
    '/',
    '*',
    '**',
    '?',
    '[ab]',
    '[!a]',
    '{a,b/}',
    '.',
    '**/',
    '\\*',
  );
  const inputAtom = fc.constantFrom('a', 'b', '/', '.', '*', 'c');
  it('the RegExp fast path and the NFA agree on every pattern and input', () => {
    fc.assert(
      fc.property(
        fc.array(globAtom, { maxLength: 6 }).map((a) => a.join('')),
        fc.array(inputAtom, { maxLength: 10 }).map((a) => a.join('')),
        fc.constantFrom<'path' | 'text'>('path', 'text'),
        (g, s, flavour) => {
          expect(compileGlob(g, flavour).test(s)).toBe(compileGlobNfa(g, flavour).test(s));
        },
      ),
      { numRuns: 1000 },
    );
  });
});
