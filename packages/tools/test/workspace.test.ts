import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../src/errors.js';
import { Workspace } from '../src/workspace.js';
import { tempDir } from './helpers.js';

async function refused(p: Promise<unknown>): Promise<ToolError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe('Workspace confinement', () => {
  it('resolves relative and absolute paths inside the root', async () => {
    const root = await tempDir();
    await writeFile(path.join(root, 'a.txt'), 'x');
    const ws = new Workspace({ cwd: root });
    const rel = await ws.resolve('a.txt');
    expect(rel).toMatchObject({ real: path.join(root, 'a.txt'), display: 'a.txt', exists: true });
    const abs = await ws.resolve(path.join(root, 'sub/../a.txt'));
    expect(abs.real).toBe(path.join(root, 'a.txt'));
    const missing = await ws.resolve('new/dir/file.ts');
    expect(missing).toMatchObject({
      exists: false,
      real: path.join(root, 'new/dir/file.ts'),
      display: 'new/dir/file.ts',
    });
  });

  it('refuses .. traversal out of the root', async () => {
    const root = await tempDir();
    const ws = new Workspace({ cwd: root });
    const error = await refused(ws.resolve('../outside.txt'));
    expect(error.code).toBe('outside-workspace');
    expect(error.message).toContain('is outside the workspace roots');
    expect(error.message).not.toContain('\n');
    expect((await refused(ws.resolve('sub/../../x'))).code).toBe('outside-workspace');
  });

  it('refuses absolute paths outside every root', async () => {
    const root = await tempDir();
    const ws = new Workspace({ cwd: root });
    expect((await refused(ws.resolve('/etc/passwd'))).code).toBe('outside-workspace');
    // A sibling whose name starts with the root's name is not inside it.
    expect((await refused(ws.resolve(`${root}-evil/x`))).code).toBe('outside-workspace');
  });

  it('refuses a symlinked file whose target is outside', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    await writeFile(path.join(outside, 'secret.txt'), 'secret');
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    const ws = new Workspace({ cwd: root });
    const error = await refused(ws.resolve('link.txt'));
    expect(error.code).toBe('outside-workspace');
    expect(error.message).toContain('symbolic link');
  });

  it('refuses a not-yet-existing file under a symlinked directory that escapes', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    await symlink(outside, path.join(root, 'escape'));
    const ws = new Workspace({ cwd: root });
    expect((await refused(ws.resolve('escape/new-file.txt'))).code).toBe('outside-workspace');
    expect((await refused(ws.resolve('escape/deeper/new/file.txt'))).code).toBe('outside-workspace');
  });

  it('refuses a dangling symlink (its target could be created outside)', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    await symlink(path.join(outside, 'not-yet'), path.join(root, 'dangling'));
    const ws = new Workspace({ cwd: root });
    const error = await refused(ws.resolve('dangling'));
    expect(error.code).toBe('outside-workspace');
    expect(error.message).toContain('dangling symbolic link');
  });

  it('allows symlinks that stay inside, and paths in a root the host added', async () => {
    const root = await tempDir();
    const extra = await tempDir();
    await mkdir(path.join(root, 'real'));
    await writeFile(path.join(root, 'real/f.txt'), 'ok');
    await symlink(path.join(root, 'real'), path.join(root, 'alias'));
    await symlink(extra, path.join(root, 'to-extra'));
    const ws = new Workspace({ cwd: root });
    expect((await ws.resolve('alias/f.txt')).real).toBe(path.join(root, 'real/f.txt'));
    await refused(ws.resolve('to-extra/x'));
    ws.addRoot(extra);
    expect((await ws.resolve('to-extra/x')).real).toBe(path.join(extra, 'x'));
    const other = new Workspace({ cwd: root, roots: [extra] });
    expect((await other.resolve(path.join(extra, 'y.txt'))).display).toBe(path.join(extra, 'y.txt'));
    expect(other.roots).toEqual([root, extra]);
  });

  it('works when the cwd itself is reached through a symlink', async () => {
    const real = await tempDir();
    const holder = await tempDir();
    await writeFile(path.join(real, 'a.txt'), 'x');
    await symlink(real, path.join(holder, 'link'));
    const ws = new Workspace({ cwd: path.join(holder, 'link') });
    const r = await ws.resolve('a.txt');
    expect(r).toMatchObject({ real: path.join(real, 'a.txt'), display: 'a.txt', exists: true });
    expect((await ws.resolve(path.join(real, 'a.txt'))).display).toBe('a.txt');
    expect((await refused(ws.resolve('../link/../../x'))).code).toBe('outside-workspace');
  });

  it('rejects empty paths, NUL bytes and a missing root with clear errors', async () => {
    const root = await tempDir();
    const ws = new Workspace({ cwd: root });
    expect((await refused(ws.resolve(''))).code).toBe('invalid-input');
    expect((await refused(ws.resolve('a\0b'))).message).toContain('NUL');
    expect(() => new Workspace({ cwd: path.join(root, 'missing') })).toThrow(/does not exist/);
  });

  it('never returns a path outside the roots, whatever the segments (property)', async () => {
    const root = await tempDir();
    await mkdir(path.join(root, 'a/b'), { recursive: true });
    const outside = await tempDir();
    await symlink(outside, path.join(root, 'a/out'));
    await symlink(path.join(root, 'a/b'), path.join(root, 'in'));
    const ws = new Workspace({ cwd: root });
    const segment = fc.constantFrom('..', '.', 'a', 'b', 'out', 'in', 'x', '', '...', '..a');
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 7 }),
        fc.boolean(),
        async (segs, absolute) => {
          const input = (absolute ? `${root}/` : '') + segs.join('/');
          try {
            const r = await ws.resolve(input === '' ? '.' : input);
            const rel = path.relative(root, r.real);
            expect(rel === '..' || rel.startsWith('../') || path.isAbsolute(rel)).toBe(false);
          } catch (error) {
            expect(error).toBeInstanceOf(ToolError);
            expect(['outside-workspace', 'invalid-input']).toContain((error as ToolError).code);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
