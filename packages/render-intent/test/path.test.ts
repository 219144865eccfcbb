import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayPath, isAbsolutePath, resolvePath } from '../src/index.js';

describe('displayPath: relativise only inside the cwd', () => {
  it.each([
    ['/a/b/c.ts', '/a/b', 'c.ts'],
    ['/a/b', '/a/b', '.'],
    ['/a/b/', '/a/b', '.'],
    ['/a/b', '/a/bc', '/a/b'],
    ['/a/bc/x', '/a/b', '/a/bc/x'],
    ['/a/..cache/x', '/a', '..cache/x'],
    ['/a/.git/config', '/a', '.git/config'],
    ['/a/b/../c', '/a/b', '/a/c'],
    ['/a/./b//c', '/a', 'b/c'],
    ['/etc/passwd', '/work', '/etc/passwd'],
    ['src/x.ts', '/work', 'src/x.ts'],
    ['./src/x.ts', '/work', 'src/x.ts'],
    ['../other/x.ts', '/work/p', '/work/other/x.ts'],
    ['src/../../../etc/passwd', '/work/p', '/etc/passwd'],
    ['/a/b', '/', 'a/b'],
    ['/x', undefined, '/x'],
    ['rel', 'not/absolute', 'rel'],
    ['C:\\work\\p\\src\\a.ts', 'C:\\work\\p', 'src\\a.ts'],
    ['c:\\WORK\\P\\src\\a.ts', 'C:\\work\\p', 'src\\a.ts'],
    ['C:/work/p/src/a.ts', 'C:\\work\\p', 'src/a.ts'],
    ['src/a.ts', 'C:\\work\\p', 'src/a.ts'],
    ['src\\a.ts', 'C:\\work\\p', 'src\\a.ts'],
    ['C:\\work\\pq\\a.ts', 'C:\\work\\p', 'C:\\work\\pq\\a.ts'],
    ['D:\\work\\p\\a.ts', 'C:\\work\\p', 'D:\\work\\p\\a.ts'],
    ['\\\\srv\\share\\p\\a.ts', '\\\\srv\\share\\p', 'a.ts'],
    ['/work/p/a.ts', 'C:\\work\\p', '/work/p/a.ts'],
  ])('displayPath(%j, %j) = %j', (path, cwd, expected) => {
    expect(displayPath(path, cwd)).toBe(expected);
  });
});

describe('resolvePath: absolute paths for ACP', () => {
  it.each([
    ['src/x.ts', '/work', '/work/src/x.ts'],
    ['/abs/x', '/work', '/abs/x'],
    ['/abs/../x', '/work', '/x'],
    ['../../../..', '/work/p', '/'],
    ['', '/work', '/work'],
    ['x', undefined, 'x'],
    ['x', 'relative/cwd', 'x'],
    ['src\\a.ts', 'C:\\work', 'C:\\work\\src\\a.ts'],
    ['..\\a.ts', 'C:\\work\\p', 'C:\\work\\a.ts'],
    ['\\tmp\\a', 'C:\\work', 'C:\\tmp\\a'],
    ['C:rel', 'C:\\work', 'C:\\work\\rel'],
    ['D:rel', 'C:\\work', 'D:\\rel'],
    ['C:/x/./y', undefined, 'C:/x/y'],
    ['\\\\srv\\share\\..\\..\\x', undefined, '\\\\srv\\share\\x'],
  ])('resolvePath(%j, %j) = %j', (path, cwd, expected) => {
    expect(resolvePath(path, cwd)).toBe(expected);
  });

  it('isAbsolutePath knows both styles', () => {
    expect(['/', '/a', 'C:\\a', 'c:/a', '\\\\srv\\share'].map(isAbsolutePath)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['a', './a', 'C:a', '', '~/a'].map(isAbsolutePath)).toEqual([false, false, false, false, false]);
  });
});

const segment = fc.constantFrom('a', 'b', 'bc', '.', '..', '..cache', '.git', '', 'x y', 'é');
const posixPath = fc.array(segment, { maxLength: 6 }).map((s) => s.join('/'));

describe('path properties', () => {
  it('resolvePath is idempotent and always absolute for an absolute cwd', () => {
    fc.assert(
      fc.property(posixPath, posixPath, (p, c) => {
        const cwd = `/${c}`;
        const abs = resolvePath(p, cwd);
        expect(isAbsolutePath(abs)).toBe(true);
        expect(resolvePath(abs, cwd)).toBe(abs);
        expect(abs.split('/').slice(1)).not.toContain('..');
      }),
    );
  });

  it('displayPath resolves back to the same absolute path, and is relative only inside the cwd', () => {
    fc.assert(
      fc.property(posixPath, posixPath, fc.boolean(), (p, c, absolute) => {
        const cwd = resolvePath(`/${c}`);
        const path = absolute ? `/${p}` : p;
        const shown = displayPath(path, cwd);
        expect(resolvePath(shown, cwd)).toBe(resolvePath(path, cwd));
        const abs = resolvePath(path, cwd);
        const inside = abs === cwd || abs.startsWith(cwd === '/' ? '/' : `${cwd}/`);
        expect(isAbsolutePath(shown)).toBe(!inside);
        if (inside) expect(shown === '.' || !shown.startsWith('../')).toBe(true);
      }),
    );
  });
});
