import { mkdir, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { globFiles, grepFiles } from '../src/search.js';
import { Workspace } from '../src/workspace.js';
import { failure, tempDir, writeTree } from './helpers.js';

async function repo() {
  const root = await tempDir();
  await writeTree(root, {
    '.gitignore': 'dist/\n*.log\n!keep.log\n',
    'src/a.ts': 'export const alpha = 1;\n// TODO: alpha\n',
    'src/b.tsx': 'export const Beta = () => null; // todo later\n',
    'src/nested/.gitignore': 'generated.ts\n',
    'src/nested/generated.ts': 'TODO generated\n',
    'src/nested/c.ts': 'const c = "TODO";\n',
    'dist/out.js': 'TODO built\n',
    'debug.log': 'TODO log\n',
    'keep.log': 'TODO kept\n',
    '.git/HEAD': 'ref: TODO\n',
    '.hidden/h.ts': 'TODO hidden\n',
    'bin/data.bin': new Uint8Array([0, 84, 79, 68, 79]),
  });
  return { root, ws: new Workspace({ cwd: root }) };
}

describe('globFiles', () => {
  it('matches a pattern, honouring nested .gitignore files and negations, skipping .git', async () => {
    const { ws } = await repo();
    const out = await globFiles(ws, { pattern: '**/*' });
    const paths = out.rows.map((r) => r.path).sort();
    expect(paths).toEqual(
      [
        '.gitignore',
        '.hidden/h.ts',
        'bin/data.bin',
        'keep.log',
        'src/a.ts',
        'src/b.tsx',
        'src/nested/.gitignore',
        'src/nested/c.ts',
      ].sort(),
    );
    expect(out.columns.map((c) => c.name)).toEqual(['path', 'size', 'modified']);
  });

  it('narrows by the pattern base and by path, and lists newest first', async () => {
    const { ws, root } = await repo();
    await utimes(path.join(root, 'src/a.ts'), new Date('2020-01-01'), new Date('2020-01-01'));
    await utimes(path.join(root, 'src/nested/c.ts'), new Date('2030-01-01'), new Date('2030-01-01'));
    const out = await globFiles(ws, { pattern: 'src/**/*.ts' });
    expect(out.value).toBe('src/nested/c.ts\nsrc/a.ts');
    const inSrc = await globFiles(ws, { pattern: '*.{ts,tsx}', path: 'src' });
    expect(inSrc.rows.map((r) => r.path).sort()).toEqual(['src/a.ts', 'src/b.tsx']);
    const absolute = await globFiles(ws, { pattern: `${root}/src/**/*.tsx` });
    expect(absolute.value).toBe('src/b.tsx');
    const exact = await globFiles(ws, { pattern: 'src/a.ts' });
    expect(exact.value).toBe('src/a.ts');
    expect((await globFiles(ws, { pattern: 'nothing/**/*.py' })).value).toBe(
      'No files match nothing/**/*.py',
    );
  });

  it('caps the listing and says so', async () => {
    const root = await tempDir();
    await writeTree(root, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}.txt`, 'x'])));
    const out = await globFiles(new Workspace({ cwd: root }), { pattern: '*.txt' }, { maxResults: 5 });
    expect(out.count).toBe(5);
    expect(out.truncated).toBe(true);
    expect(out.value.endsWith('[Showing 5 of 12 files; narrow the pattern or path]')).toBe(true);
  });

  it('does not follow symlinks out of the workspace and refuses escaping patterns', async () => {
    const { ws, root } = await repo();
    const outside = await tempDir();
    await writeFile(path.join(outside, 'secret.ts'), 'x');
    await symlink(outside, path.join(root, 'link'));
    const out = await globFiles(ws, { pattern: '**/*.ts' });
    expect(out.rows.some((r) => String(r.path).includes('secret'))).toBe(false);
    expect((await failure(globFiles(ws, { pattern: '../**/*' }))).code).toBe('outside-workspace');
    expect((await failure(globFiles(ws, { pattern: `${outside}/**/*.ts` }))).code).toBe('outside-workspace');
    expect((await failure(globFiles(ws, { pattern: '*', path: 'link' }))).code).toBe('outside-workspace');
    expect((await failure(globFiles(ws, { pattern: '*', path: 'src/a.ts' }))).code).toBe('not-a-directory');
  });
});

describe('grepFiles', () => {
  it('finds matching lines as path:line:text, honouring .gitignore and skipping binaries', async () => {
    const { ws } = await repo();
    const out = await grepFiles(ws, { pattern: 'TODO' });
    expect(out.value.split('\n').sort()).toEqual(
      [
        '.hidden/h.ts:1:TODO hidden',
        'keep.log:1:TODO kept',
        'src/a.ts:2:// TODO: alpha',
        'src/nested/c.ts:1:const c = "TODO";',
      ].sort(),
    );
    expect(out.rows[0]).toHaveProperty('line');
    expect(out.columns.map((c) => c.name)).toEqual(['path', 'line', 'text']);
  });

  it('supports ignore_case, glob filters and the other output modes', async () => {
    const { ws } = await repo();
    const ci = await grepFiles(ws, { pattern: 'todo', ignore_case: true, glob: '*.tsx' });
    expect(ci.value).toBe('src/b.tsx:1:export const Beta = () => null; // todo later');
    const files = await grepFiles(ws, { pattern: 'TODO', output_mode: 'files_with_matches', path: 'src' });
    expect(files.value.split('\n').sort()).toEqual(['src/a.ts', 'src/nested/c.ts']);
    const counts = await grepFiles(ws, { pattern: 'alpha', output_mode: 'count' });
    expect(counts.value).toBe('src/a.ts:2');
    expect(counts.rows).toEqual([{ path: 'src/a.ts', count: 2 }]);
    const one = await grepFiles(ws, { pattern: 'const', path: 'src/a.ts' });
    expect(one.value).toBe('src/a.ts:1:export const alpha = 1;');
    // An ignored directory asked for by name is searched.
    expect((await grepFiles(ws, { pattern: 'TODO', path: 'dist' })).value).toBe('dist/out.js:1:TODO built');
    expect((await globFiles(ws, { pattern: 'dist/**/*.js' })).value).toBe('dist/out.js');
    const none = await grepFiles(ws, { pattern: 'zzz' });
    expect(none.value).toBe('No matches for /zzz/ in .');
  });

  it('caps matches and long lines', async () => {
    const root = await tempDir();
    await writeTree(root, { 'many.txt': `${'hit '.repeat(100)}\n`.repeat(50) });
    const out = await grepFiles(
      new Workspace({ cwd: root }),
      { pattern: 'hit' },
      { maxResults: 10, maxLineLength: 8 },
    );
    expect(out.count).toBe(10);
    expect(out.truncated).toBe(true);
    expect(out.value.split('\n')[0]).toBe('many.txt:1:hit hit … [392 more characters]');
    expect(out.value.endsWith('[Stopped at 10 results; narrow the pattern, path or glob]')).toBe(true);
  });

  it('rejects an invalid regex and escaping paths with clear one-line errors', async () => {
    const { ws } = await repo();
    const bad = await failure(grepFiles(ws, { pattern: '(unclosed' }));
    expect(bad.code).toBe('invalid-regex');
    expect(bad.message).toMatch(/^Invalid regular expression: /);
    expect(bad.message).not.toContain('\n');
    expect((await failure(grepFiles(ws, { pattern: 'x', path: '..' }))).code).toBe('outside-workspace');
  });

  it('keeps walk order stable across runs with concurrent reads', async () => {
    const root = await tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i += 1) files[`d${i % 3}/f${String(i).padStart(2, '0')}.txt`] = `match ${i}\n`;
    await writeTree(root, files);
    const ws = new Workspace({ cwd: root });
    const first = await grepFiles(ws, { pattern: 'match' });
    const second = await grepFiles(ws, { pattern: 'match' });
    expect(first.value).toBe(second.value);
    expect(first.count).toBe(60);
    const sorted = [...first.rows].map((r) => r.path);
    expect(sorted).toEqual([...sorted].sort());
  });

  it('handles odd file names and directories it cannot read', async () => {
    const root = await tempDir();
    await mkdir(path.join(root, 'locked'));
    await writeTree(root, {
      'locked/x.txt': 'needle',
      'we ird[1]#!.txt': 'needle',
      '...dots/f.txt': 'needle',
    });
    const ws = new Workspace({ cwd: root });
    const out = await grepFiles(ws, { pattern: 'needle', output_mode: 'files_with_matches' });
    expect(out.value.split('\n').sort()).toEqual(['...dots/f.txt', 'locked/x.txt', 'we ird[1]#!.txt']);
  });
});

describe('catastrophic patterns', () => {
  it('stops a backtracking regex with a clear error instead of freezing the process', async () => {
    const root = await tempDir();
    await writeTree(root, { 'evil.txt': `${'a'.repeat(40)}b\n`, 'ok.txt': 'fine\n' });
    const ws = new Workspace({ cwd: root });
    let ticks = 0;
    const ticker = setInterval(() => {
      ticks += 1;
    }, 20);
    const error = await failure(grepFiles(ws, { pattern: '^(a+)+$' }, { regexTimeoutMs: 500 }));
    clearInterval(ticker);
    expect(error.code).toBe('regex-timeout');
    expect(error.message).toMatch(/^Grep stopped: one batch of files took over 500 ms; simplify the pattern/);
    // The event loop kept running while the worker was stuck.
    expect(ticks).toBeGreaterThan(0);
    // A sane pattern still works afterwards.
    expect((await grepFiles(ws, { pattern: 'fine' })).value).toBe('ok.txt:1:fine');
  });
});

describe('model-written globs', () => {
  const longName = `${'a'.repeat(200)}.txt`;

  it('match a long file name against a many-wildcard pattern without backtracking (picomatch froze here)', async () => {
    const root = await tempDir();
    await writeTree(root, { [`deep/${longName}`]: 'hit\n', 'deep/ab.txt': 'hit\n' });
    const ws = new Workspace({ cwd: root });
    const pattern = '**/*a*a*a*a*a*a*a*a*a*a*a*a*b';
    const glob = await globFiles(ws, { pattern });
    expect(glob.rows).toEqual([]);
    const grep = await grepFiles(ws, { pattern: 'hit', glob: '*a*a*a*a*a*a*a*a*a*a*a*a*b' });
    expect(grep.value).not.toContain(longName);
    // The same matcher still finds what it should: a basename glob and a path glob.
    expect((await grepFiles(ws, { pattern: 'hit', glob: 'a*.txt' })).value.split('\n').sort()).toEqual([
      `deep/${longName}:1:hit`,
      'deep/ab.txt:1:hit',
    ]);
    expect((await globFiles(ws, { pattern: 'deep/ab.*' })).rows.map((r) => r.path)).toEqual(['deep/ab.txt']);
  });

  it('rejects a malformed glob with a clear one-line error', async () => {
    const root = await tempDir();
    const ws = new Workspace({ cwd: root });
    expect((await failure(globFiles(ws, { pattern: 'src/{a,b' }))).code).toBe('invalid-input');
    const grepError = await failure(grepFiles(ws, { pattern: 'x', glob: '[z-a]' }));
    expect(grepError.message).toMatch(/^glob: /);
  });
});
